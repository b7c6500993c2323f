package oracle

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// minimaxLines is every turn of p's mover, worked out apart from the
// oracle: each legal move, and each move after which the mover moves
// again in a game not over, followed by each of the turns from there;
// every line valued by plain minimax (minimaxValue), each move worth
// position.Move.Value of what follows it.
func minimaxLines(v *position.Variant, p position.Position, memo map[position.Position]int) (lines [][]int, values []int) {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	for _, m := range slices.Clone(buf[:n]) {
		var next [position.MaxPits]position.Move
		if !m.MovesAgain(p) || v.Moves(m.Next, &next) == 0 {
			lines = append(lines, []int{int(m.Pit)})
			values = append(values, m.Value(p, minimaxValue(v, m.Next, memo)))
			continue
		}
		subLines, subValues := minimaxLines(v, m.Next, memo)
		for i, l := range subLines {
			lines = append(lines, append([]int{int(m.Pit)}, l...))
			values = append(values, m.Value(p, subValues[i]))
		}
	}
	return lines, values
}

// minimaxValue is p's plain minimax value, memoized (kalah positions
// never recur, so a position's value does not depend on the line).
func minimaxValue(v *position.Variant, p position.Position, memo map[position.Position]int) int {
	if x, ok := memo[p]; ok {
		return x
	}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	best := v.TerminalValue(p)
	if n > 0 {
		best = -1 << 30
		for _, m := range buf[:n] {
			best = max(best, m.Value(p, minimaxValue(v, m.Next, memo)))
		}
	}
	memo[p] = best
	return best
}

// TestLinesHandWorked: kalah-2x2's start (2,2/2,2). Pit 1 sows pit 2 and
// the store (1 banked), so player 1 moves again, and pit 2, now 3 seeds,
// sows the store and player 2's two pits (1 more): line "1-2", 2
// banked. Pit 2 sows the store and player 2's pit 1 and the turn passes:
// line "2", 1 banked. Worked by hand.
func TestLinesHandWorked(t *testing.T) {
	o := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	a, err := o.Solve(context.Background(), mustSetup(t, "kalah-2x2"), SolveOptions{Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range a.Lines {
		got = append(got, fmt.Sprintf("%v x%d", l, l.Captured))
	}
	if want := []string{"1-2 x2", "2 x1"}; !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
}

// TestLinesMatchPlainMinimax: on small kalah sizes under both capture
// rules, and a position with chains of extra moves (pits 4, 3, 4 of
// 0,1,2,1 each end in the store, so lines 4-3-4-2 and 3-4-...), Solve with
// Lines
// gives exactly minimaxLines' lines with their values, all exact, and the
// best line's value is the position's. Searched without a tablebase and
// answered from an in-memory one that holds the start (built first, by
// Warm), both.
func TestLinesMatchPlainMinimax(t *testing.T) {
	names := []string{"kalah-2x2", "kalah-4x1", "kalah-6x1", "kalah-3x3", "kalah-4x2", "kalah-std-3x3", "kalah-std-4x2", "kalah-std-6x1",
		"kalah-4x2:0,1,2,1/2,2,2,2:1", "kalah-std-4x2:0,1,2,1/2,2,2,2:1"}
	configs := map[string]Config{"search": {NoTB: true, Threads: 1, HashMiB: 16}, "tablebase": {MemTBSeeds: 18, Threads: 1, HashMiB: 16}}
	for _, name := range names {
		s := mustSetup(t, name)
		memo := map[position.Position]int{}
		wantLines, wantValues := minimaxLines(s.Variant, s.Position, memo)
		for cname, cfg := range configs {
			t.Run(name+"/"+cname, func(t *testing.T) {
				o := newOracle(t, cfg)
				if cname == "tablebase" {
					if err := o.Warm(context.Background(), s.Variant); err != nil {
						t.Fatal(err)
					}
				}
				a, err := o.Solve(context.Background(), s, SolveOptions{Lines: true})
				if err != nil {
					t.Fatal(err)
				}
				if cname == "tablebase" && a.Source != SourceTablebase {
					t.Errorf("source %q, want the tablebase", a.Source)
				}
				checkLines(t, a, wantLines, wantValues)
			})
		}
	}
}

// checkLines compares a's lines with the wanted ones and their values.
func checkLines(t *testing.T, a Answer, wantLines [][]int, wantValues []int) {
	t.Helper()
	if len(a.Lines) != len(wantLines) {
		t.Fatalf("%d lines %v, want %d %v", len(a.Lines), a.Lines, len(wantLines), wantLines)
	}
	best := a.Lines[0].Value
	for i, l := range a.Lines {
		got := make([]int, len(l.Line))
		for j, m := range l.Line {
			got[j] = int(m)
		}
		if !slices.Equal(got, wantLines[i]) || l.Value != wantValues[i] || !l.Exact || l.Lower != l.Value || l.Upper != l.Value {
			t.Errorf("line %d: %v %+v, want %v value %d exact", i, got, l, wantLines[i], wantValues[i])
		}
		best = max(best, l.Value)
	}
	if !a.Exact || best != a.Value {
		t.Errorf("best line %d, position value %d (exact %v)", best, a.Value, a.Exact)
	}
}
