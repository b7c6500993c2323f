package cmd

import (
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// legalMoves lists the moves of p as notation.md writes them: pit numbers,
// or "pass" where the rules force one.
func legalMoves(v *position.Variant, p position.Position) []string {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	moves := make([]string, n)
	for i, m := range buf[:n] {
		moves[i] = position.MoveString(int(m.Pit))
	}
	return moves
}

// legalMovesNote is the tail of a move error: "; legal moves: 1 2 4", or
// nothing once the game is over.
func legalMovesNote(g *position.Game) string {
	if g.Over {
		return ""
	}
	return "; legal moves: " + strings.Join(legalMoves(g.Variant, g.Position), " ")
}
