package solver

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestHistoryChangesValue: a position met after earlier positions of its
// layer is valued with a return to them a repetition (rules.md section 0).
// In this awari endgame, found by a random search, player 2 loses 3 seeds
// from a fresh start but can steer back to an earlier position of the
// game's line and end it at 0. Value iteration, which shares no code with
// the search, gives both values (the line's positions pinned at 0 for the
// first).
func TestHistoryChangesValue(t *testing.T) {
	v, err := position.Lookup("awari")
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "awari:0,0,1,0,0,1/0,0,0,0,0,1:2")
	var line []position.Position
	for _, s := range []string{
		"awari:0,1,0,1,0,0/0,0,0,1,0,0:1", "awari:0,1,0,0,1,0/0,0,0,1,0,0:2",
		"awari:0,1,0,0,1,0/0,0,0,0,1,0:1", "awari:0,0,1,0,1,0/0,0,0,0,1,0:2",
		"awari:0,0,1,0,1,0/0,0,0,0,0,1:1",
	} {
		line = append(line, mustParse(t, s))
	}
	g, ok := reachable(v, p, 100_000)
	if !ok {
		t.Fatal("too many positions for value iteration")
	}
	wantWith, wantWithout := g.values(line...)[p], g.values()[p]
	if wantWith == wantWithout {
		t.Fatalf("value iteration: %d with history and without: not the example wanted", wantWith)
	}
	s, err := New(Options{Threads: 2, HashMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Both orders on one Solver: what one search proved on its line must
	// not leak into the other through the table.
	for round := 0; round < 2; round++ {
		with, err := s.SearchRequest(ctx, v, p, Request{History: line})
		if err != nil {
			t.Fatal(err)
		}
		without, err := s.Search(ctx, v, p)
		if err != nil {
			t.Fatal(err)
		}
		if !with.Exact || with.Value != wantWith || !without.Exact || without.Value != wantWithout {
			t.Errorf("round %d: with history %d (exact %v), without %d (exact %v); want %d and %d",
				round, with.Value, with.Exact, without.Value, without.Exact, wantWith, wantWithout)
		}
	}
}

func mustParse(t *testing.T, s string) position.Position {
	t.Helper()
	st, err := position.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return st.Position
}
