// Command tune fits the weights of the solver's tuned estimate
// (solver/estimate.go, tunedWeights) by least squares: the exact values of
// positions a tablebase of the variant holds (10 seeds to its largest, from
// random playouts from the start, seeded, so a run is reproducible) on their
// features (solver.Features). With -deep N it then values N midgame
// positions beyond the tablebase by searches of 50,000 nodes with that
// first fit's weights, and fits again to both sets with equal weight (as
// TD-leaf learns what a deeper search says). Each fit is printed as Go for
// estimate.go, with its root-mean-square error beside the rows
// estimate's and that of oware's weights (tunedWeights).
//
//	go run ./internal/cmd/tune -tb DIR [-variant oware] [-samples 200000] [-deep 2000] [-drop opp-kroo,own-kroo]
//
// DIR holds a tablebase of the variant (oware by default) of at least 10
// seeds (oware's of 18 made the committed weights, tunedWeights; see
// variantWeights for the others). See docs/solver-design.md, "The horizon estimate", and
// docs/testing.md for the other operator tools.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// deepNodes is the node budget of each search that values a midgame
// position for deepSet.
const deepNodes = 50_000

func main() {
	dir := flag.String("tb", "", "directory of a tablebase of the variant of at least 10 seeds (required)")
	variant := flag.String("variant", "oware", "the variant whose estimate is fitted")
	samples := flag.Int("samples", 200_000, "tablebase positions the first fit uses")
	deep := flag.Int("deep", 0, "midgame positions valued by search for a second fit (0: none)")
	drop := flag.String("drop", "", "features to leave out (weight 0), comma separated, for comparing feature sets")
	flag.Parse()
	if err := run(os.Stdout, *variant, *dir, *samples, *deep, *drop); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, variant, dir string, samples, deep int, drop string) error {
	switch {
	case dir == "":
		return errors.New("-tb: give the directory of a tablebase of the variant")
	case samples < 1:
		return fmt.Errorf("-samples %d: want 1 or more", samples)
	case deep < 0:
		return fmt.Errorf("-deep %d: want 0 or more", deep)
	}
	if err := checkNames(drop); err != nil {
		return err
	}
	v, err := position.Lookup(variant)
	if err != nil {
		return fmt.Errorf("-variant: %w", err)
	}
	tb, err := tablebase.OpenProber(dir, v)
	if err != nil {
		return err
	}
	defer tb.Close()
	top := tb.MaxSeeds()
	if top < 10 {
		return fmt.Errorf("-tb %s holds %d seeds, want at least 10", dir, top)
	}
	xs, ys, err := tuneSet(v, tb, top, samples)
	if err != nil {
		return err
	}
	dropFeatures(xs, drop)
	tbFit := printFit(out, fmt.Sprintf("%d tablebase positions of 10..%d seeds", len(ys), top), xs, ys)
	if deep == 0 {
		return nil
	}
	dx, dy, err := deepSet(v, tb, top, deep, tbFit)
	if err != nil {
		return err
	}
	dropFeatures(dx, drop)
	printFit(out, fmt.Sprintf("%d searched positions of %d..40 seeds", len(dy), top+1), dx, dy)
	// Both sets with equal weight: each searched row counts len(ys)/len(dy)
	// times (its features and value scaled by the root of that).
	scale := math.Sqrt(float64(len(ys)) / float64(len(dy)))
	sx, sy := make([][]float64, len(dx)), make([]float64, len(dy))
	for i := range dx {
		sx[i] = make([]float64, len(dx[i]))
		for j := range dx[i] {
			sx[i][j] = dx[i][j] * scale
		}
		sy[i] = dy[i] * scale
	}
	both := printFit(out, "both sets, with equal weight", append(xs, sx...), append(ys, sy...))
	fmt.Fprintf(out, "that fit's rms error: %.3f seeds on the tablebase set, %.3f on the searched set\n",
		rms(xs, ys, func(x []float64) float64 { return dot(both, x) }),
		rms(dx, dy, func(x []float64) float64 { return dot(both, x) }))
	return nil
}

// printFit fits the weights to xs, ys and prints them as Go, for
// estimate.go, with the fit's root-mean-square error beside that of the
// rows estimate (a quarter seed a seed of row difference).
func printFit(out io.Writer, what string, xs [][]float64, ys []float64) []float64 {
	names := solver.FeatureNames()
	rowDiff := index(names, "row-diff")
	w := leastSquares(xs, ys)
	oware := solver.TunedWeights()
	fmt.Fprintf(out, "%s; rms error: rows estimate %.3f, oware's weights %.3f, this fit %.3f seeds\n", what,
		rms(xs, ys, func(x []float64) float64 { return 0.25 * x[rowDiff] }),
		rms(xs, ys, func(x []float64) float64 { return dot(oware, x) }),
		rms(xs, ys, func(x []float64) float64 { return dot(w, x) }))
	fmt.Fprintln(out, "var tunedWeights = [nFeatures]float64{")
	for i, x := range w {
		fmt.Fprintf(out, "\t%.4f, // %s\n", x, names[i])
	}
	fmt.Fprintln(out, "}")
	return w
}

// tuneSet samples n positions of 10..top seeds from random playouts of v
// (the game not over, no forced pass) with their exact values. It gives
// up after maxPlayouts(n) playouts, for a variant whose games seldom come
// down to top seeds.
func tuneSet(v *position.Variant, tb *tablebase.Prober, top, n int) ([][]float64, []float64, error) {
	rng := rand.New(rand.NewPCG(18, 2026))
	var xs [][]float64
	var ys []float64
	var buf [position.MaxPits]position.Move
	for tries := 0; len(ys) < n; tries++ {
		if tries == maxPlayouts(n) {
			return nil, nil, fmt.Errorf("%d playouts of %s found only %d of %d positions of 10..%d seeds", tries, v.Name, len(ys), n, top)
		}
		target := 10 + rng.IntN(top-9)
		p := v.Start()
		for k := v.Moves(p, &buf); k > 0 && p.Seeds() > target; k = v.Moves(p, &buf) {
			p = buf[rng.IntN(k)].Next
		}
		k := v.Moves(p, &buf)
		if k == 0 || buf[0].IsPass() || p.Seeds() > top {
			continue
		}
		val, ok := tb.Probe(p)
		if !ok {
			return nil, nil, fmt.Errorf("%s: not in the tablebase", position.Format(v, p))
		}
		xs, ys = append(xs, solver.Features(v, p)), append(ys, float64(val))
	}
	return xs, ys, nil
}

// maxPlayouts is how many playouts tuneSet tries for n positions.
func maxPlayouts(n int) int { return 100 * n }

// deepSet samples n positions of top+1 to 40 seeds (random playouts,
// seeded) and values each by a search of deepNodes nodes (one thread, so
// the values are the same from run to run) with the tablebase and the
// tuned estimate with weights w.
func deepSet(v *position.Variant, tb *tablebase.Prober, top, n int, w []float64) ([][]float64, []float64, error) {
	rng := rand.New(rand.NewPCG(40, 2026))
	s, err := solver.New(solver.Options{Threads: 1, HashMiB: 16, Tablebase: tb, MaxNodes: deepNodes, Estimate: solver.EstimateTuned})
	if err != nil {
		return nil, nil, err
	}
	if err := s.SetWeights(w); err != nil {
		return nil, nil, err
	}
	var xs [][]float64
	var ys []float64
	var buf [position.MaxPits]position.Move
	for len(ys) < n {
		target := top + 1 + rng.IntN(40-top)
		p := v.Start()
		for k := v.Moves(p, &buf); k > 0 && p.Seeds() > target; k = v.Moves(p, &buf) {
			p = buf[rng.IntN(k)].Next
		}
		k := v.Moves(p, &buf)
		if k == 0 || buf[0].IsPass() || p.Seeds() <= top {
			continue
		}
		res, err := s.Search(context.Background(), v, p)
		if err != nil {
			return nil, nil, err
		}
		xs, ys = append(xs, solver.Features(v, p)), append(ys, float64(res.Value))
	}
	return xs, ys, nil
}

// checkNames refuses a -drop name that is no feature.
func checkNames(names string) error {
	for _, name := range strings.Split(names, ",") {
		if name = strings.TrimSpace(name); name != "" && index(solver.FeatureNames(), name) < 0 {
			return fmt.Errorf("-drop %q: not a feature (features: %s)", name, strings.Join(solver.FeatureNames(), ", "))
		}
	}
	return nil
}

// dropFeatures zeroes the named features (comma separated), so that the
// fit gives them weight 0.
func dropFeatures(xs [][]float64, names string) {
	for _, name := range strings.Split(names, ",") {
		if i := index(solver.FeatureNames(), strings.TrimSpace(name)); i >= 0 {
			for _, x := range xs {
				x[i] = 0
			}
		}
	}
}

func index(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// leastSquares solves the normal equations X'X w = X'y by Gaussian
// elimination with partial pivoting; a feature that is zero throughout
// gets weight 0.
func leastSquares(xs [][]float64, ys []float64) []float64 {
	k := len(xs[0])
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for r, x := range xs {
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				a[i][j] += x[i] * x[j]
			}
			a[i][k] += x[i] * ys[r]
		}
	}
	for c := 0; c < k; c++ {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		for r := 0; r < k; r++ {
			if r != c && a[c][c] != 0 {
				f := a[r][c] / a[c][c]
				for j := c; j <= k; j++ {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	w := make([]float64, k)
	for i := range w {
		if a[i][i] != 0 {
			w[i] = a[i][k] / a[i][i]
		}
	}
	return w
}

func dot(w, x []float64) float64 {
	s := 0.0
	for i := range w {
		s += w[i] * x[i]
	}
	return s
}

func rms(xs [][]float64, ys []float64, f func([]float64) float64) float64 {
	s := 0.0
	for i, x := range xs {
		d := f(x) - ys[i]
		s += d * d
	}
	return math.Sqrt(s / float64(len(ys)))
}
