package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// ownRows scores a repetition as Aalina's referee does: each player takes
// the seeds on their own row (written here apart from the position
// package's RepetitionValue).
func ownRows(p position.Position) int {
	own, opp := 0, 0
	for i := 0; i < 6; i++ {
		own += position.Pit(p.Own, i)
		opp += position.Pit(p.Opp, i)
	}
	return own - opp
}

// In oware-own a repetition is worth the own-row difference, not 0, so the
// search may not pull bounds across lines toward 0 (doc.go, fact 2): its
// exact values, with and without a game's history, agree with plain
// minimax under that rule, on Solvers whose tables carry over: every
// other position on one that lets estimates cross lines, as the engine's
// does (Options.Play).
func TestOwnRowsRepetitionAgreesWithMinimax(t *testing.T) {
	v, err := position.Lookup("oware-own")
	if err != nil {
		t.Fatal(err)
	}
	var solvers [2]*Solver
	for i := range solvers {
		if solvers[i], err = New(Options{Threads: 2, HashMiB: 4, Play: i == 1}); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(18, 6))
	// 30 positions, 12 in the short run (and under -race).
	target := testsize.Pick(12, 30, 30)
	checked, differ := 0, 0
	for try := 0; checked < target && try < 10*target; try++ {
		p, ok := randomBoard(v, rng, 2+rng.IntN(3))
		if !ok {
			continue
		}
		s := solvers[checked%2]
		budget := 100_000
		want, ok := plainMinimaxRep(v, p, nil, &budget, ownRows)
		if !ok {
			continue
		}
		zeroBudget := 100_000
		if zero, ok := plainMinimax(v, p, nil, &zeroBudget); ok && zero != want {
			differ++
		}
		got, err := s.Search(context.Background(), v, p)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Exact || got.Value != want {
			t.Errorf("%s: search %d (exact %v), minimax %d", position.Format(v, p), got.Value, got.Exact, want)
		}
		// A child after a quiet move, valued after the root: a move back
		// to the root is a repetition.
		var buf [position.MaxPits]position.Move
		for _, m := range buf[:v.Moves(p, &buf)] {
			if m.Captured > 0 || v.CountMoves(m.Next) == 0 {
				continue
			}
			budget := 100_000
			want, ok := plainMinimaxRep(v, m.Next, []position.Position{p}, &budget, ownRows)
			if !ok {
				break
			}
			got, err := s.SearchRequest(context.Background(), v, m.Next, Request{History: []position.Position{p}})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Exact || got.Value != want {
				t.Errorf("%s after %s: search %d (exact %v), minimax %d", position.Format(v, m.Next),
					position.Format(v, p), got.Value, got.Exact, want)
			}
			break
		}
		checked++
	}
	if checked < 2*target/3 {
		t.Errorf("%d positions checked: the test shows too little", checked)
	}
	t.Logf("%d positions, %d where the rule changes the value", checked, differ)
}

// Worked by hand: player 1 must feed from pit 6; then each side's only
// seed walks its row, in step, until player 2's crosses into player 1's
// pit 1 and the start position recurs after 12 plies, player 1 to move
// with both seeds on their row. oware-own scores that +2; oware 0.
func TestOwnRowsForcedCycle(t *testing.T) {
	for _, c := range []struct {
		pos  string
		want int
	}{
		{"oware-own:1,0,0,0,0,1/0,0,0,0,0,0:1", 2},
		{"oware:1,0,0,0,0,1/0,0,0,0,0,0:1", 0},
		{"oware-own:0,0,0,0,0,0/1,0,0,0,0,1:2", 2},
	} {
		st, err := position.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Search(context.Background(), st.Variant, st.Position, Options{Threads: 1, HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Value != c.want {
			t.Errorf("%s: %d (exact %v), want %d", c.pos, res.Value, res.Exact, c.want)
		}
	}
}
