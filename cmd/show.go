package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
)

type showOptions struct {
	json bool
}

func newShowCmd() *cobra.Command {
	opts := &showOptions{}
	c := &cobra.Command{
		Use:   "show POS|-",
		Short: "Draw a position, its legal moves and whether the game is over",
		Long: `show draws a position with its legal moves ("(x9)" marks a move that
captures 9) or says how the game ended. A player who must pass passes at once,
and show says so.

POS "-" reads positions from stdin, one a line (blank lines and # comments
skipped); all are checked before any is drawn. Each is drawn in turn, with a
blank line between them, or with --json printed as one JSON object a line.

POS may also be the engine dialect's fen (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S, an
oware-own position; VARIANT:FEN for another variant). Notation:
docs/notation.md; mancala convert writes a position in either form.`,
		Example: `  mancala show awari
  mancala show akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1 --json
  mancala show - < bench/testdata/solve-suite.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runShow(c.InOrStdin(), c.OutOrStdout(), args[0], opts)
		},
	}
	addJSONFlag(c, &opts.json)
	return c
}

// showMove is one legal move in `show --json`.
type showMove struct {
	Move     any `json:"move"`
	Captured int `json:"captured"`
}

type showResult struct {
	Position   string     `json:"position"`
	Passed     bool       `json:"passed,omitempty"`
	GameOver   bool       `json:"game_over"`
	End        string     `json:"end,omitempty"`
	FinalScore *[2]int    `json:"final_score,omitempty"`
	Moves      []showMove `json:"moves"`
	Seeds      int        `json:"seeds"`
}

func runShow(in io.Reader, out io.Writer, arg string, opts *showOptions) error {
	inputs, err := readPositions(in, arg)
	if err != nil {
		return err
	}
	for i, input := range inputs {
		if i > 0 && !opts.json {
			fmt.Fprintln(out)
		}
		if err := showOne(out, input.Setup, opts.json && arg == StdinArg, opts); err != nil {
			return err
		}
	}
	return nil
}

// showOne prints one position; oneLine gives JSON on one line.
func showOne(out io.Writer, setup position.Setup, oneLine bool, opts *showOptions) error {
	g := position.NewGame(setup)
	res := showResult{Position: g.Setup.String(), Passed: g.StartPassed(), GameOver: g.Over,
		End: string(g.End), Moves: []showMove{}, Seeds: g.Position.Seeds()}
	if g.Over {
		res.FinalScore = &g.Final
	} else {
		var buf [position.MaxPits]position.Move
		n := g.Variant.Moves(g.Position, &buf)
		for _, m := range buf[:n] {
			res.Moves = append(res.Moves, showMove{Move: moveJSON(int(m.Pit)), Captured: int(m.Captured)})
		}
	}
	switch {
	case oneLine:
		return writeJSONLine(out, res)
	case opts.json:
		return writeJSON(out, res)
	}
	return printShow(out, g, res)
}

func printShow(out io.Writer, g *position.Game, res showResult) error {
	fmt.Fprintln(out, res.Position)
	if res.Passed {
		fmt.Fprintln(out, passNote(position.Opponent(g.Position.Player())))
	}
	fmt.Fprint(out, position.DiagramStores(g.Variant, g.Position, g.Captured))
	if g.Over {
		fmt.Fprintf(out, "game over (%s): final score %d-%d\n", endProse(g.Variant, g.End), g.Final[0], g.Final[1])
		return nil
	}
	fmt.Fprintf(out, "player %d to move, %s on the board; legal moves:", g.Position.Player(), plural(res.Seeds, "seed"))
	for _, m := range res.Moves {
		fmt.Fprintf(out, " %v", m.Move)
		if m.Captured > 0 {
			fmt.Fprintf(out, "(x%d)", m.Captured)
		}
	}
	fmt.Fprintln(out)
	return nil
}

// moveJSON is a move as notation.md writes it in JSON: the pit number, or
// the string "pass".
func moveJSON(pit int) any {
	if pit == position.PassPit {
		return "pass"
	}
	return pit
}
