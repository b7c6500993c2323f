package bench

import (
	"math/rand/v2"

	"github.com/mancala-solver/mancala/position"
)

// SampleSize is the number of (position, move) pairs of a make-move sample.
const SampleSize = 8192

// Sample is a fixed set of positions met in play, each with one of its
// legal moves.
type Sample struct {
	Variant   *position.Variant
	Positions []position.Position
	Pits      []int
}

// PlaySample returns SampleSize (position, legal move) pairs from games
// between two greedy players: each takes the move that captures most
// (ties broken at random), and one move in four is random instead. Every
// position of every game, from the opening to the end, is kept, with the
// move played there. The seed is fixed, so the sample changes only when the
// rules do.
func PlaySample(v *position.Variant) Sample {
	rng := rand.New(rand.NewPCG(2026, uint64(v.ID)))
	s := Sample{Variant: v}
	var buf [position.MaxPits]position.Move
	p := v.Start()
	for len(s.Positions) < SampleSize {
		n := v.Moves(p, &buf)
		switch {
		case n == 0:
			p = v.Start()
			continue
		case buf[0].IsPass():
			p = buf[0].Next
			continue
		}
		m := greedyMove(rng, buf[:n])
		s.Positions, s.Pits = append(s.Positions, p), append(s.Pits, int(m.Pit))
		p = m.Next
	}
	return s
}

// greedyMove picks the move capturing most, ties at random; one move in
// four is random.
func greedyMove(rng *rand.Rand, moves []position.Move) position.Move {
	if rng.IntN(4) == 0 {
		return moves[rng.IntN(len(moves))]
	}
	best, ties := moves[0], 1
	for _, m := range moves[1:] {
		switch {
		case m.Captured > best.Captured:
			best, ties = m, 1
		case m.Captured == best.Captured:
			if ties++; rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}
