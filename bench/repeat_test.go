package bench

import (
	"context"
	"testing"
)

// A run that the context cut short is not a measurement: it is dropped,
// and a figure with no finished run is not reported at all.
func TestRepeatDropsCutRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var started, measured []Figure
	opts := Options{Runs: 3,
		Starting: func(f Figure) { started = append(started, f) },
		Measured: func(f Figure) { measured = append(measured, f) }}
	runs := 0
	f, ok := repeat(ctx, Figure{Name: "x"}, opts, func() float64 {
		runs++
		if runs == 2 {
			cancel() // the second run is cut
		}
		return float64(10 * runs)
	})
	if !ok || f.Runs != 1 || f.Median != 10 || f.Max != 10 {
		t.Errorf("got %+v, %v; want the first run only", f, ok)
	}
	if len(started) != 1 || len(measured) != 1 {
		t.Errorf("progress: %d started, %d measured; want 1 and 1", len(started), len(measured))
	}
	if _, ok := repeat(ctx, Figure{Name: "y"}, opts, func() float64 { return 1 }); ok {
		t.Error("a figure measured after the interruption is reported")
	}
	if len(started) != 1 {
		t.Error("a figure after the interruption was started")
	}
}
