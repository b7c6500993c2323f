package solver_test

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// An oware tablebase serves an oware-own search for play as estimates
// only: with Play it is probed and its values come back unproven (a
// position it holds whole is not solved from it), and without Play it is
// not used at all, so the search proves the oware-own value, which here
// differs from oware's.
func TestEstimateTablebase(t *testing.T) {
	oware, _ := position.Lookup("oware")
	own, _ := position.Lookup("oware-own")
	dir := t.TempDir()
	if _, err := tablebase.Build(context.Background(), dir, oware, tablebase.BuildOptions{MaxSeeds: 4, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	tb, err := tablebase.OpenProber(dir, oware)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	// The forced cycle of TestOwnRowsForcedCycle: oware-own +2, oware 0.
	setup, err := position.Parse("oware-own:1,0,0,0,0,1/0,0,0,0,0,0:1")
	if err != nil {
		t.Fatal(err)
	}
	p := setup.Position
	if v, ok := tb.Probe(p); !ok || v != 0 {
		t.Fatalf("oware's tablebase: %d, %v; want 0", v, ok)
	}
	for _, play := range []bool{false, true} {
		res, err := solver.Search(context.Background(), own, p, solver.Options{Threads: 1, HashMiB: 1, MaxDepth: 30,
			Play: play, EstimateTablebase: tb})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case play && (res.Exact || res.TablebaseHits == 0):
			t.Errorf("play: exact %v (value %d), %d tablebase hits; want an estimate from the tablebase", res.Exact, res.Value, res.TablebaseHits)
		case !play && (!res.Exact || res.Value != 2 || res.TablebaseHits != 0):
			t.Errorf("proof: exact %v value %d, %d tablebase hits; want +2 exact and no hit", res.Exact, res.Value, res.TablebaseHits)
		}
	}
}
