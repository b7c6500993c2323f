package solver

import (
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// The tuned estimate's features and weights, for the operator tools that
// fit the weights (internal/cmd/tune) and try them in self-play
// (internal/cmd/selfplay); docs/solver-design.md, "The horizon estimate".

// FeatureNames returns the names of the tuned estimate's features, in the
// order of Features and of the weights.
func FeatureNames() []string { return append([]string(nil), featureNames[:]...) }

// TunedWeights returns the committed weights of the tuned estimate fitted
// to oware (those of every variant without weights of its own), in seeds a
// feature unit, in FeatureNames order.
func TunedWeights() []float64 { return append([]float64(nil), tunedWeights[:]...) }

// Features returns the tuned estimate's features of p from the side to
// move's view, in FeatureNames order: the numbers the weights multiply.
// It returns nil when p has no legal move (the game is over).
func Features(v *position.Variant, p position.Position) []float64 {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	if n == 0 {
		return nil
	}
	var f [nFeatures]int32
	features(v, p, &buf, n, &f)
	out := make([]float64, nFeatures)
	for i, x := range f {
		out[i] = float64(x)
	}
	return out
}

// SetWeights makes the tuned estimate of s (Options.Estimate
// EstimateTuned, or EstimateAuto where it tunes) use w, len(FeatureNames())
// weights in seeds a feature unit, instead of the committed weights: for
// fitting and trying candidate weights, in every variant searched. Searches use the weights rounded
// to 1/256 seed, as the committed ones are.
func (s *Solver) SetWeights(w []float64) error {
	if len(w) != nFeatures {
		return fmt.Errorf("solver: %d weights, want %d (%v)", len(w), nFeatures, featureNames)
	}
	var a [nFeatures]float64
	copy(a[:], w)
	s.weights = fixedWeights(&a)
	return nil
}
