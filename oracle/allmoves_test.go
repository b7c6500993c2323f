package oracle

import (
	"context"
	"testing"
)

// TestMovesOnlyWithAllMoves: an answer lists every move's value when
// AllMoves asks, and not otherwise, whether it came from the tablebase or
// from a search (issue 43, defect 10: a tablebase answer listed them
// without --all, a searched one did not). Both sources agree on the value
// and on the moves' values when asked.
func TestMovesOnlyWithAllMoves(t *testing.T) {
	s := mustSetup(t, "awari:0,0,2,0,1,0/1,0,0,0,2,0:2") // 6 seeds
	tb := newOracle(t, Config{MemTBSeeds: 6, Threads: 1, HashMiB: 4})
	search := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	var all [2][]MoveValue
	for i, o := range []*Oracle{tb, search} {
		for _, allMoves := range []bool{false, true} {
			a, err := o.Solve(context.Background(), s, SolveOptions{AllMoves: allMoves, Nodes: 5_000_000})
			if err != nil || !a.Exact || a.Value != -6 {
				t.Fatalf("source %d, all %v: %+d exact %v (%v); want -6 exact", i, allMoves, a.Value, a.Exact, err)
			}
			if want := []string{SourceTablebase, SourceSearch}[i]; a.Source != want {
				t.Fatalf("answer from %s, want %s", a.Source, want)
			}
			if allMoves {
				all[i] = a.Moves
				if len(a.Moves) != 2 {
					t.Errorf("%s answer with AllMoves: %d moves, want 2", a.Source, len(a.Moves))
				}
			} else if len(a.Moves) != 0 {
				t.Errorf("%s answer without AllMoves lists %d moves, want none", a.Source, len(a.Moves))
			}
		}
	}
	for j := range all[0] {
		if j < len(all[1]) && (all[0][j].Move != all[1][j].Move || all[0][j].Value != all[1][j].Value) {
			t.Errorf("move %d: tablebase %+v, search %+v", j, all[0][j], all[1][j])
		}
	}
}
