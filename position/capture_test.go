package position

import (
	"math/rand/v2"
	"testing"
)

// TestLeastCapture: on random boards of every variant (and kalah sizes of
// both rule sets), every legal move takes no seeds off the board or at
// least LeastCapture of them, the seeds it takes are exactly those it
// reports captured, and some move takes exactly LeastCapture (so the bound
// is the least, not merely a bound).
func TestLeastCapture(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 12))
	names := append(Names(), "kalah-1x1", "kalah-3x2", "kalah-6x6", "kalah-std-4x3")
	for _, name := range names {
		v, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		least, tight := v.LeastCapture(), false
		for range 20000 {
			var rows [2][MaxPits]int
			for range r.IntN(v.Total() + 1) {
				rows[r.IntN(2)][r.IntN(v.Pits)]++
			}
			p := Position{Own: PackRow(rows[0][:v.Pits]), Opp: PackRow(rows[1][:v.Pits])}
			var moves [MaxPits]Move
			for _, m := range moves[:v.Moves(p, &moves)] {
				taken := p.Seeds() - m.Next.Seeds()
				if taken != int(m.Captured) || taken != 0 && taken < least {
					t.Fatalf("%s %s move %d: %d seeds off the board, %d captured; LeastCapture %d", name, Format(v, p), m.Pit, taken, m.Captured, least)
				}
				tight = tight || taken == least
			}
		}
		if !tight {
			t.Errorf("%s: no move took exactly LeastCapture = %d seeds", name, least)
		}
	}
}
