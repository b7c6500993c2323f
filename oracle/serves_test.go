package oracle

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestMemTBSeedsMeaning: MemTBSeeds has --mem-tb's numbers: 0 builds no
// in-memory tablebase, MemTBAuto (-1) the automatic size, N one of N
// seeds. A 10-seed oware endgame searched with a one-node budget (too few
// to prove it, so the oracle waits for the build) is searched with it
// when there is one.
func TestMemTBSeedsMeaning(t *testing.T) {
	s := mustSetup(t, "oware:1,2,0,1,0,1/2,0,1,1,0,1:1")
	auto := 0
	for auto < s.Variant.Total() && tablebase.MemoryPositions(s.Variant, auto+1) <= MemoryPositions {
		auto++
	}
	for _, c := range []struct{ flag, seeds int }{{0, 0}, {MemTBAuto, auto}, {6, 6}} {
		o := newOracle(t, Config{MemTBSeeds: c.flag, Threads: 1, HashMiB: 4})
		if got := o.memSeeds(s.Variant); got != c.seeds {
			t.Errorf("MemTBSeeds %d: %d seeds in memory, want %d", c.flag, got, c.seeds)
		}
		if c.flag == MemTBAuto {
			continue // building 3 million positions: slow under the race detector
		}
		a, err := o.Solve(context.Background(), s, SolveOptions{Nodes: 1})
		if err != nil {
			t.Fatal(err)
		}
		if a.TablebaseInMemory != (c.seeds > 0) || a.TablebaseInMemory && a.TablebaseSeeds != c.seeds {
			t.Errorf("MemTBSeeds %d: in memory %v, %d seeds; want %d", c.flag, a.TablebaseInMemory, a.TablebaseSeeds, c.seeds)
		}
	}
	if auto < 8 {
		t.Errorf("automatic size %d seeds, want at least 8", auto)
	}
	if _, err := Open(Config{MemTBSeeds: -2}); err == nil {
		t.Error("MemTBSeeds -2 accepted")
	}
}

// TestWarm: Warm builds the in-memory tablebase that serves a variant's
// endgames, so that a one-node search right after is answered from it;
// with a tablebase on disk that holds as many seeds it builds none.
func TestWarm(t *testing.T) {
	ctx := context.Background()
	v, _ := position.Lookup("djenon-abe")
	o := newOracle(t, Config{MemTBSeeds: 6, Threads: 1, HashMiB: 4})
	if err := o.Warm(ctx, v); err != nil {
		t.Fatal(err)
	}
	if o.memPending(o.variant(v), v.Start(), 0) {
		t.Fatal("Warm returned before the build ended")
	}
	a, err := o.Solve(ctx, mustSetup(t, "djenon-abe:1,0,0,1,1,0/1,1,0,0,0,0:1"), SolveOptions{Nodes: 1})
	if err != nil || !a.Exact || !a.TablebaseInMemory || a.Source != SourceTablebase {
		t.Errorf("after Warm: %+v, %v; want an exact answer from the in-memory tablebase", a, err)
	}

	dir := t.TempDir()
	if _, err := tablebase.Build(ctx, dir, v, tablebase.BuildOptions{MaxSeeds: 6, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	o = newOracle(t, Config{TBDir: dir, MemTBSeeds: 6, Threads: 1})
	if err := o.Warm(ctx, v); err != nil {
		t.Fatal(err)
	}
	if vs := o.variant(v); vs.disk == nil || vs.memBuilt != nil {
		t.Errorf("disk tablebase to 6 seeds: opened %v, in-memory build started %v; want opened, none", vs.disk != nil, vs.memBuilt != nil)
	}
}

// TestTablebaseDirLacksVariant: an explicit directory that holds awari
// only is an error for oware naming what it holds, unless TBOptional, when
// oware is searched (and its query still says the tablebase is missing).
func TestTablebaseDirLacksVariant(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	awari, _ := position.Lookup("awari")
	if _, err := tablebase.Build(ctx, dir, awari, tablebase.BuildOptions{MaxSeeds: 3, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	s := mustSetup(t, "oware:0,0,0,0,0,1/1,1,0,0,0,0:1")
	var missing *tablebase.MissingError
	_, err := newOracle(t, Config{TBDir: dir, Threads: 1}).Solve(ctx, s, SolveOptions{})
	if !errors.As(err, &missing) || !errors.Is(err, ErrNoTablebase) || missing.Variant != "oware" || !slices.Equal(missing.Holds, []string{"awari"}) {
		t.Fatalf("solve: %v; want a MissingError for oware naming awari", err)
	}
	o := newOracle(t, Config{TBDir: dir, TBOptional: true, Threads: 1})
	if a, err := o.Solve(ctx, s, SolveOptions{}); err != nil || !a.Exact || a.Value != 1 {
		t.Errorf("TBOptional solve: %+v, %v; want +1 exact by search", a, err)
	}
	if _, err := o.Query(ctx, s); !errors.As(err, &missing) || !slices.Equal(missing.Holds, []string{"awari"}) {
		t.Errorf("TBOptional query: %v; want a MissingError naming awari", err)
	}
	if a, err := o.Query(ctx, mustSetup(t, "awari:0,0,0,0,0,1/1,1,0,0,0,0:1")); err != nil || a.Value != 1 {
		t.Errorf("TBOptional query of awari: %+v, %v", a, err)
	}
}

// TestDiskTablebase: what serves a variant on disk, or the typed error
// that says why nothing does: a directory with awari's layers 0..3 serves
// awari to 3 seeds and lacks oware (naming awari); no tablebase in the
// default directory is a MissingError; tablebases off is ErrNoTablebase.
func TestDiskTablebase(t *testing.T) {
	dir := t.TempDir()
	awari, _ := position.Lookup("awari")
	oware, _ := position.Lookup("oware")
	if _, err := tablebase.Build(context.Background(), dir, awari, tablebase.BuildOptions{MaxSeeds: 3, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	o := newOracle(t, Config{TBDir: dir, TBOptional: true, Threads: 1})
	if seeds, err := o.DiskTablebase(awari); err != nil || seeds != 3 {
		t.Errorf("awari: %d seeds, %v; want 3", seeds, err)
	}
	var missing *tablebase.MissingError
	if _, err := o.DiskTablebase(oware); !errors.As(err, &missing) || !slices.Equal(missing.Holds, []string{"awari"}) {
		t.Errorf("oware: %v; want a MissingError naming awari", err)
	}
	if _, err := newOracle(t, Config{Threads: 1}).DiskTablebase(awari); !errors.As(err, &missing) || len(missing.Holds) != 0 {
		t.Errorf("an empty default directory: %v; want a MissingError", err)
	}
	if _, err := newOracle(t, Config{NoTB: true}).DiskTablebase(awari); !errors.Is(err, ErrNoTablebase) {
		t.Errorf("tablebases off: %v; want ErrNoTablebase", err)
	}
}
