package cmd

import (
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

// TestResultLineNobodyAgrees: the seeds left to nobody take a verb that
// agrees with their number ("1 seed counts", "3 seeds count"; the
// newcomer report item 5 saw "1 seed count for nobody").
func TestResultLineNobodyAgrees(t *testing.T) {
	v, _ := position.Lookup("oware")
	for n, want := range map[int]string{1: "; 1 seed counts for nobody (repetition)", 3: "; 3 seeds count for nobody (repetition)"} {
		r := &oracle.Result{FinalScore: [2]int{1, 0}, Winner: 1, Margin: 1, Exact: true, Nobody: n}
		if got := resultLine(v, r); !strings.Contains(got, want) {
			t.Errorf("Nobody %d: %q, want it to contain %q", n, got, want)
		}
	}
}
