package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize/english"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
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
of each legal move, best first, a principal variation and the result (the
final score with best play and who wins), from a tablebase
made by build, without search. A player who must pass keeps the value; the
best move is "pass". POS "-" reads positions from stdin, one a line, and
answers every line it can: a position beyond the built layers gets a line
on stderr naming its stdin line, and the others are still answered.

Exit codes: 0 answered; 1 bad input, no tablebase (or none of this variant)
in DIR, or a damaged one (the message gives the repair command); 3 the
position (with "-": one or more of them) has more seeds than the
tablebase's layers hold (the message gives the build command that covers
it; solve answers without a tablebase).`,
		Example: `  mancala query awari:0,0,0,0,0,1/1,1,0,0,0,0:1
  mancala query oware:2,0,1,0,0,3/0,1,0,2,0,0:2 --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c.Context(), c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

// runQuery answers arg, or with "-" every line of in: a line beyond the
// built layers is reported on errOut and the next lines still answered
// (as solve does), the exit code 3 coming at the end.
func runQuery(ctx context.Context, in io.Reader, out, errOut io.Writer, arg string, opts *queryOptions) error {
	inputs, err := readPositions(in, arg)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := checkTBDir(opts.tb, false); err != nil {
		return err
	}
	o, err := oracle.Open(oracle.Config{TBDir: tbDir(opts.tb)})
	if err != nil {
		return err
	}
	defer o.Close()
	var missed []int // the stdin lines beyond the built layers
	answered := 0
	for _, input := range inputs {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d of %s", answered+len(missed), plural(len(inputs), "position"))
		}
		a, err := o.Query(ctx, input.Setup)
		if err != nil {
			err = queryError(err, input.Setup, opts.tb)
			var exit *ExitError
			if arg != StdinArg || !errors.As(err, &exit) {
				return err
			}
			fmt.Fprintf(errOut, "mancala: stdin line %d: %v\n", input.Line, err)
			missed = append(missed, input.Line)
			continue
		}
		switch {
		case opts.json && arg == StdinArg:
			err = writeJSONLine(out, a)
		case opts.json:
			err = writeJSON(out, a)
		default:
			if answered > 0 {
				fmt.Fprintln(out)
			}
			err = printQuery(out, input.Setup, a)
		}
		if err != nil {
			return err
		}
		answered++
	}
	if len(missed) > 0 {
		return &ExitError{Code: exitNotInTablebase, Err: fmt.Errorf("%d of %s not in the tablebase (stdin %s %s); the others answered",
			len(missed), plural(len(inputs), "position"), english.PluralWord(len(missed), "line", ""), intList(missed))}
	}
	return nil
}

// intList is ns as "2, 5, 9".
func intList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// queryError gives a position the tablebase cannot answer its hint
// (tablebaseHint) and its exit code: 3 when it lies beyond the built
// layers, else 1.
func queryError(err error, setup position.Setup, flag string) error {
	err = tablebaseHint(err, setup.Variant, setup.Position.Seeds(), flag, setup.String())
	var notIn *oracle.NotInTablebaseError
	if errors.As(err, &notIn) {
		return &ExitError{Code: exitNotInTablebase, Err: err}
	}
	return err
}

func printQuery(out io.Writer, setup position.Setup, a oracle.Answer) error {
	fmt.Fprintln(out, a.Position)
	if a.MustPass {
		fmt.Fprintf(out, "player %d has no legal move and must pass\n", a.Player)
	}
	fmt.Fprint(out, position.Diagram(setup.Variant, setup.Position))
	if a.GameOver {
		fmt.Fprintf(out, "game over: the seeds left give player %d a value of %+d\n", a.Player, a.Value)
		printResult(out, variantOf(a.Position), a.Result, a.KnownResult)
		return nil
	}
	fmt.Fprintf(out, "value: %+d for player %d (exact; %s, tablebase up to %d)\n",
		a.Value, a.Player, plural(setup.Position.Seeds(), "seed"), a.TablebaseSeeds)
	printResult(out, variantOf(a.Position), a.Result, a.KnownResult)
	fmt.Fprintf(out, "best moves: %s\n", moveList(a.BestMoves))
	if line := distanceLine(a); line != "" {
		fmt.Fprintln(out, line)
	}
	moves := append([]oracle.MoveValue(nil), a.Moves...)
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Value > moves[j].Value })
	printMoveValues(out, moves) // solve's words and form
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
