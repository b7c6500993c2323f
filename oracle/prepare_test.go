package oracle

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestPrepareLoadsLayers: Prepare reads the layers Config.TBLoadSeeds
// asks for into memory (all of them for -1, 0..4 for 4, none for 0) and
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
	for _, c := range []struct{ load, top int }{{-1, 9}, {4, 4}, {0, -1}} {
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
	if _, err := Open(Config{TBLoadSeeds: -2}); err == nil {
		t.Error("TBLoadSeeds -2 accepted")
	}
}
