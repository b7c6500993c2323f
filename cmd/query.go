package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// exitNotInTablebase is query's exit code when the position is not stored.
const exitNotInTablebase = 3

type queryOptions struct {
	tb   string
	json bool
}

func newQueryCmd() *cobra.Command {
	opts := &queryOptions{}
	c := &cobra.Command{
		Use:   "query POS|- [--tb DIR] [--json]",
		Short: "Look a position up in the tablebase: its value and every move's, best first",
		Long: `query prints the exact value of a position (score difference in seeds from
the side to move of the position as given, to the end of the game), the value
of each legal move, best first, and a principal variation, from a tablebase
made by build, without search. A player who must pass keeps the value; the
best move is "pass". POS "-" reads positions from stdin, one a line.

Exit codes: 0 answered; 1 bad input, no tablebase (or none of this variant)
in DIR, or a damaged one (the message gives the repair command); 3 the
position has more seeds than the tablebase's layers hold (the message gives
the build command that covers it; solve answers without a tablebase).`,
		Example: `  mancala query awari:0,0,0,0,0,1/1,1,0,0,0,0:1
  mancala query oware:2,0,1,0,0,3/0,1,0,2,0,0:2 --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c.Context(), c.InOrStdin(), c.OutOrStdout(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

func runQuery(ctx context.Context, in io.Reader, out io.Writer, arg string, opts *queryOptions) error {
	inputs, err := readPositions(in, arg)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	o, err := oracle.Open(oracle.Config{TBDir: tbDir(opts.tb), MemTBSeeds: -1})
	if err != nil {
		return err
	}
	defer o.Close()
	for i, input := range inputs {
		a, err := o.Query(ctx, input.Setup)
		if err != nil {
			return queryError(err, input.Setup, opts.tb)
		}
		switch {
		case opts.json && arg == StdinArg:
			err = writeJSONLine(out, a)
		case opts.json:
			err = writeJSON(out, a)
		default:
			if i > 0 {
				fmt.Fprintln(out)
			}
			err = printQuery(out, input.Setup, a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// queryError gives a position the tablebase cannot answer its exit code
// and a hint: exit 3 with the build command that covers it when it lies
// beyond the built layers; exit 1 with that command when there is no
// tablebase of the variant; any other error (damage) as it is.
func queryError(err error, setup position.Setup, flag string) error {
	seeds := setup.Position.Seeds()
	var notIn *oracle.NotInTablebaseError
	switch {
	case errors.As(err, &notIn):
		return &ExitError{Code: exitNotInTablebase, Err: fmt.Errorf("%w: %s", err, buildHint(setup.Variant, seeds, flag, setup.String()))}
	case errors.Is(err, oracle.ErrNoTablebase):
		return fmt.Errorf("no tablebase in %s: %s", tbDir(flag), buildHint(setup.Variant, seeds, flag, setup.String()))
	}
	return err
}

// buildHint says how to answer a position the tablebase lacks: the exact
// build command that covers it, or solve, which needs no tablebase.
func buildHint(v *position.Variant, seeds int, flag, pos string) string {
	tb := ""
	if flag != "" {
		tb = " --tb " + flag
	}
	if tablebase.NewIndex(v.Pits).Size(seeds) >= tablebase.MaxLayerPositions {
		return fmt.Sprintf("more seeds than a tablebase can hold; search instead with `mancala solve %s`", pos)
	}
	return fmt.Sprintf("build it with `mancala build %s --max-seeds %d%s`, or search instead with `mancala solve %s`", v.Name, seeds, tb, pos)
}

func printQuery(out io.Writer, setup position.Setup, a oracle.Answer) error {
	fmt.Fprintln(out, a.Position)
	if a.MustPass {
		fmt.Fprintf(out, "player %d has no legal move and must pass\n", a.Player)
	}
	fmt.Fprint(out, position.Diagram(setup.Variant, setup.Position))
	if a.GameOver {
		fmt.Fprintf(out, "game over: the seeds left give player %d a value of %+d\n", a.Player, a.Value)
		return nil
	}
	fmt.Fprintf(out, "value %+d for player %d, exact (%s; tablebase up to %d)\n",
		a.Value, a.Player, plural(setup.Position.Seeds(), "seed"), a.TablebaseSeeds)
	if line := distanceLine(a); line != "" {
		fmt.Fprintln(out, line)
	}
	fmt.Fprintf(out, "best:")
	for _, m := range a.BestMoves {
		fmt.Fprintf(out, " %v", m)
	}
	fmt.Fprintln(out)
	moves := append([]oracle.MoveValue(nil), a.Moves...)
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Value > moves[j].Value })
	for _, m := range moves {
		fmt.Fprintf(out, "  move %-4v %+3d", m.Move, m.Value)
		if m.Captured > 0 {
			fmt.Fprintf(out, "  (captures %d)", m.Captured)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "pv: %s%s\n", moveList(a.PV), pvNote(a))
	return nil
}

// distanceLine is the tablebase's distance of a (Answer.Distance), in
// words, or "" when it has none.
func distanceLine(a oracle.Answer) string {
	switch {
	case a.Distance == nil:
		return ""
	case a.Value == 0:
		return "distance: none (a value of 0 has no capture or end to reach)"
	}
	return fmt.Sprintf("distance: %s to the capture or game end that realises the value", plural(*a.Distance, "ply"))
}
