package oracle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position/reference"
)

// minimaxLines is every turn of s's mover, worked out apart from the
// oracle, by the reference rules (position/reference): each legal move,
// and each move after which the mover moves again in a game not over,
// followed by each of the turns from there; every line valued by plain
// minimax (minimaxValue).
func minimaxLines(s reference.State, memo map[string]int) (lines [][]int, values []int) {
	for _, pit := range reference.LegalMoves(s) {
		next, captured, _, err := reference.Apply(s, pit)
		if err != nil {
			panic(err)
		}
		if next.ToMove != s.ToMove || len(reference.LegalMoves(next)) == 0 {
			lines = append(lines, []int{pit})
			values = append(values, captured+follows(s, next, memo))
			continue
		}
		subLines, subValues := minimaxLines(next, memo)
		for i, l := range subLines {
			lines = append(lines, append([]int{pit}, l...))
			values = append(values, captured+subValues[i])
		}
	}
	return lines, values
}

// follows is what next is worth to s's mover: its value, or minus it when
// the turn passed.
func follows(s, next reference.State, memo map[string]int) int {
	if next.ToMove == s.ToMove {
		return minimaxValue(next, memo)
	}
	return -minimaxValue(next, memo)
}

// minimaxValue is s's plain minimax value for its mover, memoized (kalah
// positions never recur, so a position's value does not depend on the
// line): the end shares' difference when the game is over, else the best
// move's captures plus what follows.
func minimaxValue(s reference.State, memo map[string]int) int {
	key := fmt.Sprint(s.Rows, s.ToMove)
	if x, ok := memo[key]; ok {
		return x
	}
	best := -1 << 30
	if over, shares := reference.GameOver(s); over {
		best = shares[s.ToMove-1] - shares[2-s.ToMove]
	}
	for _, pit := range reference.LegalMoves(s) {
		next, captured, _, err := reference.Apply(s, pit)
		if err != nil {
			panic(err)
		}
		best = max(best, captured+follows(s, next, memo))
	}
	memo[key] = best
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
	var cases []reference.State
	starts := []string{"kalah-2x2", "kalah-4x1", "kalah-3x3", "kalah-std-2x2", "kalah-std-3x3"}
	if !testsize.Short() { // the reference rules take seconds to a few minutes on these
		starts = append(starts, "kalah-4x2", "kalah-6x1", "kalah-std-4x2", "kalah-std-6x1")
	}
	for _, name := range starts {
		cases = append(cases, reference.Start(name))
	}
	for _, name := range []string{"kalah-4x2", "kalah-std-4x2"} {
		cases = append(cases, reference.State{Variant: name, Rows: [2][]int{{0, 1, 2, 1}, {2, 2, 2, 2}}, ToMove: 1})
	}
	configs := map[string]Config{"search": {NoTB: true, Threads: 1, HashMiB: 16}, "tablebase": {MemTBSeeds: 18, Threads: 1, HashMiB: 16}}
	for _, c := range cases {
		name := fmt.Sprintf("%s:%s:%d", c.Variant, rowsString(c.Rows), c.ToMove)
		s := mustSetup(t, name)
		wantLines, wantValues := minimaxLines(c, map[string]int{})
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

// rowsString writes rows as a position string does: "0,1,2,1/2,2,2,2".
func rowsString(rows [2][]int) string {
	var parts [2]string
	for i, row := range rows {
		parts[i] = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(row)), ","), "[]")
	}
	return parts[0] + "/" + parts[1]
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
