package oracle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
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

// TestQuery: answers from the tablebase on disk alone, with typed errors
// for a position beyond it and for no tablebase at all.
func TestQuery(t *testing.T) {
	dir := t.TempDir()
	v, _ := position.Lookup("djenon-abe")
	if _, err := tablebase.Build(context.Background(), dir, v, tablebase.BuildOptions{MaxSeeds: 6}); err != nil {
		t.Fatal(err)
	}
	o := newOracle(t, Config{TBDir: dir, Threads: 1})
	ctx := context.Background()
	a, err := o.Query(ctx, mustSetup(t, "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1"))
	if err != nil || a.Value != -5 || !a.MustPass || a.Source != SourceTablebase || !a.Exact {
		t.Errorf("forced pass: %+v, %v", a, err)
	}
	_, err = o.Query(ctx, mustSetup(t, "djenon-abe"))
	var nit *NotInTablebaseError
	if !errors.As(err, &nit) || nit.MaxSeeds != 6 || nit.Seeds != 48 {
		t.Errorf("start position: %v, want NotInTablebaseError up to 6 seeds", err)
	}
	_, err = o.Query(ctx, mustSetup(t, "awari:0,0,1,0,0,0/0,1,0,0,0,0:1"))
	if !errors.Is(err, ErrNoTablebase) {
		t.Errorf("awari, none built: %v, want ErrNoTablebase", err)
	}
	// Solve agrees with Query on a position the tablebase holds.
	s := mustSetup(t, "djenon-abe:1,0,0,1,1,0/1,1,0,0,0,0:1")
	q, err1 := o.Query(ctx, s)
	a, err2 := o.Solve(ctx, s, SolveOptions{})
	if err1 != nil || err2 != nil || q.Value != a.Value || !slices.Equal(q.BestMoves, a.BestMoves) {
		t.Errorf("query %+v (%v), solve %+v (%v)", q, err1, a, err2)
	}
}
