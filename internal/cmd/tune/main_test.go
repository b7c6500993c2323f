package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestLeastSquares checks the solver of the normal equations on a fit
// worked by hand: y = 2 + 3x through (0,2), (1,5), (2,8), and with noise
// that cancels, (0,1), (0,3) centred on 2; a dropped (all-zero) feature
// gets weight 0.
func TestLeastSquares(t *testing.T) {
	xs := [][]float64{{1, 0, 0}, {1, 1, 0}, {1, 2, 0}, {1, 0, 0}, {1, 0, 0}}
	ys := []float64{2, 5, 8, 1, 3}
	w := leastSquares(xs, ys)
	if math.Abs(w[0]-2) > 1e-9 || math.Abs(w[1]-3) > 1e-9 || w[2] != 0 {
		t.Errorf("weights %v, want [2 3 0]", w)
	}
}

// TestRunSmall: on an oware tablebase of 10 seeds, a fit of 500
// positions prints a weight for each feature, a dropped feature's 0, and
// an error below the rows estimate's and no more than oware's committed
// weights' (each one of the weightings the fit can choose); bad flags,
// an unknown variant and a tablebase of another variant are refused.
func TestRunSmall(t *testing.T) {
	if testsize.Short() {
		t.Skip("builds an oware tablebase of 10 seeds")
	}
	v, _ := position.Lookup("oware")
	dir := t.TempDir()
	if _, err := tablebase.Build(t.Context(), dir, v, tablebase.BuildOptions{MaxSeeds: 10, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, "oware", dir, 500, 0, "opp-kroo"); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "\t0.0000, // opp-kroo\n") || strings.Count(text, ", // ") != 12 {
		t.Errorf("output:\n%s", text)
	}
	var n int
	var rows, oware, fit float64
	if _, err := fmt.Sscanf(text, "%d tablebase positions of 10..10 seeds; rms error: rows estimate %g, oware's weights %g, this fit %g seeds", &n, &rows, &oware, &fit); err != nil || n != 500 || fit >= rows || fit > oware {
		t.Errorf("first line of %q: %d positions, rms rows %v, oware's weights %v, fit %v (%v); want 500 and the fit's lowest", text, n, rows, oware, fit, err)
	}
	for _, bad := range []struct {
		variant string
		dir     string
		samples int
		drop    string
	}{{"oware", "", 1, ""}, {"oware", dir, 0, ""}, {"oware", dir, 1, "no-such"}, {"owari", dir, 1, ""}, {"awari", dir, 1, ""}} {
		if err := run(&out, bad.variant, bad.dir, bad.samples, 0, bad.drop); err == nil {
			t.Errorf("run(%q, %q, %d, %q) accepted", bad.variant, bad.dir, bad.samples, bad.drop)
		}
	}
}
