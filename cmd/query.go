package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"mancala/oracle"
	"mancala/position"
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
		Use:   "query POS [--tb DIR] [--json]",
		Short: "Look a position up in the tablebase: its value and every move's, best first",
		Long: `query prints the exact value of a position (score difference in seeds from
the side to move of the position as given, to the end of the game), the value
of each legal move, best first, and a principal variation, from a tablebase
made by build, without search. A player who must pass keeps the value; the
best move is "pass". A position with more seeds than the tablebase holds, or
no tablebase at all, exits with code 3.`,
		Example: `  mancala query awari:0,0,0,0,0,1/1,1,0,0,0,0:1
  mancala query oware:2,0,1,0,0,3/0,1,0,2,0,0:2 --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c.Context(), c.OutOrStdout(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

func runQuery(ctx context.Context, out io.Writer, arg string, opts *queryOptions) error {
	setup, err := parsePosition(arg)
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
	a, err := o.Query(ctx, setup)
	var notIn *oracle.NotInTablebaseError
	if errors.As(err, &notIn) || errors.Is(err, oracle.ErrNoTablebase) {
		return &ExitError{Code: exitNotInTablebase, Err: err}
	}
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(out, a)
	}
	return printQuery(out, setup, a)
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
	fmt.Fprintf(out, "value %+d for player %d, exact (%d seeds; tablebase up to %d)\n",
		a.Value, a.Player, setup.Position.Seeds(), a.TablebaseSeeds)
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
