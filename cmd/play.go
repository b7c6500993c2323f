package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"mancala/position"
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
the rules force are applied automatically. An illegal move is an error that
names the move and the reason; nothing is printed then.`,
		Example: `  mancala play akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1 2
  mancala play awari 3 3 4 --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runPlay(c.OutOrStdout(), args[0], args[1:], opts)
		},
	}
	addJSONFlag(c, &opts.json)
	c.Flags().BoolVar(&opts.noStopAt, "no-stop", false, "do not apply the 25-seed stop, as values and principal variations do not")
	return c
}

type playedMove struct {
	Player   int  `json:"player"`
	Move     any  `json:"move"`
	Captured int  `json:"captured"`
	Passed   bool `json:"passed,omitempty"`
}

type playResult struct {
	Position    string `json:"position"`
	StartPassed bool   `json:"passed,omitempty"`
	startPasser int
	Moves       []playedMove       `json:"moves"`
	GameOver    bool               `json:"game_over"`
	FinalScore  *[2]int            `json:"final_score,omitempty"`
	End         position.EndReason `json:"end,omitempty"`
}

func runPlay(out io.Writer, arg string, moveArgs []string, opts *playOptions) error {
	setup, err := parsePosition(arg)
	if err != nil {
		return err
	}
	moves, err := position.ParseMoves(moveArgs)
	if err != nil {
		return err
	}
	g := position.NewGame(setup)
	if opts.noStopAt {
		g = position.NewGameNoStopAt(setup)
	}
	res := playResult{StartPassed: g.StartPassed, startPasser: position.Opponent(g.Position.Player()), Moves: []playedMove{}}
	for _, pit := range moves {
		p, err := g.Play(pit)
		if err != nil {
			return err
		}
		res.Moves = append(res.Moves, playedMove{Player: p.Player, Move: moveJSON(pit), Captured: p.Captured, Passed: p.Passed})
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

func printPlay(out io.Writer, res playResult) error {
	fmt.Fprintln(out, res.Position)
	if res.StartPassed {
		fmt.Fprintln(out, passNote(res.startPasser))
	}
	for _, m := range res.Moves {
		if m.Move == "pass" {
			fmt.Fprintf(out, "player %d passes\n", m.Player)
			continue
		}
		fmt.Fprintf(out, "player %d plays %v: captured %d", m.Player, m.Move, m.Captured)
		if m.Passed {
			fmt.Fprintf(out, "; player %d has no legal move and passes", position.Opponent(m.Player))
		}
		fmt.Fprintln(out)
	}
	if res.GameOver {
		fmt.Fprintf(out, "game over (%s): final score %d-%d\n", endProse(res.End), res.FinalScore[0], res.FinalScore[1])
	}
	return nil
}
