package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

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
again ends the game and the seeds on the board count for nobody). Passes that
the rules force are applied automatically and listed once as moves of their
own; a typed "pass" where one was just forced names that pass, so a principal
variation replays with or without its passes and gives the same output. An
illegal move is an error that names the move, its place in the list, the
reason and the legal moves; nothing is printed then.

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

// playedMove is one move of `play --json`: a pit number or "pass" (the
// rules forced it), with the seeds it captured.
type playedMove struct {
	Player   int `json:"player"`
	Move     any `json:"move"`
	Captured int `json:"captured"`
}

type playResult struct {
	Position   string             `json:"position"`
	Moves      []playedMove       `json:"moves"`
	GameOver   bool               `json:"game_over"`
	FinalScore *[2]int            `json:"final_score,omitempty"`
	End        position.EndReason `json:"end,omitempty"`
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
	g := position.NewGame(setup)
	if opts.noStopAt {
		g = position.NewGameNoStopAt(setup)
	}
	res := playResult{Moves: []playedMove{}}
	if g.StartPassed {
		res.Moves = append(res.Moves, forcedPass(position.Opponent(g.Position.Player())))
	}
	for i, text := range moves {
		played, err := playMove(g, text)
		if err != nil {
			return fmt.Errorf("%w (the %s move in the list)%s", err, position.Ordinal(i+1), legalMovesNote(g))
		}
		if played.Pit == position.PassPit {
			continue // it names the forced pass already listed
		}
		res.Moves = append(res.Moves, playedMove{Player: played.Player, Move: moveJSON(played.Pit), Captured: played.Captured})
		if played.Passed {
			res.Moves = append(res.Moves, forcedPass(position.Opponent(played.Player)))
		}
	}
	res.Position, res.GameOver, res.End = g.Setup.String(), g.Over, g.End
	if g.Over {
		res.FinalScore = &g.Final
	}
	if opts.json {
		return writeJSON(out, res)
	}
	return printPlay(out, res)
}

// playMove parses one move of g's variant and plays it.
func playMove(g *position.Game, text string) (position.Played, error) {
	if g.Over {
		return position.Played{}, fmt.Errorf("move %s: the game is over (%s)", text, endProse(g.End))
	}
	pit, err := g.Variant.ParseMove(text)
	if err != nil {
		return position.Played{}, err
	}
	return g.Play(pit)
}

func forcedPass(player int) playedMove {
	return playedMove{Player: player, Move: moveJSON(position.PassPit)}
}

func printPlay(out io.Writer, res playResult) error {
	fmt.Fprintln(out, res.Position)
	for _, m := range res.Moves {
		if m.Move == "pass" {
			fmt.Fprintln(out, passNote(m.Player))
			continue
		}
		fmt.Fprintf(out, "player %d plays %v: captured %d\n", m.Player, m.Move, m.Captured)
	}
	if res.GameOver {
		fmt.Fprintf(out, "game over (%s): final score %d-%d\n", endProse(res.End), res.FinalScore[0], res.FinalScore[1])
	}
	return nil
}
