package tablebase

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// refBuilds holds the one-machine builds that tests compare other builds
// with (checksums, values read back), each built once a run of the
// package, by the first test that asks for it, and never written again:
// under README's test command (-race) the same builds of awari and oware
// to 8..11 seeds were made again by up to six tests each, a third of the
// package's time (docs/testing.md).
var refBuilds struct {
	mu   sync.Mutex
	root string
	m    map[refKey]*refEntry
}

type refKey struct {
	name   string
	seeds  int
	method Method
}

type refEntry struct {
	once sync.Once
	dir  string
	err  error
}

// The package's knobs (lookupChunk, rankOrigin, narrowDistanceLimit,
// minLowerCache, freeSpace, beforeMeta, packVerify) are set only by
// serial tests. A few long tests that set none call t.Parallel: Go runs
// them, two at a time on two cores, once every serial test is done, so
// that no test writes a knob while they read it. Under README's test
// command the tablebase package runs last and alone, and one thread of
// its builds under -race leaves a core idle (454 CPU-s in 356 s wall).

// knobDefaults are the package's test knobs as the code sets them; a
// reference is built with them, whichever test asks for it first.
var knobDefaults = struct {
	lookupChunk, minLowerCache int64
	rankOrigin                 uint64
	narrowDistanceLimit        int
}{lookupChunk, minLowerCache, rankOrigin, narrowDistanceLimit}

// refBuild returns a tablebase of v built to maxSeeds by method (as
// build does), shared by every test that asks for the same one: read it,
// never write to it. A test that damages or extends a tablebase makes its
// own with build.
func refBuild(t testing.TB, v *position.Variant, maxSeeds int, method Method) string {
	t.Helper()
	refBuilds.mu.Lock()
	if refBuilds.m == nil {
		refBuilds.m = map[refKey]*refEntry{}
	}
	if refBuilds.root == "" {
		root, err := os.MkdirTemp("", "tbref-")
		if err != nil {
			refBuilds.mu.Unlock()
			t.Fatal(err)
		}
		refBuilds.root = root
	}
	key := refKey{v.Name, maxSeeds, method}
	e := refBuilds.m[key]
	if e == nil {
		e = &refEntry{dir: filepath.Join(refBuilds.root, fmt.Sprintf("%s-%d-%d", v.Name, maxSeeds, method))}
		refBuilds.m[key] = e
	}
	refBuilds.mu.Unlock()
	e.once.Do(func() {
		defer withDefaultKnobs()()
		_, e.err = Build(context.Background(), e.dir, v, BuildOptions{MaxSeeds: maxSeeds, Threads: 2, Method: method})
	})
	if e.err != nil {
		t.Fatalf("reference build of %s to %d: %v", v.Name, maxSeeds, e.err)
	}
	return e.dir
}

// refCopy returns a fresh copy of refBuild's tablebase, for a test that
// damages, repairs or verifies it: copying is milliseconds where a build
// of awari to 9 seeds is seconds under -race.
func refCopy(t *testing.T, v *position.Variant, maxSeeds int, method Method) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "tb")
	if err := os.CopyFS(dst, os.DirFS(refBuild(t, v, maxSeeds, method))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// withDefaultKnobs sets the knobs to their defaults for a reference
// build and returns what restores them. It writes only knobs that a test
// changed, so that tests running in parallel (which change none) only
// read them.
func withDefaultKnobs() func() {
	d := knobDefaults
	if lookupChunk == d.lookupChunk && minLowerCache == d.minLowerCache && rankOrigin == d.rankOrigin && narrowDistanceLimit == d.narrowDistanceLimit {
		return func() {}
	}
	c, m, o, n := lookupChunk, minLowerCache, rankOrigin, narrowDistanceLimit
	lookupChunk, minLowerCache, rankOrigin, narrowDistanceLimit = d.lookupChunk, d.minLowerCache, d.rankOrigin, d.narrowDistanceLimit
	return func() { lookupChunk, minLowerCache, rankOrigin, narrowDistanceLimit = c, m, o, n }
}
