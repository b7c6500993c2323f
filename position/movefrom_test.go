package position

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// checkMoveFrom compares MoveFrom with the lookup in Moves for every pit
// (and the pass, and pits out of range) of p.
func checkMoveFrom(t interface{ Fatalf(string, ...any) }, v *Variant, p Position) {
	for pit := -1; pit <= v.Pits+1; pit++ {
		got, ok := v.MoveFrom(p, pit)
		want, wantOK := v.moveFromAll(p, pit) // the definition: pit looked up in Moves(p)
		if ok != wantOK || got != want {
			t.Fatalf("%s %s pit %d: MoveFrom %v %v, Moves lists %v %v", v.Name, Format(v, p), pit, got, ok, want, wantOK)
		}
	}
}

// MoveFrom agrees with Moves on reachable positions of every variant.
func TestMoveFromReachable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		checkMoveFrom(t, v, p)
	})
}

// MoveFrom agrees with Moves on random boards, which reach what play
// seldom does: empty rows (feeding, game ends), one seed each, grand
// slams, laps of 12 and more seeds.
func TestMoveFromRandomBoards(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 2))
	names := append(Names(), "kalah-1x1", "kalah-3x2", "kalah-6x6")
	for _, name := range names {
		v, _ := Lookup(name)
		for range 20000 {
			var rows [2][MaxPits]int
			seeds := r.IntN(v.Total() + 1) // the lap tables go up to the game's seeds
			empty := r.IntN(3)             // 0: none, 1: the mover's row, 2: the opponent's
			for range seeds {
				row := r.IntN(2)
				if empty == 1 && row == 0 || empty == 2 && row == 1 {
					row = 1 - row
				}
				rows[row][r.IntN(v.Pits)]++
			}
			p := Position{Own: PackRow(rows[0][:v.Pits]), Opp: PackRow(rows[1][:v.Pits]), Side: uint8(r.IntN(2))}
			checkMoveFrom(t, v, p)
		}
	}
}
