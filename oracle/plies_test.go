package oracle

import (
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// twoPlies is oware's start with move 4 played (it captures nothing and
// passes the move), then one more ply: the answers are given by each test.
func twoPlies(t *testing.T) []position.Ply {
	t.Helper()
	s := mustSetup(t, "oware")
	m, err := s.Variant.MakeMove(s.Position, 4)
	if err != nil {
		t.Fatal(err)
	}
	next := s
	next.Position = m.Next
	m2, _ := s.Variant.MakeMove(m.Next, 1)
	return []position.Ply{{Before: s, Move: m}, {Before: next, Move: m2}}
}

// An exact ply whose search proved the value but not every move: the
// played move, proven worth the value by the next ply, is listed among the
// best, and the list says it may lack others.
func TestExactPlyListsThePlayedMoveWhenItIsBest(t *testing.T) {
	plies := twoPlies(t)
	answers := []Answer{
		{Player: 1, Exact: true, Value: 0, BestMoves: []Move{2}, BestMovesComplete: false,
			Moves: []MoveValue{{Move: 2, Value: 0, Exact: true}, {Move: 4, Value: -1, Lower: -3, Upper: 0}}},
		{Player: 2, Exact: true, Value: 0}, // so move 4 is worth 0 - 0 = 0
	}
	got := plyAnalysis(0, plies, answers, true)
	if got.Value != 0 || got.MoveValue != 0 || !got.Exact || got.Class != ClassBest {
		t.Errorf("%+v: want value 0, move value 0, exact, best", got)
	}
	if !slices.Equal(got.BestMoves, []Move{2, 4}) || got.BestMovesComplete {
		t.Errorf("best %v complete %v: want [2 4], not complete", got.BestMoves, got.BestMovesComplete)
	}
	answers[0].BestMovesComplete, answers[0].BestMoves = true, []Move{2, 4}
	if got := plyAnalysis(0, plies, answers, true); !got.BestMovesComplete || !slices.Equal(got.BestMoves, []Move{2, 4}) {
		t.Errorf("a complete list: %v complete %v", got.BestMoves, got.BestMovesComplete)
	}
}

// An estimated ply never shows the played move better than the position:
// a position is worth at least each of its moves, so the estimate is
// raised to the played move's value (here proven by the next ply), which
// is then the best move.
func TestEstimatedPlyIsWorthAtLeastThePlayedMove(t *testing.T) {
	plies := twoPlies(t)
	answers := []Answer{
		{Player: 1, Exact: false, Value: -1, BestMoves: []Move{2},
			Moves: []MoveValue{{Move: 2, Value: -1}, {Move: 4, Value: -3}}},
		{Player: 2, Exact: true, Value: -2}, // move 4 is worth 0 - (-2) = +2
	}
	got := plyAnalysis(0, plies, answers, true)
	if got.MoveValue != 2 || got.Value != 2 || got.Loss != 0 || got.Exact || !slices.Equal(got.BestMoves, []Move{4}) {
		t.Errorf("%+v: want value ~+2, move value +2, loss 0, best [4]", got)
	}
}

// An exact ply whose played move only has an estimate above the proven
// value shows the move at the value, never above it.
func TestExactValueBoundsTheMoveEstimate(t *testing.T) {
	plies := twoPlies(t)
	answers := []Answer{{Player: 1, Exact: true, Value: 0, BestMoves: []Move{2},
		Moves: []MoveValue{{Move: 2, Value: 0, Exact: true}, {Move: 4, Value: 3, Lower: -5, Upper: 4}}}}
	got := plyAnalysis(0, plies[:1], answers, true)
	if got.Value != 0 || got.MoveValue != 0 || got.Exact || got.Loss != 0 {
		t.Errorf("%+v: want value 0, move value ~0", got)
	}
}

// The summary counts the proven plies and the estimates.
func TestSummaryCountsProvenAndEstimatedPlies(t *testing.T) {
	an := Analysis{Plies: []PlyAnalysis{
		{Player: 1, Move: 3, Exact: true, Class: ClassBest},
		{Player: 2, Move: 1, Exact: false, Class: ClassBest},
		{Player: 1, Move: Pass, Exact: true, Class: ClassBest},
		{Player: 2, Move: 4, Exact: false, Loss: 7, Class: ClassBlunder},
	}}
	summarise(&an)
	if an.ExactPlies != 2 || an.EstimatedPlies != 2 {
		t.Errorf("exact %d, estimated %d: want 2 and 2", an.ExactPlies, an.EstimatedPlies)
	}
}
