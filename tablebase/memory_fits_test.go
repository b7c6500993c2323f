package tablebase

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestBuildMemoryRefusesWhatCannotFit: an in-memory tablebase whose
// layers need more than a build may use is refused before any work
// (issue 43, defect 10: `--mem-tb 99` was accepted and its build grew
// without bound). The context is cancelled beforehand, so that a build
// that starts returns ctx's error instead of the refusal.
func TestBuildMemoryRefusesWhatCannotFit(t *testing.T) {
	v := lookup(t, "awari")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := BuildMemory(ctx, v, 48, 1)
	if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "seeds fit") {
		t.Errorf("BuildMemory(awari, 48): %v; want a refusal naming the seeds that fit", err)
	}
}

// TestMemoryFits: MemoryBytes is three bytes for each of the C(k+12, 12)
// positions of awari's layers 0..k (up to k seeds in 12 pits), and
// MemoryFits the largest k whose bytes fit the budget.
func TestMemoryFits(t *testing.T) {
	v := lookup(t, "awari")
	binom := func(n, k int64) int64 {
		r := int64(1)
		for i := int64(1); i <= k; i++ {
			r = r * (n - k + i) / i
		}
		return r
	}
	for k := 0; k <= 20; k++ {
		if got, want := MemoryBytes(v, k), 3*binom(int64(k)+12, 12); got != want {
			t.Errorf("MemoryBytes(awari, %d) = %d, want %d", k, got, want)
		}
	}
	// Layers 0..8 hold 125970 positions, 0..9 hold 293930.
	for _, c := range []struct {
		budget int64
		want   int
	}{{0, -1}, {2, -1}, {3, 0}, {3 * 125970, 8}, {3*293930 - 1, 8}, {3 * 293930, 9}, {1 << 62, 48}} {
		if got := MemoryFits(v, c.budget); got != c.want {
			t.Errorf("MemoryFits(awari, %d) = %d, want %d", c.budget, got, c.want)
		}
	}
}
