package cmd

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

type playOptions struct {
	json     bool
	noStopAt bool
}

func newPlayCmd() *cobra.Command {
	opts := &playOptions{}
	c := &cobra.Command{
		Use:   "play POS MOVE...",
		Short: "Apply moves with every end rule and print the position reached",
		Long: `play applies the moves (pit numbers on the mover's row, space- or
comma-separated, or "pass") to POS with every end rule: the variant's own end,
the 25-seed stop of awari and oware, and repetition (a position that occurs
again ends the game and the seeds on the board count for nobody; in oware-own
each player takes the seeds on their own row). Passes that
the rules force are applied automatically and listed once as moves of their
own; a typed "pass" where one was just forced names that pass, so a principal
variation replays with or without its passes and gives the same output. An
illegal move is an error that names the move, its place in the list, the
reason and the legal moves; nothing is printed then.

POS may also be the engine dialect's fen, and the moves its letters (AfCb:
A..F South's pits, a..f North's) or PlayStrategy's squares (d1e2).
Notation: docs/notation.md.`,
		Example: `  mancala play akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1 2
  mancala play awari 3 3 4 --json
  mancala play awari 3,3,4`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runPlay(c.OutOrStdout(), args[0], args[1:], opts)
		},
	}
	c.SetFlagErrorFunc(negativeMoves(func(args []string) error {
		return runPlay(io.Discard, args[0], args[1:], &playOptions{})
	}))
	addJSONFlag(c, &opts.json)
	c.Flags().BoolVar(&opts.noStopAt, "no-stop", false, "do not apply the 25-seed stop, as values and principal variations do not")
	return c
}

func runPlay(out io.Writer, arg string, moveArgs []string, opts *playOptions) error {
	setup, err := parsePosition(arg)
	if err != nil {
		return err
	}
	moves, err := position.SplitMoves(moveArgs)
	if err != nil {
		return err
	}
	res, err := oracle.Play(setup, moves, opts.noStopAt)
	if err != nil {
		return moveErrorProse(err)
	}
	if opts.json {
		return writeJSON(out, res)
	}
	return printPlay(out, res)
}

// moveErrorProse words a bad move of oracle.Play for people: why, with
// the end in words when the game is over, its place in the list and the
// legal moves.
func moveErrorProse(err error) error {
	var me *oracle.MoveError
	if !errors.As(err, &me) {
		return err
	}
	cause := me.Err
	if me.Game.Over {
		cause = fmt.Errorf("move %s: the game is over (%s)", me.Text, endProse(me.Game.Variant, me.Game.End))
	}
	return fmt.Errorf("%w (the %s move in the list)%s", cause, position.Ordinal(me.N), legalMovesNote(me.Game, me.Text))
}

func printPlay(out io.Writer, res oracle.Played) error {
	fmt.Fprintln(out, res.Position)
	for _, m := range res.Moves {
		if m.Move == oracle.Pass {
			fmt.Fprintln(out, passNote(m.Player))
			continue
		}
		fmt.Fprintf(out, "player %d plays %v: captured %d\n", m.Player, m.Move, m.Captured)
	}
	if res.GameOver {
		fmt.Fprintf(out, "game over (%s): final score %d-%d: %s\n", endProse(variantOf(res.Position), res.End), res.FinalScore[0], res.FinalScore[1], gameWinner(res.Result))
	}
	return nil
}
