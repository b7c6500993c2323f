package solver_test

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// TestPVOutlivesTheTable: a search whose table is too small to keep its
// line (Kalah(6,4) to depth 9 in 1 MiB: 1.25 M nodes) still returns the
// line its iterations found, a legal one from the root, not the single
// move left in the table at the end (issue 43, defect 8: `solve kalah
// --time 60s` printed "pv: 3" where the 10 s run printed 25 moves).
func TestPVOutlivesTheTable(t *testing.T) {
	v, err := position.Lookup("kalah")
	if err != nil {
		t.Fatal(err)
	}
	res, err := solver.Search(context.Background(), v, v.Start(), solver.Options{Threads: 1, HashMiB: 1, MaxDepth: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PV) < 5 {
		t.Fatalf("PV %v at depth %d: want at least 5 moves", res.PV, res.Depth)
	}
	p := v.Start()
	var buf [position.MaxPits]position.Move
	for i, pit := range res.PV {
		n := v.Moves(p, &buf)
		legal := false
		for _, m := range buf[:n] {
			if int(m.Pit) == pit {
				p, legal = m.Next, true
				break
			}
		}
		if !legal {
			t.Fatalf("PV %v: move %d (%d) is not legal", res.PV, i+1, pit)
		}
	}
}
