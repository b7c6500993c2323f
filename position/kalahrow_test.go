package position

import (
	"math/rand/v2"
	"testing"
)

// SowRow then Finish make the same move as Moves, pit by pit, on random
// boards of every kalah size under both capture rules: captures from an
// empty facing pit, extra moves, sowings into the opponent's row and laps
// of 13 and more seeds back into the mover's row.
func TestSowRowFinishMatchesMoves(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	for _, v := range KalahVariants() {
		var buf [MaxPits]Move
		kinds := map[string]int{}
		for range 4000 {
			var rows [2][MaxPits]int
			for range r.IntN(v.Total() + 1) {
				rows[r.IntN(2)][r.IntN(v.Pits)]++
			}
			p := Position{Own: PackRow(rows[0][:v.Pits]), Opp: PackRow(rows[1][:v.Pits]), Side: uint8(r.IntN(2))}
			n := v.Moves(p, &buf)
			for _, m := range buf[:n] {
				rs := v.SowRow(p.Own, int(m.Pit)-1)
				own, opp, captured := v.Finish(rs, p.Opp)
				next := Position{Own: opp, Opp: own, Side: p.Side ^ 1}
				if rs.Again {
					next = Position{Own: own, Opp: opp, Side: p.Side}
				}
				if next != m.Next || captured != int(m.Captured) || rs.Again != m.MovesAgain(p) {
					t.Fatalf("%s: %s pit %d: SowRow and Finish give %s captured %d, Moves %s captured %d",
						v.Name, Format(v, p), m.Pit, Format(v, next), captured, Format(v, m.Next), m.Captured)
				}
				switch {
				case rs.Again:
					kinds["again"]++
				case captured > rs.Banked:
					kinds["capture"]++
				case rs.Capture >= 0:
					kinds["no capture from an empty pit"]++
				case rs.OppAdd != 0:
					kinds["into the opponent's row"]++
				}
			}
		}
		// Every kind of move was met (the standard rule alone leaves a seed
		// in an empty pit facing an empty one).
		for _, kind := range []string{"again", "capture", "into the opponent's row"} {
			if kinds[kind] == 0 && v.Pits > 1 {
				t.Errorf("%s: no move of kind %q drawn", v.Name, kind)
			}
		}
		if v.Pits > 1 && v.EmptyCapture == (kinds["no capture from an empty pit"] > 0) {
			t.Errorf("%s: %d seeds left in an empty pit facing an empty one", v.Name, kinds["no capture from an empty pit"])
		}
	}
}
