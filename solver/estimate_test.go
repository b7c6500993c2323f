package solver

import (
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestFeaturesByHand checks features on an oware position worked by hand.
// The mover's row, in sowing order, is 1,0,0,0,0,2 and the opponent's
// 1,2,0,0,0,13.
//   - The mover has 2 moves; the best capture sows the 2 of the last pit
//     into the opponent's first two pits (1→2, 2→3) and takes 3+2 = 5.
//   - The opponent has 3 moves; the 13-seed kroo laps (11 pits, skipping
//     its origin) and drops its last two seeds on the mover's first two
//     pits, which then hold 3 and 2: a capture of 5 (the mover's other
//     pits keep seeds, so no grand slam).
//   - Weak pits (1 or 2 seeds): 2 on each row; kroo: 13-11 = 2 for the
//     opponent; pits that reach the other row: the last pit on each row
//     (pit i needs 6-i seeds).
func TestFeaturesByHand(t *testing.T) {
	v := mustVariant(t, "oware")
	p := position.Position{Own: position.PackRow([]int{1, 0, 0, 0, 0, 2}), Opp: position.PackRow([]int{1, 2, 0, 0, 0, 13})}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	var f [nFeatures]int32
	features(v, p, &buf, n, &f)
	want := [nFeatures]int32{
		fTempo: 1, fRowDiff: 3 - 16, fCapture: 5, fThreat: 5,
		fOwnWeak: 2, fOppWeak: 2, fOwnMoves: 2, fOppMoves: 3,
		fOwnKroo: 0, fOppKroo: 2, fOwnReach: 1, fOppReach: 1,
	}
	for i := range f {
		if f[i] != want[i] {
			t.Errorf("%s = %d, want %d", featureNames[i], f[i], want[i])
		}
	}
	// The estimate is the weighted sum, rounded, within the 19 seeds.
	w := [nFeatures]float64{fCapture: 1, fThreat: -1, fOppKroo: 0.75, fRowDiff: 0.5}
	if got := tunedEstimate(v, fixedWeights(&w), p, &buf, n); got != -5 { // 5-5+1.5-6.5 = -5
		t.Errorf("estimate %d, want -5", got)
	}
	w = [nFeatures]float64{fRowDiff: 2}
	if got := tunedEstimate(v, fixedWeights(&w), p, &buf, n); got != -19 { // -26, clipped to -19
		t.Errorf("estimate %d, want -19 (the seeds on the board)", got)
	}
}

// TestEstimateAuto checks which variants get the tuned estimate by
// default.
func TestEstimateAuto(t *testing.T) {
	for name, tuned := range map[string]bool{"oware": true, "awari": true, "oware-own": true,
		"kalah": false, "kalah-std": false, "akon": true, "djenon-abe": true, "djenon-aboure": false} {
		if got := EstimateAuto.tunes(mustVariant(t, name)); got != tuned {
			t.Errorf("%s: tuned %v, want %v", name, got, tuned)
		}
	}
	if e, ok := ParseEstimate("rows"); !ok || e != EstimateRows || e.tunes(mustVariant(t, "oware")) {
		t.Errorf("ParseEstimate(rows) = %v, %v", e, ok)
	}
}
