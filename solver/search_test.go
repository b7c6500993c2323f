package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// testCase is a position with reference values for each move.
type testCase struct {
	v     *position.Variant
	p     position.Position
	moves map[int]int // pit -> value, the root on the line
	value int
}

func (c testCase) String() string { return position.Format(c.v, c.p) }

// checkAgainst searches c's position for every move's value and fails the
// test unless the result is exact and agrees with the reference.
func checkAgainst(t *testing.T, c testCase, opts Options) Result {
	t.Helper()
	opts.AllMoves = true
	res, err := Search(context.Background(), c.v, c.p, opts)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	if !res.Exact {
		t.Fatalf("%s: not exact after %d nodes (%s), bounds %d..%d", c, res.Nodes, res.Stop, res.Lower, res.Upper)
	}
	if res.Value != c.value {
		t.Errorf("%s: value %d, reference %d", c, res.Value, c.value)
	}
	for _, mv := range res.Moves {
		if !mv.Exact || mv.Value != c.moves[mv.Move] {
			t.Errorf("%s: move %d value %d (exact %v), reference %d", c, mv.Move, mv.Value, mv.Exact, c.moves[mv.Move])
		}
	}
	checkBestMoves(t, c, res)
	return res
}

// checkBestMoves checks that the best moves are exactly the moves whose
// reference value is the position's value.
func checkBestMoves(t *testing.T, c testCase, res Result) {
	t.Helper()
	if !res.BestMovesComplete {
		t.Errorf("%s: best moves incomplete", c)
	}
	want := 0
	for _, v := range c.moves {
		if v == c.value {
			want++
		}
	}
	if len(res.BestMoves) != want {
		t.Errorf("%s: best moves %v, reference values %v", c, res.BestMoves, c.moves)
	}
	for _, pit := range res.BestMoves {
		if c.moves[pit] != c.value {
			t.Errorf("%s: best move %d is worth %d, not the value %d", c, pit, c.moves[pit], c.value)
		}
	}
}

// plainCases returns up to want positions of v with at most maxSeeds seeds
// (random boards and random playouts from the start, seeded) whose plain
// minimax finishes within budget nodes, with their reference values.
func plainCases(v *position.Variant, seed uint64, want, maxSeeds, budget int) []testCase {
	rng := rand.New(rand.NewPCG(seed, uint64(v.ID)))
	var cases []testCase
	for try := 0; try < 40*want && len(cases) < want; try++ {
		p, ok := randomBoard(v, rng, 2+rng.IntN(maxSeeds-1))
		if try%2 == 1 {
			p, ok = randomPlayout(v, rng, maxSeeds)
		}
		if !ok {
			continue
		}
		if moves, value, ok := minimaxMoveValues(v, p, budget); ok {
			cases = append(cases, testCase{v: v, p: p, moves: moves, value: value})
		}
	}
	return cases
}

// TestExactMatchesPlainMinimax: on positions of every variant with at most
// 10 seeds whose plain minimax is small enough to run (most are not: the
// tree of lines without repetition explodes), the exact search gives the
// plain minimax value for the position and for every move, and the best
// moves are those worth the value.
func TestExactMatchesPlainMinimax(t *testing.T) {
	want := testsize.Pick(5, 5, 10)                 // positions a variant
	budget := testsize.Pick(20_000, 30_000, 60_000) // plain minimax nodes a position
	for _, v := range position.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			cases := plainCases(v, 1, want, 10, budget)
			if len(cases) < want/2 {
				t.Fatalf("only %d positions within the minimax budget", len(cases))
			}
			for i, c := range cases {
				// Every other position lets estimates cross lines, as the
				// engine does: no proven value may change.
				checkAgainst(t, c, Options{Threads: 1, HashMiB: 1, MaxNodes: 5_000_000, Play: i%2 == 1})
			}
			t.Logf("%d positions, %s", len(cases), seedCounts(cases))
		})
	}
}

// TestValueIterationMatchesPlainMinimax checks the second reference
// against the first wherever both run.
func TestValueIterationMatchesPlainMinimax(t *testing.T) {
	for _, v := range position.Variants() {
		for _, c := range plainCases(v, 2, testsize.Pick(3, 3, 5), 10, 30_000) {
			g, ok := reachable(v, c.p, 200_000)
			if !ok {
				continue
			}
			moves, value := iterationMoveValues(g, c.p)
			if value != c.value {
				t.Errorf("%s: value iteration %d, minimax %d", c, value, c.value)
			}
			for pit, x := range c.moves {
				if moves[pit] != x {
					t.Errorf("%s: move %d: value iteration %d, minimax %d", c, pit, moves[pit], x)
				}
			}
		}
	}
}

// iterationCases returns up to want positions of v with at most maxSeeds
// seeds, from seeded random playouts from the start, whose reachable
// graph has at most limit positions, with value iteration's values.
func iterationCases(v *position.Variant, seed uint64, want, maxSeeds, limit int) []testCase {
	rng := rand.New(rand.NewPCG(seed, uint64(v.ID)))
	var cases []testCase
	for try := 0; try < 30*want && len(cases) < want; try++ {
		p, ok := randomPlayout(v, rng, maxSeeds)
		if !ok {
			continue
		}
		g, ok := reachable(v, p, limit)
		if !ok {
			continue
		}
		moves, value := iterationMoveValues(g, p)
		cases = append(cases, testCase{v: v, p: p, moves: moves, value: value})
	}
	return cases
}

// TestExactMatchesValueIteration: on positions of every variant with at
// most 10 seeds, from random playouts from the start, whose reachable game
// graph is small enough for value iteration, the exact search gives its
// values for the position and every move.
func TestExactMatchesValueIteration(t *testing.T) {
	want, limit := 4, 6_000
	if testsize.Short() {
		want, limit = 3, 3_000
	}
	for _, v := range position.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			cases := iterationCases(v, 3, want, 10, limit)
			if len(cases) < want/2 {
				t.Fatalf("only %d positions within the graph limit", len(cases))
			}
			for _, c := range cases {
				checkAgainst(t, c, Options{Threads: 1, HashMiB: 4, MaxNodes: 20_000_000})
			}
			t.Logf("%d positions, %s", len(cases), seedCounts(cases))
		})
	}
}

// seedCounts lists the cases' seed counts, for the log.
func seedCounts(cases []testCase) string {
	counts := make([]string, len(cases))
	for i, c := range cases {
		counts[i] = fmt.Sprint(c.p.Seeds())
	}
	return "seeds " + strings.Join(counts, ",")
}
