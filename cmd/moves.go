package cmd

import (
	"regexp"
	"strings"

	"github.com/spf13/cobra"

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
// nothing once the game is over. After a bad move written as a dialect
// letter or a PlayStrategy square (like), the moves are written that way
// too: "; legal moves: a b d".
func legalMovesNote(g *position.Game, like string) string {
	if g.Over {
		return ""
	}
	moves := legalMoves(g.Variant, g.Position)
	if position.NamesSide(like) && position.CheckDialect(g.Variant) == nil {
		var buf [position.MaxPits]position.Move
		n := g.Variant.Moves(g.Position, &buf)
		for i, m := range buf[:n] {
			if len(like) == 1 {
				moves[i] = position.MoveLetter(g.Position, int(m.Pit))
			} else if sq := g.Variant.SquareMove(g.Position, int(m.Pit)); sq != "" {
				moves[i] = sq
			}
		}
	}
	return "; legal moves: " + strings.Join(moves, " ")
}

// negativeFlag matches the flag parser's error for an argument such as
// "-1", which it takes for a shorthand flag.
var negativeFlag = regexp.MustCompile(`^unknown shorthand flag: '[0-9]' in (-[0-9]+)$`)

// negativeMoves returns the FlagErrorFunc of a command whose arguments
// are a position and its moves (play, analyze): a negative number is a
// move that does not exist, so the error is the one check gives for the
// arguments read before it and that move (its place in the list, the
// pit range), not an unknown flag. check parses and plays the arguments
// and returns what is wrong with them.
func negativeMoves(check func(args []string) error) func(*cobra.Command, error) error {
	return func(c *cobra.Command, err error) error {
		m := negativeFlag.FindStringSubmatch(err.Error())
		args := c.Flags().Args() // the arguments before the one that failed
		if m == nil || len(args) == 0 {
			return err
		}
		if merr := check(append(args, m[1])); merr != nil {
			return merr
		}
		return err
	}
}
