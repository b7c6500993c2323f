package tablebase

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// TestSpilledGraphMatchesMemory: akon and djenon-abe built on a graph
// whose moves and offsets live in a memory-mapped temporary file
// (MethodSpill) have the same value and distance checksums, layer by
// layer, as built on the graph in memory; every layer is planned and
// recorded (layer.json) as spilled, and no temporary file or mapping is
// left once the build is done.
func TestSpilledGraphMatchesMemory(t *testing.T) {
	if !spillSupported {
		t.Skip("the graph spills to disk on Linux only")
	}
	seeds := 9
	if testsize.Short() {
		seeds = 7
	}
	for _, name := range []string{"akon", "djenon-abe"} {
		v := lookup(t, name)
		t.Run(name, func(t *testing.T) {
			want := layerChecksums(t, refBuild(t, v, seeds, MethodGraph), v)
			var plans []LayerPlan
			opts := BuildOptions{MaxSeeds: seeds, Threads: 2, Method: MethodSpill,
				LayerStart: func(p LayerPlan) { plans = append(plans, p) }}
			dir := buildAgrees(t, v, opts, want, "with the graph spilled")
			for n, method := range layerMethods(t, dir, v) {
				if p := plans[n]; method != methodSpilled || p.Method != methodSpilled || p.DiskBytes < 4*(p.Positions+1) {
					t.Errorf("layer %d: method %s, planned %s with %d bytes on disk; want %s", n, method, p.Method, p.DiskBytes, methodSpilled)
				}
			}
			checkNoSpill(t, dir, v)
		})
	}
}

// TestSpillReleasedOnCancel: a build cancelled while it writes a spilled
// graph (during the reverse pass of its last layer, when the mapping is
// seen in /proc/self/maps) unmaps it and leaves no file behind.
func TestSpillReleasedOnCancel(t *testing.T) {
	if !spillSupported {
		t.Skip("the graph spills to disk on Linux only")
	}
	v := lookup(t, "akon")
	const seeds = 8
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mapped := false
	opts := BuildOptions{MaxSeeds: seeds, Threads: 2, Method: MethodSpill,
		Progress: func(layer int, done, total int64) {
			if layer == seeds && done > total/3 && !mapped { // reversing: the graph exists
				mapped = spillMappings(t) > 0
				cancel()
			}
		}}
	_, err := Build(ctx, dir, v, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v, want context.Canceled", err)
	}
	if !mapped {
		t.Error("no spilled graph was mapped while the last layer was reversed")
	}
	checkNoSpill(t, dir, v)
}

// TestMapSpill: a spill mapping reads back what was written through it,
// its file is gone from the directory as soon as it is mapped, and the
// mapping is gone once released.
func TestMapSpill(t *testing.T) {
	if !spillSupported {
		t.Skip("the graph spills to disk on Linux only")
	}
	path := filepath.Join(t.TempDir(), stagePrefix+"05.graph")
	s := &layerSolver{size: 1000, edges: 3000, spillPath: path}
	g, err := s.newGraph(spillBoth)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the spill file is still in the directory: %v", err)
	}
	if len(g.start) != 1001 || len(g.from) != 3000 || len(g.mapped) != 4*4001 {
		t.Fatalf("start %d, from %d, mapped %d bytes", len(g.start), len(g.from), len(g.mapped))
	}
	for i := range g.from {
		g.from[i] = uint32(3 * i)
	}
	for i := range g.start {
		g.start[i] = uint32(i)
	}
	if g.from[2999] != 8997 || g.start[0] != 0 || g.start[1000] != 1000 || g.from[0] != 0 {
		t.Errorf("read back from %d %d, start %d %d", g.from[0], g.from[2999], g.start[0], g.start[1000])
	}
	if spillMappings(t) != 1 {
		t.Errorf("%d spill mappings, want 1", spillMappings(t))
	}
	if err := g.release(); err != nil {
		t.Fatal(err)
	}
	if n := spillMappings(t); n != 0 {
		t.Errorf("%d spill mappings after release, want 0", n)
	}
}

// layerMethods returns the method each stored layer of v in dir records.
func layerMethods(t *testing.T, dir string, v *position.Variant) []string {
	var methods []string
	for _, info := range completeLayers(t, dir, v) {
		methods = append(methods, info.Method)
	}
	return methods
}

// checkNoSpill fails t when a spill file is in v's directory under dir or
// a spill file is mapped into this process.
func checkNoSpill(t *testing.T, dir string, v *position.Variant) {
	t.Helper()
	entries, err := os.ReadDir(variantDir(dir, v))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".graph") {
			t.Errorf("spill file %s left in the tablebase", e.Name())
		}
	}
	if n := spillMappings(t); n != 0 {
		t.Errorf("%d spill files still mapped", n)
	}
}

// spillMappings counts the spill files mapped into this process
// (/proc/self/maps names them, with " (deleted)" once unlinked).
func spillMappings(t *testing.T) int {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(maps), "\n") {
		if strings.Contains(line, "/"+stagePrefix) && strings.Contains(line, ".graph") {
			n++
		}
	}
	return n
}
