package cmd

import (
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/oracle"
)

// The text says how many plies are proven and how many are estimates, and
// marks a proven ply whose best moves may be incomplete; counts take the
// singular where they are 1.
func TestAnalysisTextCountsAndMarks(t *testing.T) {
	an := oracle.Analysis{Position: "oware:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0", Complete: true,
		Plies: []oracle.PlyAnalysis{
			{Ply: 1, Player: 1, Move: 4, Value: 0, MoveValue: 0, Exact: true, BestMoves: []oracle.Move{2, 4}, Class: "best"},
			{Ply: 2, Player: 2, Move: 1, Value: 1, MoveValue: -1, Loss: 2, BestMoves: []oracle.Move{3}, Class: "inaccuracy"},
			{Ply: 3, Player: 1, Move: 5, Value: 2, MoveValue: 2, Exact: true, BestMoves: []oracle.Move{5}, BestMovesComplete: true, Class: "best"},
		},
		Players: [2]oracle.PlayerSummary{{Player: 1, Accuracy: 100, Best: 2},
			{Player: 2, Loss: 1, Accuracy: 50, Inaccuracy: 1}},
		ExactPlies: 2, EstimatedPlies: 1}
	var out strings.Builder
	if err := printAnalysis(&out, an, false, false, 0); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"3 plies: 2 proven, 1 estimate (~)\n",
		"player 2: loss 1 seed, accuracy 50.0%, 0 best, 1 inaccuracy, 0 mistakes, 0 blunders\n",
		"by ply, 1 ply a column\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	rows := strings.Split(text, "\n")[2:5]
	for i, mark := range []string{"2,4,?", "3", "5"} {
		if f := strings.Fields(rows[i]); f[len(f)-1] != mark {
			t.Errorf("ply %d's best moves: %q, want %q", i+1, f[len(f)-1], mark)
		}
	}
}
