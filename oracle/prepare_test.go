package oracle

import (
	"context"
	"errors"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestPrepareLoadsLayers: Prepare reads the layers Config.TBLoadSeeds
// asks for into memory (all of them for -1 and for TBLoadFit, whose
// budget holds this small tablebase whole, 0..4 for 4, none for 0) and
// allocates the table of Config.HashMiB; a search then proves Kalah(3,3)
// = +2 (plain minimax's value, solver's TestKalahStartValues) with every
// setting alike.
func TestPrepareLoadsLayers(t *testing.T) {
	v, err := position.Lookup("kalah-3x3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := tablebase.Build(context.Background(), dir, v, tablebase.BuildOptions{MaxSeeds: 9, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	ix := tablebase.NewIndex(v.Pits)
	for _, c := range []struct{ load, top int }{{-1, 9}, {TBLoadFit, 9}, {4, 4}, {0, -1}} {
		o := newOracle(t, Config{TBDir: dir, TBLoadSeeds: c.load, Threads: 2, HashMiB: 4})
		want := tablebase.Loaded{MaxSeeds: c.top}
		for n := 0; n <= c.top; n++ {
			want.Positions += ix.Size(n)
		}
		for range 2 { // a second call reports what the first readied
			prep, err := o.Prepare(context.Background(), v)
			if err != nil || prep.Loaded != want || prep.HashMiB != 4 {
				t.Fatalf("--load-tb %d: Prepare %+v (%v), want %+v and 4 MiB", c.load, prep, err, want)
			}
		}
		a, err := o.Solve(context.Background(), mustSetup(t, "kalah-3x3"), SolveOptions{})
		if err != nil || !a.Exact || a.Value != 2 {
			t.Errorf("--load-tb %d: Kalah(3,3) %+d exact %v (%v), want +2", c.load, a.Value, a.Exact, err)
		}
	}
	if _, err := Open(Config{TBLoadSeeds: TBLoadFit - 1}); err == nil {
		t.Error("TBLoadSeeds -3 accepted")
	}
}

// TestPrepareRefusesMemTB: an in-memory tablebase of more seeds than the
// variant has, or of more than the memory a build may use holds, is
// refused by Prepare, before any answer (issue 43, defect 10: `--mem-tb
// 99` was accepted silently); one that fits is not.
func TestPrepareRefusesMemTB(t *testing.T) {
	v, err := position.Lookup("awari")
	if err != nil {
		t.Fatal(err)
	}
	fits := tablebase.MemoryFits(v, tablebase.DefaultMemBytes())
	for _, c := range []struct {
		seeds   int
		refused bool
	}{{99, true}, {49, true}, {fits + 1, true}, {fits, false}, {8, false}, {MemTBAuto, false}, {0, false}} {
		o := newOracle(t, Config{NoTB: c.seeds == 0, MemTBSeeds: c.seeds, Threads: 1, HashMiB: 4})
		_, err := o.Prepare(context.Background(), v)
		var memTB *MemTBError
		if got := errors.As(err, &memTB); got != c.refused {
			t.Errorf("MemTBSeeds %d: refused %v (%v), want %v", c.seeds, got, err, c.refused)
		} else if got && memTB.Fits != fits {
			t.Errorf("MemTBSeeds %d: %v; want it to name %d seeds as the most that fit", c.seeds, err, fits)
		}
	}
}

// TestOpenRefusesTooManyThreads: Open refuses more threads than a solver
// takes (solver.MaxThreads), so that a server made with them fails at
// start-up rather than on its first request (reliability trial 6).
func TestOpenRefusesTooManyThreads(t *testing.T) {
	if _, err := Open(Config{NoTB: true, Threads: 1<<63 - 1}); err == nil {
		t.Error("2^63-1 threads accepted")
	}
	o, err := Open(Config{NoTB: true, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	o.Close()
}
