package oracle

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"mancala/position"
)

func mustSetup(t testing.TB, s string) position.Setup {
	t.Helper()
	st, err := position.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// newOracle opens an Oracle that sees no tablebase of the machine's own
// (the default directory points into an empty temporary one).
func newOracle(t *testing.T, cfg Config) *Oracle {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	o, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

// TestForcedPass: notation.md's example. Player 1 must pass; the value is
// theirs (-5), not player 2's, and the position is the one given.
func TestForcedPass(t *testing.T) {
	const pos = "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1"
	for _, cfg := range []Config{{NoTB: true, Threads: 1}, {MemTBSeeds: 8, TBDir: "", Threads: 1}} {
		o := newOracle(t, cfg)
		a, err := o.Solve(context.Background(), mustSetup(t, pos), SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Position != pos || a.Value != -5 || !a.Exact || !a.MustPass || a.Player != 1 {
			t.Errorf("%+v: want value -5 exact for player 1 at %s", a, pos)
		}
		if !slices.Equal(a.BestMoves, []Move{Pass}) || len(a.PV) == 0 || a.PV[0] != Pass {
			t.Errorf("best %v pv %v: want [pass], a pv starting with pass", a.BestMoves, a.PV)
		}
	}
}

// TestConcurrentCalls: several goroutines answer positions of two
// variants on one Oracle at once (run under -race); each gets the answer
// it gets alone.
func TestConcurrentCalls(t *testing.T) {
	o := newOracle(t, Config{MemTBSeeds: 6, Threads: 1, HashMiB: 4})
	positions := []string{"djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1", "awari:0,0,1,1,0,0/0,0,1,2,0,1:1",
		"djenon-abe:1,0,0,1,1,0/1,1,0,0,0,0:1", "awari:0,0,0,0,0,0/0,1,0,0,0,0:1"}
	want := make([]int, len(positions))
	for i, s := range positions {
		a, err := o.Solve(context.Background(), mustSetup(t, s), SolveOptions{})
		if err != nil || !a.Exact {
			t.Fatalf("%s: %+v, %v", s, a, err)
		}
		want[i] = a.Value
	}
	errs := make(chan error, 4*len(positions))
	for range 4 {
		for i, s := range positions {
			go func() {
				a, err := o.Solve(context.Background(), mustSetup(t, s), SolveOptions{AllMoves: i%2 == 0})
				if err == nil && (!a.Exact || a.Value != want[i]) {
					err = fmt.Errorf("%s: %d (exact %v), alone %d", s, a.Value, a.Exact, want[i])
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(positions) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
