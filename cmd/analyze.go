package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

type analyzeOptions struct {
	oracleFlags
	json bool
}

func newAnalyzeCmd() *cobra.Command {
	opts := &analyzeOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "analyze POS MOVE... | FILE | -",
		Short: "Value every ply of a game: where each player lost seeds, and what was best",
		Long: fmt.Sprintf(`analyze takes a game, a start position followed by its moves exactly as play
takes them, or a FILE (or - for stdin) of games, one a line ("#" starts a
comment), and values every ply: the position before it, the move played, the
position's value and the played move's value (from the mover, in seeds, with
the game's history: a repetition ends the game), the loss (their difference,
never negative), whether both values are exact, the best moves (",?" after
them when the search proved the value but not every move), and a class:

  best        loss 0
  inaccuracy  loss %d to %d seeds
  mistake     loss %d to %d seeds
  blunder     loss %d seeds or more

For each player it gives the total loss, the count of each class and an
accuracy: the mean over the player's moves (forced passes left out) of
100 / (1 + loss/2), so a best move counts 100, a loss of 2 seeds 50 and of 6
seeds 25.

Text output is a table of the plies (each with the final score that best play
from its position gives), a value graph (player 1's projected
final margin by ply: captures so far plus the value) and the summaries: how
many plies are proven and how many estimates (those vary from run to run
with the time each ply gets), then each player's; --json prints docs/notation.md's analysis object, one a line
(JSON Lines) when the games come from a file or stdin. Each ply is answered
within --time (exactly when the tablebase holds it or the search proves it).
A progress bar goes to stderr on a terminal; Ctrl-C prints the plies done so
far. An illegal move is an error naming the line, the ply and the move.
A game may also be in the engine dialect, PlayStrategy's moves or an Aualé
file (mancala convert; docs/notation.md).`,
			oracle.InaccuracyLoss, oracle.MistakeLoss-1, oracle.MistakeLoss, oracle.BlunderLoss-1, oracle.BlunderLoss),
		Example: `  mancala analyze oware 4 2 6 5 3 4 3 5 6 3
  mancala analyze testdata/games/oware-games.txt --time 2s --json
  grep -v '^#' testdata/games/oware-games.txt | sed -n 3p | mancala analyze - --time 500ms`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runAnalyze(c.Context(), c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr(), args, opts)
		},
	})
	c.SetFlagErrorFunc(negativeMoves(func(args []string) error {
		_, _, err := readGames(nil, args)
		return err
	}))
	f := c.Flags()
	opts.add(f, time.Second, "time for each ply (0: no limit)", "stop each ply's search after about this many nodes (0: no limit)")
	addJSONFlag(c, &opts.json)
	return c
}

func runAnalyze(ctx context.Context, in io.Reader, out, errOut io.Writer, args []string, opts *analyzeOptions) error {
	if err := opts.check(); err != nil {
		return err
	}
	games, fromFile, err := readGames(in, args)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	o, err := oracle.Open(opts.config())
	if err != nil {
		return err
	}
	defer o.Close()
	var variants []*position.Variant
	for _, g := range games {
		variants = append(variants, g.Start.Variant)
	}
	if err := prepare(ctx, errOut, o, variants, opts.oracleFlags, func(v *position.Variant, err error) error {
		return tablebaseHint(err, v, -1, opts.tb, "")
	}); err != nil {
		return err
	}
	bar := newPlyBar(errOut, games)
	for i, g := range games {
		an, err := o.Analyze(ctx, g, oracle.AnalyzeOptions{Time: opts.time, Nodes: opts.nodes, Progress: bar.step})
		bar.clear()
		if err != nil && ctx.Err() == nil {
			return gameError(g, tablebaseHint(err, g.Start.Variant, -1, opts.tb, ""))
		}
		if perr := printAnalysis(out, an, opts.json, fromFile, i); perr != nil {
			return perr
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %s of game %d analysed", plural(len(an.Plies), "ply"), i+1)
		}
	}
	return nil
}

// gameError names the game's line, when it came from a file.
func gameError(g oracle.Game, err error) error {
	if g.Line > 0 {
		return fmt.Errorf("line %d: %w", g.Line, err)
	}
	return err
}

// readGames reads the games: POS MOVE... from the arguments, else FILE or
// "-" (stdin), one a line. It reports whether they came from a file.
func readGames(in io.Reader, args []string) ([]oracle.Game, bool, error) {
	if len(args) == 1 && args[0] == "-" {
		games, err := oracle.ParseGames(in)
		if err != nil {
			err = stdinError(err)
		}
		return games, true, emptyGames(games, err, "stdin")
	}
	if _, perr := position.Parse(args[0]); perr != nil && len(args) == 1 {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, false, fmt.Errorf("%s is neither a position (%v) nor a readable file", args[0], perr)
		}
		defer f.Close()
		games, err := oracle.ParseGames(f)
		if err != nil {
			err = fmt.Errorf("%s: %w", args[0], err)
		}
		return games, true, emptyGames(games, err, args[0])
	}
	g, err := oracle.ParseGame(strings.Join(args, " "))
	if err != nil {
		return nil, false, err
	}
	return []oracle.Game{g}, false, nil
}

func emptyGames(games []oracle.Game, err error, where string) error {
	if err == nil && len(games) == 0 {
		return fmt.Errorf("%s: no games (one a line: a position, then its moves)", where)
	}
	return err
}

func printAnalysis(out io.Writer, an oracle.Analysis, asJSON, lines bool, index int) error {
	switch {
	case asJSON && lines:
		return json.NewEncoder(out).Encode(an)
	case asJSON:
		return writeJSON(out, an)
	}
	if index > 0 {
		fmt.Fprintln(out)
	}
	title := fmt.Sprintf("game %d", index+1)
	if an.Line > 0 {
		title += fmt.Sprintf(" (line %d)", an.Line)
	}
	fmt.Fprintf(out, "%s: %s\n", title, an.Position)
	if an.KnownResult != nil {
		fmt.Fprintln(out, knownLine(an.KnownResult))
	}
	printPlyTable(out, an.Plies)
	fmt.Fprintln(out)
	fmt.Fprint(out, valueGraph(an.Plies, 100, 6))
	fmt.Fprintln(out)
	fmt.Fprintf(out, "%s: %d proven, %s (~)\n", plural(len(an.Plies), "ply"), an.ExactPlies, plural(an.EstimatedPlies, "estimate"))
	for _, p := range an.Players {
		fmt.Fprintf(out, "player %d: loss %s, accuracy %.1f%%, %d best, %s, %s, %s\n",
			p.Player, plural(p.Loss, "seed"), p.Accuracy, p.Best, plural(p.Inaccuracy, "inaccuracy"),
			plural(p.Mistake, "mistake"), plural(p.Blunder, "blunder"))
	}
	switch {
	case !an.Complete:
		fmt.Fprintf(out, "analysis cut short after %s\n", plural(len(an.Plies), "ply"))
	case an.GameOver:
		fmt.Fprintf(out, "game over (%s): final score %d-%d: %s\n", endProse(variantOf(an.Position), an.End), an.FinalScore[0], an.FinalScore[1], gameWinner(an.Result))
	default:
		fmt.Fprintln(out, "the record ends before the game does")
	}
	return nil
}

// printPlyTable prints one row a ply; "~" marks values that are
// estimates, ",?" a proven ply's best moves when the search did not prove
// every move (best_moves_complete false).
func printPlyTable(out io.Writer, plies []oracle.PlyAnalysis) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "ply\tplayer\tmove\tvalue\tresult\tplayed\tloss\tclass\tbest\t")
	for _, p := range plies {
		mark := ""
		if !p.Exact {
			mark = "~"
		}
		best := moveList(p.BestMoves)
		if p.Exact && !p.BestMovesComplete {
			best += ",?"
		}
		fmt.Fprintf(tw, "%d\t%d\t%v\t%s%+d\t%s%s\t%s%+d\t%d\t%s\t%s\t\n", p.Ply, p.Player, p.Move, mark, p.Value,
			mark, scoreCell(p.Result), mark, p.MoveValue, p.Loss, p.Class, best)
	}
	tw.Flush()
	fmt.Fprintln(out, "(values from the mover, in seeds; result: the final score, player 1's first, that best play from the ply's position gives; ~ an estimate; ,? best moves proven so far, others may be as good)")
}

// valueGraph draws, by ply, player 1's projected final margin: the seeds
// player 1 has captured in the game beyond player 2, plus player 1's value
// of the position (what best play from there adds). A loss shows as a
// drop for the player who made it. At most width columns (several plies a
// column when there are more), height rows above and below the zero line.
func valueGraph(plies []oracle.PlyAnalysis, width, height int) string {
	if len(plies) == 0 {
		return ""
	}
	margins := make([]int, len(plies))
	captured := 0 // player 1's captures beyond player 2's, before the ply
	for i, p := range plies {
		v := p.Value
		if p.Player == 2 {
			v = -v
		}
		margins[i] = captured + v
		if p.Player == 1 {
			captured += p.Captured
		} else {
			captured -= p.Captured
		}
	}
	per := (len(plies) + width - 1) / width
	var vals []int
	top := 1
	for i := per - 1; i < len(plies)+per-1; i += per {
		v := margins[min(i, len(plies)-1)]
		vals = append(vals, v)
		top = max(top, v, -v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "player 1's projected margin (captures so far + value) by ply, %s a column\n", plural(per, "ply"))
	for level := height; level >= -height; level-- {
		label := "    "
		switch level {
		case height:
			label = fmt.Sprintf("%+4d", top)
		case 0:
			label = "   0"
		case -height:
			label = fmt.Sprintf("%+4d", -top)
		}
		b.WriteString(label + " |")
		for _, v := range vals {
			b.WriteByte(graphCell(v, top, height, level))
		}
		b.WriteByte('\n')
	}
	last := fmt.Sprintf("ply %d", len(plies))
	fmt.Fprintf(&b, "      ply 1%s%s\n", strings.Repeat(" ", max(len(vals)-5-len(last), 1)), last)
	return b.String()
}

// graphCell is one cell of the value graph: a bar from the zero line to
// the value scaled to height rows.
func graphCell(v, top, height, level int) byte {
	scaled := (v*height*2 + top*sign(v)) / (2 * top) // rounded to nearest
	switch {
	case level > 0 && scaled >= level, level < 0 && scaled <= level:
		return '#'
	case level == 0:
		return '-'
	}
	return ' '
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// plyBar is a progress bar over every ply of every game, on a terminal.
type plyBar struct {
	bar  *progressbar.ProgressBar
	base int // plies of the games before the current one
	last int // the current game's plies done
}

func newPlyBar(w io.Writer, games []oracle.Game) *plyBar {
	b := &plyBar{}
	if !isTerminal(w) {
		return b
	}
	total := 0
	for _, g := range games {
		total += len(g.Moves)
	}
	b.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("analysing"), progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(), progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish())
	return b
}

// step is an oracle progress callback.
func (b *plyBar) step(done, total int) {
	b.last = done
	if b.bar != nil {
		_ = b.bar.Set(b.base + done)
	}
}

// clear ends the current game's part of the bar.
func (b *plyBar) clear() {
	b.base += b.last
	b.last = 0
	if b.bar != nil {
		_ = b.bar.Clear()
	}
}
