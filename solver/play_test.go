package solver_test

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// An oware tablebase serves an oware-own search as estimates only, for
// play and analysis alike: it is probed and its values come back unproven
// (a position it holds whole is not solved from it); a request without it
// (Request.NoEstimateTablebase) does not use it at all, so the search
// proves the oware-own value, which here differs from oware's.
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
	for _, c := range []struct{ play, noEstimate bool }{{false, false}, {true, false}, {false, true}} {
		sv, err := solver.New(solver.Options{Threads: 1, HashMiB: 1, MaxDepth: 30, Play: c.play, EstimateTablebase: tb})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sv.SearchRequest(context.Background(), own, p, solver.Request{NoEstimateTablebase: c.noEstimate})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !c.noEstimate && (res.Exact || res.TablebaseHits == 0):
			t.Errorf("play %v: exact %v (value %d), %d tablebase hits; want an estimate from the tablebase", c.play, res.Exact, res.Value, res.TablebaseHits)
		case c.noEstimate && (!res.Exact || res.Value != 2 || res.TablebaseHits != 0):
			t.Errorf("proof: exact %v value %d, %d tablebase hits; want +2 exact and no hit", res.Exact, res.Value, res.TablebaseHits)
		}
	}
}
