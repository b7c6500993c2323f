package tablebase

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// kalahMinimax is plain minimax over a kalah game, written here apart from
// the build: kalah has no cycles (a move that stays in its layer only
// carries seeds toward the mover's store), so recursion to the game end
// with a memo is exact. A move is worth the seeds it banks plus what
// follows for the mover: the child's value when the same player moves
// again (the extra move), minus it otherwise.
type kalahMinimax struct {
	v    *position.Variant
	memo map[[2]uint64]int
}

func (k *kalahMinimax) value(p position.Position) int {
	key := [2]uint64{p.Own, p.Opp}
	if v, ok := k.memo[key]; ok {
		return v
	}
	var buf [position.MaxPits]position.Move
	n := k.v.Moves(p, &buf)
	best := k.v.TerminalValue(p)
	if n > 0 {
		best = -1 << 30
	}
	for _, m := range buf[:n] {
		child := k.value(m.Next)
		if m.Next.Side != p.Side {
			child = -child
		}
		best = max(best, int(m.Captured)+child)
	}
	k.memo[key] = best
	return best
}

// TestKalahTablebase: in-memory tablebases of small kalah sizes, built to
// every seed of the game, hold plain minimax's value for every position
// reached from the start position (both players to move), and the start
// values are those of the solver's table in docs/kalah.md (Kalah(3,3) = +2,
// Kalah(4,2) = +6, as another solver published).
func TestKalahTablebase(t *testing.T) {
	for _, c := range []struct {
		pits, seeds, start int
	}{{3, 2, +4}, {3, 3, +2}, {4, 2, +6}} {
		v := position.Kalah(c.pits, c.seeds)
		m, err := BuildMemory(context.Background(), v, v.Total(), 2)
		if err != nil {
			t.Fatal(err)
		}
		ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
		if got, ok := m.Probe(v.Start()); !ok || got != c.start || ref.value(v.Start()) != c.start {
			t.Errorf("%s start: tablebase %d (ok %v), minimax %d, want %+d", v.Name, got, ok, ref.value(v.Start()), c.start)
		}
		checked := 0
		for key, want := range ref.memo {
			p := position.Position{Own: key[0], Opp: key[1]}
			if got, ok := m.Probe(p); !ok || got != want {
				t.Fatalf("%s: %s: tablebase %d (ok %v), minimax %d", v.Name, position.Format(v, p), got, ok, want)
			}
			checked++
		}
		t.Logf("%s: %d positions agree", v.Name, checked)
	}
}
