package solver_test

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// An oware tablebase serves an oware-own search as estimates only, for
// play and analysis alike: a non-zero value it holds is probed and comes
// back unproven (a position it holds whole is not solved from it); a value
// of 0 is searched on (policy.takesEstimate), since under oware's rules 0
// is often a cycle that own-row counting scores; and a request without it
// (Request.NoEstimateTablebase) does not use it at all.
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
	modes := []struct{ play, noEstimate bool }{{false, false}, {true, false}, {false, true}}
	search := func(p position.Position, play, noEstimate bool) solver.Result {
		t.Helper()
		sv, err := solver.New(solver.Options{Threads: 1, HashMiB: 1, MaxDepth: 30, Play: play, EstimateTablebase: tb})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sv.SearchRequest(context.Background(), own, p, solver.Request{NoEstimateTablebase: noEstimate})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	// The forced cycle of TestOwnRowsForcedCycle: oware-own +2, oware 0.
	// Oware's 0 is no estimate here: every mode proves +2 with no hit.
	cycle := parsePosition(t, "oware-own:1,0,0,0,0,1/0,0,0,0,0,0:1")
	if v, ok := tb.Probe(cycle); !ok || v != 0 {
		t.Fatalf("oware's tablebase on the cycle: %d, %v; want 0", v, ok)
	}
	for _, m := range modes {
		if res := search(cycle, m.play, m.noEstimate); !res.Exact || res.Value != 2 || res.TablebaseHits != 0 {
			t.Errorf("cycle, play %v, no estimate %v: exact %v value %d, %d tablebase hits; want +2 exact, no hit",
				m.play, m.noEstimate, res.Exact, res.Value, res.TablebaseHits)
		}
	}

	// A position oware's tablebase values non-zero: taken as an estimate
	// unless the request refuses it, then proven with no hit.
	gain := parsePosition(t, "oware-own:0,0,0,0,0,1/1,0,0,0,0,1:1")
	if v, ok := tb.Probe(gain); !ok || v == 0 {
		t.Fatalf("oware's tablebase on the gain position: %d, %v; want a non-zero value", v, ok)
	}
	for _, m := range modes {
		res := search(gain, m.play, m.noEstimate)
		switch {
		case !m.noEstimate && (res.Exact || res.TablebaseHits == 0):
			t.Errorf("gain, play %v: exact %v (value %d), %d tablebase hits; want an estimate from the tablebase", m.play, res.Exact, res.Value, res.TablebaseHits)
		case m.noEstimate && (!res.Exact || res.TablebaseHits != 0):
			t.Errorf("gain, proof: exact %v value %d, %d tablebase hits; want exact, no hit", res.Exact, res.Value, res.TablebaseHits)
		}
	}
}

func parsePosition(t *testing.T, s string) position.Position {
	t.Helper()
	setup, err := position.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return setup.Position
}
