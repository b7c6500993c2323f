package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TuneEnv names the oware tablebase directory that TestTuneEstimate fits
// the tuned estimate's weights to; unset, the test is skipped.
const TuneEnv = "MANCALA_TUNE"

// tuneSamples is how many positions the fit uses.
const tuneSamples = 200_000

// TestTuneEstimate fits tunedWeights: least squares of the exact values of
// positions the tablebase holds (10 to its largest seed count, from random
// playouts of oware from the start, seeded, so the run is reproducible)
// on their features. With MANCALA_TUNE_DEEP=N it then values N midgame
// positions by search with that first fit's weights (deepSet) and fits
// again to both sets, weighted equally. It prints each fit's weights as
// Go, for estimate.go, with its root-mean-square error beside that of
// EstimateRows.
func TestTuneEstimate(t *testing.T) {
	dir := os.Getenv(TuneEnv)
	if dir == "" {
		t.Skipf("set %s to an oware tablebase directory", TuneEnv)
	}
	v := mustVariant(t, "oware")
	tb, err := tablebase.OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	top := tb.MaxSeeds()
	if top < 10 {
		t.Fatalf("%s holds %d seeds, want at least 10", dir, top)
	}
	xs, ys := tuneSet(t, v, tb, top)
	dropFeatures(xs, os.Getenv("MANCALA_TUNE_DROP"))
	tbFit := printFit(t, fmt.Sprintf("%d tablebase positions of 10..%d seeds", len(ys), top), xs, ys)
	env := os.Getenv("MANCALA_TUNE_DEEP")
	if env == "" {
		return
	}
	n, err := strconv.Atoi(env)
	if err != nil || n <= 0 {
		t.Fatalf("MANCALA_TUNE_DEEP=%q: want a position count", env)
	}
	var w [nFeatures]float64
	copy(w[:], tbFit)
	dx, dy := deepSet(t, v, tb, top, n, fixedWeights(&w))
	dropFeatures(dx, os.Getenv("MANCALA_TUNE_DROP"))
	printFit(t, fmt.Sprintf("%d searched positions of %d..40 seeds", len(dy), top+1), dx, dy)
	// Both sets with equal weight: each searched row counts len(ys)/len(dy)
	// times (its features and value scaled by the root of that).
	scale := math.Sqrt(float64(len(ys)) / float64(len(dy)))
	sx, sy := make([][]float64, len(dx)), make([]float64, len(dy))
	for i := range dx {
		sx[i] = make([]float64, nFeatures)
		for j := range dx[i] {
			sx[i][j] = dx[i][j] * scale
		}
		sy[i] = dy[i] * scale
	}
	both := printFit(t, "both sets, with equal weight", append(xs, sx...), append(ys, sy...))
	t.Logf("that fit's rms error: %.3f seeds on the tablebase set, %.3f on the searched set",
		rms(xs, ys, func(x []float64) float64 { return dot(both, x) }),
		rms(dx, dy, func(x []float64) float64 { return dot(both, x) }))
}

// printFit fits the weights to xs, ys and prints them as Go, for
// estimate.go, with the fit's root-mean-square error beside that of
// EstimateRows.
func printFit(t *testing.T, what string, xs [][]float64, ys []float64) []float64 {
	w := leastSquares(xs, ys)
	t.Logf("%s; rms error: rows estimate %.3f, this fit %.3f seeds", what,
		rms(xs, ys, func(x []float64) float64 { return 0.25 * x[fRowDiff] }),
		rms(xs, ys, func(x []float64) float64 { return dot(w, x) }))
	var b strings.Builder
	for i, x := range w {
		fmt.Fprintf(&b, "\t%.4f, // %s\n", x, featureNames[i])
	}
	t.Logf("var tunedWeights = [nFeatures]float64{\n%s}", b.String())
	t.Logf("MANCALA_WEIGHTS=%s", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(w)), ","), "[]"))
	return w
}

// tuneSet samples positions and their exact values.
func tuneSet(t *testing.T, v *position.Variant, tb *tablebase.Prober, top int) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(18, 2026))
	var xs [][]float64
	var ys []float64
	var buf [position.MaxPits]position.Move
	for len(ys) < tuneSamples {
		target := 10 + rng.IntN(top-9)
		p := v.Start()
		for n := v.Moves(p, &buf); n > 0 && p.Seeds() > target; n = v.Moves(p, &buf) {
			p = buf[rng.IntN(n)].Next
		}
		n := v.Moves(p, &buf)
		if n == 0 || buf[0].IsPass() || p.Seeds() > top {
			continue
		}
		val, ok := tb.Probe(p)
		if !ok {
			t.Fatalf("%s: not in the tablebase", position.Format(v, p))
		}
		var f [nFeatures]int32
		features(v, p, &buf, n, &f)
		x := make([]float64, nFeatures)
		for i := range f {
			x[i] = float64(f[i])
		}
		xs, ys = append(xs, x), append(ys, float64(val))
	}
	return xs, ys
}

// dropFeatures zeroes the named features (comma separated), so that the
// fit gives them weight 0: for comparing feature sets.
func dropFeatures(xs [][]float64, names string) {
	for _, name := range strings.Split(names, ",") {
		for i, n := range featureNames {
			if n == strings.TrimSpace(name) {
				for _, x := range xs {
					x[i] = 0
				}
			}
		}
	}
}

// deepNodes is the node budget of each search that values a midgame
// position for deepSet.
const deepNodes = 50_000

// deepSet samples n positions of top+1 to 40 seeds (random playouts,
// seeded) and values each by a search of deepNodes nodes (one thread, so
// the values are the same from run to run) with the tablebase and the
// tuned estimate with weights w: beyond the tablebase, the fit then
// learns what a deeper search would say (as TD-leaf does).
func deepSet(t *testing.T, v *position.Variant, tb *tablebase.Prober, top, n int, w *[nFeatures]int32) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(40, 2026))
	s, err := New(Options{Threads: 1, HashMiB: 16, Tablebase: tb, MaxNodes: deepNodes, Estimate: EstimateTuned})
	if err != nil {
		t.Fatal(err)
	}
	s.weights = w
	var xs [][]float64
	var ys []float64
	var buf [position.MaxPits]position.Move
	for len(ys) < n {
		target := top + 1 + rng.IntN(40-top)
		p := v.Start()
		for n := v.Moves(p, &buf); n > 0 && p.Seeds() > target; n = v.Moves(p, &buf) {
			p = buf[rng.IntN(n)].Next
		}
		k := v.Moves(p, &buf)
		if k == 0 || buf[0].IsPass() || p.Seeds() <= top {
			continue
		}
		res, err := s.Search(context.Background(), v, p)
		if err != nil {
			t.Fatal(err)
		}
		var f [nFeatures]int32
		features(v, p, &buf, k, &f)
		x := make([]float64, nFeatures)
		for i := range f {
			x[i] = float64(f[i])
		}
		xs, ys = append(xs, x), append(ys, float64(res.Value))
	}
	return xs, ys
}

// leastSquares solves the normal equations X'X w = X'y by Gaussian
// elimination with partial pivoting.
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

// TestLeastSquares checks the solver of the normal equations on a fit
// worked by hand: y = 2 + 3x through (0,2), (1,5), (2,8), and with noise
// that cancels, (0,1), (0,3) centred on 2.
func TestLeastSquares(t *testing.T) {
	xs := [][]float64{{1, 0}, {1, 1}, {1, 2}, {1, 0}, {1, 0}}
	ys := []float64{2, 5, 8, 1, 3}
	w := leastSquares(xs, ys)
	if math.Abs(w[0]-2) > 1e-9 || math.Abs(w[1]-3) > 1e-9 {
		t.Errorf("weights %v, want [2 3]", w)
	}
}
