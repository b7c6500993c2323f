package tablebase

import (
	"context"
	"errors"
	"testing"
)

// TestVerifyRefusesEmptyRanges: a range that reaches no built layer, or
// whose first layer to re-derive lies above its last, is refused before
// anything is read, rather than passing having re-derived nothing (issue
// 43, defect 2: `verify --from 28 --to 29` on a 0..12 tablebase printed
// "all 13 layers verified").
func TestVerifyRefusesEmptyRanges(t *testing.T) {
	v := lookup(t, "awari")
	dir := build(t, v, 5, MethodAuto)
	for _, tc := range []struct {
		from, to int
		refused  bool
	}{
		{28, 29, true},
		{9, 3, true},
		{6, 0, true}, // from above the top layer, 5
		{0, 6, true},
		{4, 3, true},
		{5, 0, false},
		{5, 5, false},
		{3, 3, false},
		{0, 5, false},
	} {
		checks, err := Verify(context.Background(), dir, v, VerifyOptions{From: tc.from, To: tc.to, Threads: 1})
		var rng *RangeError
		if got := errors.As(err, &rng); got != tc.refused {
			t.Errorf("--from %d --to %d: refused %v (%v), want %v", tc.from, tc.to, got, err, tc.refused)
			continue
		}
		if tc.refused {
			if len(checks) != 0 || rng.Top != 5 {
				t.Errorf("--from %d --to %d: %d layers checked, top %d; want none read, top 5", tc.from, tc.to, len(checks), rng.Top)
			}
			continue
		}
		rechecked := 0
		for _, c := range checks {
			if c.Rechecked {
				rechecked++
			}
		}
		if err != nil || rechecked == 0 {
			t.Errorf("--from %d --to %d: %v, %d layers re-derived; want some", tc.from, tc.to, err, rechecked)
		}
	}
}
