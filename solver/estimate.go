package solver

import (
	"math"

	"github.com/mancala-solver/mancala/position"
)

// Estimate selects the horizon estimate: the value negamax gives a node
// where the depth runs out. It only ever changes estimates and the order
// in which proofs are found, never a proven value (estimates are never
// marked proven).
type Estimate uint8

const (
	// EstimateAuto is the variant's tuned estimate where one was tuned
	// (oware and awari, and akon and djenon-abe, the variants of
	// variantWeights: EstimateTuned), else EstimateRows (kalah,
	// djenon-aboure).
	EstimateAuto Estimate = iota
	// EstimateRows is a quarter of the seeds the mover has on their row
	// beyond the opponent's.
	EstimateRows
	// EstimateTuned is a linear function of the features of features(),
	// with the variant's weights of variantWeights where it has its own,
	// else those of tunedWeights, fitted by least squares to the exact
	// values of an oware tablebase.
	EstimateTuned
)

// String names the estimate as the bench flags spell it.
func (e Estimate) String() string {
	switch e {
	case EstimateRows:
		return "rows"
	case EstimateTuned:
		return "tuned"
	}
	return "auto"
}

// ParseEstimate reads an estimate's name (auto, rows, tuned).
func ParseEstimate(s string) (Estimate, bool) {
	for _, e := range []Estimate{EstimateAuto, EstimateRows, EstimateTuned} {
		if e.String() == s {
			return e, true
		}
	}
	return EstimateAuto, false
}

// tunes reports whether e means the tuned estimate for v: asked for, or
// automatic in a variant with oware's sowing and captures (oware and
// awari, and oware-own, which differs only at a repetition) or with
// weights of its own (variantWeights).
func (e Estimate) tunes(v *position.Variant) bool {
	switch e {
	case EstimateTuned:
		return true
	case EstimateRows:
		return false
	}
	_, own := variantWeights[v.Name]
	return own || (v.Sow == position.SowSkipOrigin && v.StopAt > 0)
}

// Feature indexes: what the tuned estimate knows of a position, from the
// mover's side. "Own" is the mover's row, "opp" the opponent's; the
// opponent's move features are those of the opponent were it to move now.
const (
	fTempo    = iota // 1: being the one to move
	fRowDiff         // seeds on the own row less seeds on the opponent's
	fCapture         // the largest capture among the mover's moves
	fThreat          // the largest capture among the opponent's moves
	fOwnWeak         // own pits with 1 or 2 seeds (a sowing makes them 2 or 3: capturable)
	fOppWeak         // the opponent's pits with 1 or 2 seeds
	fOwnMoves        // the mover's legal moves
	fOppMoves        // the opponent's legal moves
	fOwnKroo         // seeds beyond 11 in the mover's largest pit (a kroo: a sowing that laps)
	fOppKroo         // the same for the opponent
	fOwnReach        // own pits whose sowing reaches the opponent's row
	fOppReach        // the opponent's pits whose sowing reaches the mover's row
	nFeatures
)

// featureNames are the features' names, in index order, for the tuning
// output.
var featureNames = [nFeatures]string{"tempo", "row-diff", "capture", "threat", "own-weak", "opp-weak",
	"own-moves", "opp-moves", "own-kroo", "opp-kroo", "own-reach", "opp-reach"}

// tunedWeights are the tuned estimate's weights, in seeds a feature unit,
// in feature index order. They were fitted by
//
//	go run ./internal/cmd/tune -tb DIR
//
// (least squares over positions of 10 to 18 seeds, sampled from random
// playouts of oware, against their exact values in an oware tablebase of
// 18 seeds in DIR; the program prints these lines). See docs/solver-design.md,
// "The horizon estimate".
var tunedWeights = [nFeatures]float64{
	-0.3804, // tempo
	-0.1222, // row-diff
	1.6606,  // capture
	-0.2427, // threat
	0.0972,  // own-weak
	0.3197,  // opp-weak
	2.0595,  // own-moves
	-2.3088, // opp-moves
	0.6132,  // own-kroo
	-0.7332, // opp-kroo
	-1.4403, // own-reach
	1.2367,  // opp-reach
}

// variantWeights are the tuned estimate's weights of the variants fitted
// on a tablebase of their own, by variant name, in the units and order of
// tunedWeights; the tuned estimate of a variant not listed uses
// tunedWeights. Each was fitted by
//
//	go run ./internal/cmd/tune -variant NAME -tb DIR -drop own-kroo,opp-kroo
//
// (DIR a tablebase of NAME, of the seeds given with each; the kroo
// features are dropped because a pit of 12 seeds is rare in so small a
// tablebase, and their weights, fitted on those few, lost badly when
// extrapolated to the midgame). A variant is listed only where its fit
// beat the rows estimate, its default before, in self-play at 10,000
// nodes a move with the 95% interval of the Elo difference above 0
// (docs/engine.md, "Other variants"); kalah and djenon-aboure gained
// nothing outside the noise, with these weights or with tunedWeights.
var variantWeights = map[string][nFeatures]float64{
	// akon: a tablebase of 14 seeds; also beat tunedWeights (+51 Elo,
	// +4..+100), which beat rows by less.
	"akon": {-0.2264, 0.2051, 1.2280, 0.4044, -0.2288, 0.2005, 1.3616, -1.3432, 0, 0, -1.2240, 0.4091},
	// djenon-abe: a tablebase of 16 seeds; tunedWeights did not beat
	// rows outside the noise.
	"djenon-abe": {0.3632, -0.0413, 0.9314, -0.0952, -0.2326, 0.6274, 1.1225, -1.8818, 0, 0, -0.1454, 0.6426},
}

// committedWeights returns v's committed weights in fixed point:
// variantWeights' where v has its own, else tunedWeights'.
func committedWeights(v *position.Variant) *[nFeatures]int32 {
	if w, ok := fixedVariantWeights[v.Name]; ok {
		return w
	}
	return fixedTunedWeights
}

// fixedTunedWeights and fixedVariantWeights are tunedWeights and
// variantWeights in fixed point, converted once.
var (
	fixedTunedWeights   = fixedWeights(&tunedWeights)
	fixedVariantWeights = func() map[string]*[nFeatures]int32 {
		out := make(map[string]*[nFeatures]int32, len(variantWeights))
		for name, w := range variantWeights {
			out[name] = fixedWeights(&w)
		}
		return out
	}()
)

// weightScale is the fixed-point scale of the weights as negamax uses
// them.
const weightScale = 1 << 8

// fixedWeights converts w to fixed point.
func fixedWeights(w *[nFeatures]float64) *[nFeatures]int32 {
	var out [nFeatures]int32
	for i, x := range w {
		out[i] = int32(math.Round(x * weightScale))
	}
	return &out
}

// features computes p's features into f; moves are p's legal moves (the
// caller has them), n > 0 of them.
func features(v *position.Variant, p position.Position, moves *[position.MaxPits]position.Move, n int, f *[nFeatures]int32) {
	own, opp := p.Own, p.Opp
	f[fTempo] = 1
	f[fRowDiff] = int32(position.RowSeeds(own) - position.RowSeeds(opp))
	f[fCapture], f[fOwnMoves] = bestCapture(moves, n)
	var buf [position.MaxPits]position.Move
	f[fThreat], f[fOppMoves] = bestCapture(&buf, v.Moves(p.Swapped(), &buf))
	f[fOwnWeak], f[fOwnKroo], f[fOwnReach] = rowFeatures(own, v.Pits)
	f[fOppWeak], f[fOppKroo], f[fOppReach] = rowFeatures(opp, v.Pits)
}

// bestCapture returns the largest capture among moves[:n] and how many
// moves there are (a forced pass counts as none).
func bestCapture(moves *[position.MaxPits]position.Move, n int) (best, count int32) {
	if n == 0 || moves[0].IsPass() {
		return 0, 0
	}
	for _, m := range moves[:n] {
		best = max(best, int32(m.Captured))
	}
	return best, int32(n)
}

// rowFeatures returns a row's pits with 1 or 2 seeds, the seeds beyond
// 11 in its largest pit, and its pits whose sowing reaches the other row
// (pit i sows towards i+1, so it needs pits-i seeds). Empty pits are no
// feature: with the moves they are nearly collinear (a pit with seeds is
// a move unless the opponent must be fed), which spoiled the fit.
func rowFeatures(row uint64, pits int) (weak, kroo, reach int32) {
	largest := 0
	for i := 0; i < pits; i++ {
		s := position.Pit(row, i)
		if s == 1 || s == 2 {
			weak++
		}
		if s >= pits-i {
			reach++
		}
		largest = max(largest, s)
	}
	return weak, int32(max(0, largest-11)), reach
}

// tunedEstimate is the tuned estimate of p, rounded to whole seeds and
// kept within the seeds on the board (the value's own bounds).
func tunedEstimate(v *position.Variant, w *[nFeatures]int32, p position.Position, moves *[position.MaxPits]position.Move, n int) int {
	var f [nFeatures]int32
	features(v, p, moves, n, &f)
	sum := int32(0)
	for i := range f {
		sum += w[i] * f[i]
	}
	half := int32(weightScale / 2) // round half away from zero
	if sum < 0 {
		half = -half
	}
	est := int((sum + half) / weightScale)
	seeds := p.Seeds()
	return min(max(est, -seeds), seeds)
}

// rowsEstimate is EstimateRows: a quarter of the seeds the mover has on
// their row beyond the opponent's. Seeds on one's own row are mostly
// one's own at the end (EndOwnRows), and a player short of seeds risks
// being starved.
func rowsEstimate(p position.Position) int {
	return (position.RowSeeds(p.Own) - position.RowSeeds(p.Opp)) / 4
}

// parityEstimate moves estimate e of p onto the values p can have where a
// value has the parity of the seeds on the board
// (position.Variant.SeedParity): e itself if its parity is right, else one
// seed nearer 0, or from 0 one seed toward the side with more seeds on its
// row. Every score negamax combines then has the parity too (a proven
// value has it, and Move.Value and the seed bounds keep it), so that a
// null-window probe at a beta of the wrong parity asks what the next one
// up asks, and MTD(f) moves its bounds two seeds at a time; the
// depth-limited values it pins are values the position can have.
// Rounded toward 0, one thread, --one-best: Kalah(6,3) with no
// tablebase 1.52 M nodes to the proof instead of 1.78 M, Kalah(6,4) with
// the 20-seed tablebase 16.4 M instead of 17.2 M; rounded to the nearer
// of the two (by the row difference) 1.75 M and 17.7 M, always down 1.79 M.
func parityEstimate(e int, p position.Position) int {
	switch {
	case (e-p.Seeds())%2 == 0:
		return e
	case e > 0:
		return e - 1
	case e < 0:
		return e + 1
	case position.RowSeeds(p.Own) > position.RowSeeds(p.Opp):
		return 1
	}
	return -1
}
