package tablebase

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"

	"github.com/mancala-solver/mancala/position"
)

func lookup(t testing.TB, name string) *position.Variant {
	t.Helper()
	v, err := position.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestKeys pins the key layout documented in store_codec.go.
func TestKeys(t *testing.T) {
	v := lookup(t, "akon") // ID 3
	if got, want := fmt.Sprintf("%x", blockKey(v, 14, 258)), "420300010e00000102"; got != want {
		t.Errorf("block key %s, want %s", got, want)
	}
}

func TestVerifyFreshBuild(t *testing.T) {
	v := lookup(t, "oware")
	dir := refCopy(t, v, 9, MethodAuto)
	checks, err := Verify(context.Background(), dir, v, VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 10 {
		t.Fatalf("%d layers checked, want 10", len(checks))
	}
	for _, c := range checks {
		if !c.OK() || c.Positions != NewIndex(6).Size(c.Seeds) {
			t.Errorf("layer %d: %+v", c.Seeds, c)
		}
	}
}

// rewriteBlock replaces block b of layer n with edit applied to its
// values, re-encoded (so only the values are wrong, not the encoding).
func rewriteBlock(t *testing.T, dir string, v *position.Variant, n, b int, edit func([]int8)) {
	t.Helper()
	s, err := openStore(dir, v, false)
	if err != nil {
		t.Fatal(err)
	}
	infos, _ := s.layers()
	values, err := s.loadLayer(infos[n])
	if err != nil {
		t.Fatal(err)
	}
	blk := values[b*BlockSize : min((b+1)*BlockSize, len(values))]
	edit(blk)
	data := s.codec.encodeValues(blk)
	s.close()
	setBlock(t, dir, v, n, b, data)
}

// setBlock stores data as block b of layer n and records the layer's new
// files as its build would (a build that wrote wrong bytes, which only
// the value checksum and verify's re-derivation can tell).
func setBlock(t *testing.T, dir string, v *position.Variant, n, b int, data []byte) {
	t.Helper()
	setKey(t, dir, v, n, blockKey(v, n, b), data)
}

// setKey is setBlock for any key of layer n (a distance block's).
func setKey(t *testing.T, dir string, v *position.Variant, n int, key, data []byte) {
	t.Helper()
	ldir := filepath.Join(variantDir(dir, v), layerName(n))
	db, err := badger.Open(badgerOptions(ldir, false))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(txn *badger.Txn) error { return txn.Set(key, data) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	rec, detail := readRecord(ldir)
	if detail != "" && !strings.Contains(detail, "bytes") {
		t.Fatal(detail)
	}
	if rec.Files, err = sumFiles(ldir, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(ldir, layerFile), out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyCorruptedBlock(t *testing.T) {
	v := lookup(t, "awari")
	dir := refCopy(t, v, 9, MethodAuto)
	// Layer 8 has 75582 positions: two blocks. Flip one value in block 1.
	const rank = BlockSize + 1234
	rewriteBlock(t, dir, v, 8, 1, func(blk []int8) { blk[1234] = 7 - blk[1234] })
	checks, err := Verify(context.Background(), dir, v, VerifyOptions{})
	if !errors.Is(err, ErrInconsistent) {
		t.Fatalf("Verify error %v, want ErrInconsistent", err)
	}
	bad := NewIndex(6).Unrank(8, rank)
	if !strings.Contains(err.Error(), "layer 8") || !strings.Contains(err.Error(), position.Format(v, bad)) {
		t.Errorf("error %q does not name layer 8 and %s", err, position.Format(v, bad))
	}
	c := checks[8]
	if c.ChecksumOK || c.Mismatches == 0 {
		t.Errorf("layer 8 check %+v: want a checksum failure and mismatches", c)
	}
	for n, c := range checks[:8] {
		if !c.OK() {
			t.Errorf("layer %d fails: %+v", n, c)
		}
	}
}

// TestVerifyFrom: below From a layer's checksum is still checked but its
// values are not re-derived; from From up they are.
func TestVerifyFrom(t *testing.T) {
	v := lookup(t, "awari")
	dir := refCopy(t, v, 9, MethodAuto)
	rewriteBlock(t, dir, v, 8, 1, func(blk []int8) { blk[1234] = 7 - blk[1234] })
	checks, err := Verify(context.Background(), dir, v, VerifyOptions{From: 9})
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Verify error %v, want ErrDamaged", err)
	}
	if len(checks) != 10 {
		t.Fatalf("%d layer checks, want 10", len(checks))
	}
	for n, c := range checks {
		if c.Rechecked != (n >= 9) {
			t.Errorf("layer %d: rechecked %v with From 9", n, c.Rechecked)
		}
	}
	if c := checks[8]; c.ChecksumOK || c.Mismatches != 0 {
		t.Errorf("layer 8 check %+v: want a checksum failure and no re-derivation", c)
	}
	if c := checks[9]; !c.OK() || c.Positions != NewIndex(6).Size(9) {
		t.Errorf("layer 9 check %+v: want it re-derived and ok", c)
	}
}

// TestVerifyTo: To stops the check at a layer (a damaged layer above it
// is not this check's), and a check that needs more memory than there is
// fails before it reads anything, naming the layers that fit.
func TestVerifyTo(t *testing.T) {
	v := lookup(t, "awari")
	dir := refCopy(t, v, 9, MethodAuto)
	rewriteBlock(t, dir, v, 9, 0, func(blk []int8) { blk[5] = 7 - blk[5] })
	checks, err := Verify(context.Background(), dir, v, VerifyOptions{To: 8})
	if err != nil || len(checks) != 9 {
		t.Fatalf("Verify To 8 = %d checks, %v; want 9 and no error (the damage is in layer 9)", len(checks), err)
	}
	ix := NewIndex(v.Pits)
	need := VerifyMemBytes(ix, 9)
	if want := 3*ix.Size(9) + ix.Size(8) + 31824 + 12376 + 4368 + 1365 + 364 + 78 + 12 + 1; need != want {
		t.Fatalf("VerifyMemBytes(9) = %d, want %d", need, want)
	}
	var mem *MemoryError
	_, err = Verify(context.Background(), dir, v, VerifyOptions{MemBytes: VerifyMemBytes(ix, 7)})
	if !errors.As(err, &mem) || mem.Seeds != 9 || mem.Need != need || mem.Fits != 7 {
		t.Fatalf("Verify with memory for layers 0..7: %v, want a MemoryError for layer 9 naming 7 as the top that fits", err)
	}
	if checks, err := Verify(context.Background(), dir, v, VerifyOptions{To: 7, MemBytes: VerifyMemBytes(ix, 7)}); err != nil || len(checks) != 8 {
		t.Fatalf("Verify To 7 with its memory = %d checks, %v; want 8, no error", len(checks), err)
	}
}

func TestVerifyUndecodableBlock(t *testing.T) {
	v := lookup(t, "akon")
	dir := build(t, v, 5, MethodAuto)
	setBlock(t, dir, v, 4, 0, []byte("not zstd"))
	checks, err := Verify(context.Background(), dir, v, VerifyOptions{})
	if !errors.Is(err, ErrInconsistent) || !strings.Contains(err.Error(), "layer 4: block 0") {
		t.Fatalf("Verify error %v, want one naming layer 4 block 0", err)
	}
	if checks[4].Unreadable == "" {
		t.Errorf("layer 4 check %+v, want unreadable", checks[4])
	}
}

// TestResumeAfterCancel: a build cancelled in the middle of a layer, then
// one stopped between a layer's blocks and its metadata, then finished,
// stores the same checksums as a clean build.
func TestResumeAfterCancel(t *testing.T) {
	v := lookup(t, "djenon-abe")
	const maxSeeds = 9
	want := checksums(t, refBuild(t, v, maxSeeds, MethodGraph), v) // TestMemoryBudget's
	dir := t.TempDir()

	ctx, cancel := context.WithCancel(context.Background())
	opts := BuildOptions{MaxSeeds: maxSeeds, Progress: func(layer int, done, total int64) {
		if layer == 7 && done > total/3 {
			cancel()
		}
	}}
	if _, err := Build(ctx, dir, v, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v, want context.Canceled", err)
	}
	if got := checksums(t, dir, v); len(got) != 7 {
		t.Fatalf("after cancelling in layer 7: %d layers stored, want 7", len(got))
	}

	beforeMeta = func(seeds int) error {
		if seeds == 8 {
			return errors.New("injected crash")
		}
		return nil
	}
	_, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: maxSeeds})
	beforeMeta = nil
	if err == nil || !strings.Contains(err.Error(), "injected crash") {
		t.Fatalf("build with an injected crash: %v", err)
	}
	if got := checksums(t, dir, v); len(got) != 8 {
		t.Fatalf("after a crash before layer 8's metadata: %d layers stored, want 8", len(got))
	}

	stats, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: maxSeeds})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Resumed != 8 || len(stats.Layers) != 2 {
		t.Errorf("resumed %d layers and built %d, want 8 and 2", stats.Resumed, len(stats.Layers))
	}
	got := checksums(t, dir, v)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums after resuming\n%x\nwant\n%x", got, want)
	}
}

// TestSecondOpen: a build excludes other builds of its variant, at once,
// and nothing else: readers of complete layers work during a build (and
// builds of other variants run beside it).
func TestSecondOpen(t *testing.T) {
	v := lookup(t, "awari")
	dir := build(t, v, 4, MethodAuto)
	inUse := "tablebase " + dir + " is in use by another process"

	pr, err := OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 5}); err != nil {
		t.Errorf("build while a prober is open: %v", err)
	}
	if got, ok := pr.Probe(position.Position{}); !ok || got != 0 {
		t.Errorf("probe of the empty board after a build beside it: %d %v", got, ok)
	}
	pr.Close()

	var once sync.Once
	var during []error
	var duringMax int
	_, err = Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 6, Progress: func(int, int64, int64) {
		once.Do(func() {
			pr, e1 := OpenProber(dir, v)
			if e1 == nil {
				duringMax = pr.MaxSeeds()
				pr.Close()
			}
			_, e2 := Stats(dir, v)
			_, e3 := Verify(context.Background(), dir, v, VerifyOptions{})
			_, e4 := Build(context.Background(), dir, lookup(t, "oware"), BuildOptions{MaxSeeds: 3})
			_, e5 := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 6})
			during = []error{e1, e2, e3, e4, e5}
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range during[:4] {
		if e != nil {
			t.Errorf("reader or other variant's build %d during a build: %v", i, e)
		}
	}
	if duringMax != 5 {
		t.Errorf("a prober during the build of layer 6 serves up to %d, want 5", duringMax)
	}
	if e := during[4]; !errors.Is(e, ErrInUse) || !strings.Contains(e.Error(), inUse) {
		t.Errorf("second build of the same variant: %v", e)
	}
}

func TestOpenProberNoDatabase(t *testing.T) {
	_, err := OpenProber(t.TempDir(), lookup(t, "awari"))
	if !errors.Is(err, ErrNoTablebase) {
		t.Errorf("OpenProber on an empty directory: %v", err)
	}
}

// TestProberConcurrent probes from several goroutines with a cache of two
// blocks, so loads and evictions race with reads (run with -race).
func TestProberConcurrent(t *testing.T) {
	v := lookup(t, "oware")
	ref := thresholdRef(v, 7)
	pr, err := OpenProber(build(t, v, 7, MethodAuto), v)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	pr.SetCacheBytes(2 * BlockSize)
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p, want := range ref {
				if got, ok := pr.Probe(p); !ok || got != want {
					errs <- fmt.Sprintf("%s: probe %d %v, want %d", position.Format(v, p), got, ok, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if pr.Err() != nil {
		t.Error(pr.Err())
	}
}

// TestKillResume kills a real build process (SIGKILL, in the middle of a
// layer), then resumes it in this process: the checksums match a clean
// build, and a prober can open the directory the killed build left.
func TestKillResume(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	if dir := os.Getenv("TABLEBASE_CHILD_DIR"); dir != "" {
		childBuild(dir)
		return
	}
	v := lookup(t, "awari")
	const maxSeeds = 10
	want := checksums(t, refBuild(t, v, maxSeeds, MethodAuto), v)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillResume$")
	cmd.Env = append(os.Environ(), "TABLEBASE_CHILD_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "mid-layer 9" {
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	pr, err := OpenProber(dir, v)
	if err != nil {
		t.Fatalf("prober after a killed build: %v", err)
	}
	if pr.MaxSeeds() != 8 {
		t.Errorf("killed in layer 9: MaxSeeds %d, want 8", pr.MaxSeeds())
	}
	pr.Close()
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: maxSeeds}); err != nil {
		t.Fatal(err)
	}
	if got := checksums(t, dir, v); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums after a kill and resume\n%x\nwant\n%x", got, want)
	}
}

// childBuild is the process TestKillResume kills: it builds awari and,
// half-way through layer 9, once layer 8 is complete (it is stored while
// layer 9 is solved), says so and waits for the signal.
func childBuild(dir string) {
	v, _ := position.Lookup("awari")
	Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 10, Progress: func(layer int, done, total int64) {
		if layer == 9 && done > total/2 {
			layer8 := filepath.Join(variantDir(dir, v), layerName(8))
			for { // the parent's own timeout bounds this wait
				if _, err := os.Stat(layer8); err == nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			fmt.Println("mid-layer 9")
			select {}
		}
	}})
	fmt.Println("finished without being killed")
}

// TestStatsFindsAChangedValue: Stats reads a layer block by block and
// still checks the whole layer's checksum, so one value changed in its
// second block is damage.
func TestStatsFindsAChangedValue(t *testing.T) {
	v := lookup(t, "awari")
	dir := refCopy(t, v, 8, MethodAuto)
	rewriteBlock(t, dir, v, 8, 1, func(blk []int8) { blk[99] = 7 - blk[99] })
	layers, err := Stats(dir, v)
	if !errors.Is(err, ErrDamaged) || len(layers) != 8 {
		t.Fatalf("Stats after a changed value in layer 8: %d layers, %v; want 8 and ErrDamaged", len(layers), err)
	}
}

// TestStatsSignature: each layer's checksums in Stats are those of the
// values and distances read back from the store, recomputed here, and its
// longest distance is the largest distance read back.
func TestStatsSignature(t *testing.T) {
	v := lookup(t, "awari")
	dir := refCopy(t, v, 8, MethodAuto)
	layers, err := Stats(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	s, infos, err := openReading(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if len(layers) != 9 || len(infos) != 9 {
		t.Fatalf("%d layers in stats, %d stored, want 9", len(layers), len(infos))
	}
	for i, st := range layers {
		values, err := s.loadLayer(infos[i])
		if err != nil {
			t.Fatal(err)
		}
		dist, err := s.loadDistances(infos[i])
		if err != nil {
			t.Fatal(err)
		}
		maxDist := 0
		for _, d := range dist {
			maxDist = max(maxDist, int(d))
		}
		var wins, draws, losses int64
		for _, x := range values {
			switch {
			case x > 0:
				wins++
			case x < 0:
				losses++
			default:
				draws++
			}
		}
		if st.Wins != wins || st.Draws != draws || st.Losses != losses {
			t.Errorf("layer %d: stats %d/%d/%d wins/draws/losses, values read back %d/%d/%d", st.Seeds, st.Wins, st.Draws, st.Losses, wins, draws, losses)
		}
		if st.Checksum != xxhash.Sum64(int8Bytes(values)) || st.DistanceChecksum != distanceChecksum(dist) || st.MaxDistance != maxDist {
			t.Errorf("layer %d: stats %016x %016x %d, read back %016x %016x %d", st.Seeds, st.Checksum, st.DistanceChecksum,
				st.MaxDistance, xxhash.Sum64(int8Bytes(values)), distanceChecksum(dist), maxDist)
		}
	}
	if layers[8].MaxDistance == 0 {
		t.Error("layer 8 has no distance above 0")
	}
}
