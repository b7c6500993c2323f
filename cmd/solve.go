package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

type solveOptions struct {
	oracleFlags
	depth    int
	all      bool
	lines    bool
	oneBest  bool
	json     bool
	progress bool
	// reach: --time was not given, so a start whose proof is within
	// reach is proven without a limit (oracle.SolveOptions.Reach).
	reach bool
}

func newSolveCmd() *cobra.Command {
	opts := &solveOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "solve POS|- [--time D] [--depth N] [--threads N] [--hash MiB] [--tb DIR] [--all] [--lines] [--one-best] [--json]",
		Short: "Find a position's value and best moves, exactly when the time allows",
		Long: `solve answers a position: its value (docs/rules.md section 6: the score difference
in seeds from the side to move of the position as given, for the rest of the
game; repetition scores 0), whether it is exact, the best moves, the principal
variation, the result (the final score with best play and who wins; a start
position's known result too), and with --all every legal move's value. --lines (which implies
--all) values every line too: each move, and each move after which the same
player moves again (kalah's extra move) followed by each of its continuations,
written "3-6" as Rawlings does (the "lines" field of --json, docs/notation.md);
--time covers the lines too, so a line the time did not reach is an estimate.
--one-best stops a search once the value is proven with one move proven to
reach it, as Irving's kalah solver does, without deciding whether the other
moves reach it too (so "best moves" may list fewer than all). A position the tablebase
holds is answered from it at once; any other is searched until its value is
proven or --time, --depth, --nodes or Ctrl-C stops it, and then the value is
an estimate, printed with its proven bounds.

A player who must pass keeps the value: it is theirs, the best move is "pass",
and the principal variation starts with it. A finished game's value is the
end-of-game share difference. Values ignore awari's and oware's 25-seed stop
(docs/rules.md section 6); the output says so, and says when the position's
captures already reach it.

POS "-" reads positions from stdin, one a line (blank lines and # comments,
whole-line or trailing, skipped), and answers each (one JSON line each with
--json); --time applies to each. All lines are checked before any is solved.

A tablebase is used from --tb DIR, or else from the default directory when one
is there; for endgames beyond it a small one is built in memory, once, and its
build counts in --time. When a search stops short of a proof and no tablebase on
disk serves the variant, a note on stderr says how to get a proof where the
tablebase that brings one is known (kalah, kalah-6x5, kalah-std): the build command,
the solve that then proves the start (with --time 0: the proof takes longer
than the default limit), and where the build's and the proof's measured cost
is (docs/performance.md). When that tablebase is on disk and the search of
the start stopped on its time limit, the note gives that solve.

The start of kalah (Kalah(6,4), +10 with move 3) is proven by default: without
--time, a start position whose proof is within reach is searched until proven,
not for 10 s, with a tablebase of 18 seeds built in memory for it (--mem-tb -1;
about 260 MB) when none on disk holds as many: about 15 s of CPU in all, build
and search, on one thread (docs/performance.md "Proofs"). So is the start of
kalah-std (+8 with move 3), with 20 seeds (about 680 MB, 28 s of CPU).
--time, --mem-tb N or --no-tb ask for the usual limit and tablebase instead.

--progress prints a line on stderr for each deeper iteration of the search:
its depth, its value (an estimate until the proven bounds meet), the proven
bounds, its best move, the nodes so far and the time, so that a long proof
can be watched.`,
		Example: `  mancala solve akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1 --time 5s --json
  mancala solve djenon-abe:0,0,1,1,0,1/0,0,0,0,1,0:1 --all
  mancala solve kalah-4x3 --lines
  mancala solve - --time 1s < bench/testdata/solve-suite.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.reach = !c.Flags().Changed("time")
			return runSolve(c.Context(), c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	f := c.Flags()
	opts.add(f, 10*time.Second, "stop after this long (0: no limit), per position; not given, a start proven by default (kalah) has no limit", "stop after about this many nodes (0: no limit)")
	f.IntVar(&opts.depth, "depth", 0, "deepest iteration in plies (0: no limit)")
	f.BoolVar(&opts.all, "all", false, "give every legal move's value")
	f.BoolVar(&opts.lines, "lines", false, "give every line's value too: each extra move followed by each continuation (implies --all)")
	f.BoolVar(&opts.oneBest, "one-best", false, "stop at the proven value and one best move, not deciding the other moves (not with --all or --lines)")
	f.BoolVar(&opts.progress, "progress", false, "print each deeper iteration of the search on stderr")
	addJSONFlag(c, &opts.json)
	return c
}

func runSolve(ctx context.Context, in io.Reader, out, errOut io.Writer, arg string, opts *solveOptions) error {
	if err := checkSolveOptions(opts); err != nil {
		return err
	}
	inputs, err := readPositions(in, arg)
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
	for _, input := range inputs {
		variants = append(variants, input.Setup.Variant)
	}
	hint := func(v *position.Variant, err error) error {
		for _, input := range inputs { // the first position of v names the search
			if input.Setup.Variant == v {
				return tablebaseHint(err, v, input.Setup.Position.Seeds(), opts.tb, input.Setup.String())
			}
		}
		return tablebaseHint(err, v, -1, opts.tb, "")
	}
	if err := prepare(ctx, errOut, o, variants, opts.oracleFlags, hint); err != nil {
		return err
	}
	hinted := map[*position.Variant]bool{} // the variants whose proof note is out
	for i, input := range inputs {
		so := oracle.SolveOptions{AllMoves: opts.all, Lines: opts.lines, OneBest: opts.oneBest,
			Time: opts.time, Nodes: opts.nodes, Depth: opts.depth, Reach: opts.reach}
		if opts.progress {
			so.Progress = func(p solver.Progress) { printProgress(errOut, p) }
		}
		a, err := o.Solve(ctx, input.Setup, so)
		if err != nil {
			return tablebaseHint(err, input.Setup.Variant, input.Setup.Position.Seeds(), opts.tb, input.Setup.String())
		}
		if err := printSolve(out, a, opts.json, arg == "-", i > 0); err != nil {
			return err
		}
		if !a.Exact && a.Source == oracle.SourceSearch && !opts.noTB && !hinted[input.Setup.Variant] {
			hinted[input.Setup.Variant] = noteProof(errOut, o, input.Setup, a, opts.tb)
		}
		if ctx.Err() != nil && i+1 < len(inputs) {
			return fmt.Errorf("interrupted after %d of %s", i+1, plural(len(inputs), "position"))
		}
	}
	return nil
}

// noteProof says on errOut how to get a proof of s, which the search a
// left an estimate: when no tablebase on disk serves its variant and one
// is known to bring a proof, the build (proofHint); when that tablebase
// is on disk and the search of the start stopped on its time limit, the
// solve without one (reachHint). It reports whether it said anything.
func noteProof(errOut io.Writer, o *oracle.Oracle, s position.Setup, a oracle.Answer, flag string) bool {
	top, err := o.DiskTablebase(s.Variant)
	if err == nil {
		if a.Stopped != string(solver.StopTime) || s.Position != s.Variant.Start() {
			return false
		}
		hint, ok := reachHint(s.Variant, top, flag)
		if ok {
			fmt.Fprintf(errOut, "note: %s: %s\n", s.String(), hint)
		}
		return ok
	}
	hint, ok := proofHint(err, s.Variant, flag)
	if ok {
		fmt.Fprintf(errOut, "note: %s: %s\n", s.String(), hint)
	}
	return ok
}

// printProgress is one --progress line: an iteration of the search.
func printProgress(errOut io.Writer, p solver.Progress) {
	fmt.Fprintf(errOut, "depth %d: %+d (proven %+d..%+d), best move %v, %s, %.1f s\n",
		p.Depth, p.Value, p.Lower, p.Upper, oracle.Move(p.BestMove), plural(int64(p.Nodes), "node"), p.Elapsed.Seconds())
}

func checkSolveOptions(opts *solveOptions) error {
	if opts.depth < 0 {
		return fmt.Errorf("--depth %d: want 0 or more", opts.depth)
	}
	if opts.oneBest && (opts.all || opts.lines) {
		return errors.New("--one-best and --all or --lines: give one or the other")
	}
	return opts.check()
}

func printSolve(out io.Writer, a oracle.Answer, asJSON, oneLine, notFirst bool) error {
	switch {
	case asJSON && oneLine:
		return json.NewEncoder(out).Encode(a)
	case asJSON:
		return writeJSON(out, a)
	}
	if notFirst {
		fmt.Fprintln(out)
	}
	return printSolveText(out, a)
}

// printSolveText is the report for one position.
func printSolveText(out io.Writer, a oracle.Answer) error {
	fmt.Fprintln(out, a.Position)
	if a.MustPass {
		fmt.Fprintf(out, "player %d has no legal move and must pass\n", a.Player)
	}
	if a.GameOver {
		fmt.Fprintf(out, "game over: value %+d for player %d (exact)\n", a.Value, a.Player)
		printResult(out, variantOf(a.Position), a.Result, a.KnownResult)
		return stopNote(out, a)
	}
	fmt.Fprintf(out, "value: %+d for player %d (%s)\n", a.Value, a.Player, exactness(a))
	printResult(out, variantOf(a.Position), a.Result, a.KnownResult)
	fmt.Fprintf(out, "best moves: %s\n", moveList(a.BestMoves))
	if line := distanceLine(a); line != "" {
		fmt.Fprintln(out, line)
	}
	if len(a.Moves) > 1 || len(a.Moves) == 1 && !a.MustPass {
		printMoveValues(out, a.Moves)
	}
	if len(a.Lines) > 0 {
		fmt.Fprintln(out, "lines (extra moves followed by each continuation):")
		for _, l := range a.Lines {
			fmt.Fprintf(out, "  line %v: %+d%s (captures %d)\n", l, l.Value, bounds(l.Exact, l.Lower, l.Upper), l.Captured)
		}
	}
	fmt.Fprintf(out, "pv: %s%s\n", moveList(a.PV), pvNote(a))
	switch a.Source {
	case oracle.SourceSearch:
		fmt.Fprintf(out, "depth %d, %s, %.3f s, %s, %s\n",
			a.Depth, plural(int64(a.Nodes), "node"), a.Seconds, rateOf(a.NodesPerSecond, "nodes"), plural(a.Threads, "thread"))
	case oracle.SourceTablebase:
		fmt.Fprintf(out, "answered from the tablebase, %.3f s\n", a.Seconds)
	}
	if a.Tablebase {
		where := ""
		if a.TablebaseInMemory {
			where = ", built in memory"
		}
		fmt.Fprintf(out, "tablebase: up to %s%s", plural(a.TablebaseSeeds, "seed"), where)
		if a.Source == oracle.SourceSearch {
			fmt.Fprintf(out, " (%s)", plural(int64(a.TablebaseHits), "hit"))
		}
		fmt.Fprintln(out)
	}
	return stopNote(out, a)
}

// stopNote says that values ignore the 25-seed stop, where the variant
// has one (docs/rules.md section 6).
func stopNote(out io.Writer, a oracle.Answer) error {
	switch {
	case a.StopAtReached:
		_, err := fmt.Fprintln(out, "note: the captures reach the 25-seed stop, so a game played out ends here; values ignore that stop (docs/rules.md section 6)")
		return err
	case a.StopAtIgnored:
		_, err := fmt.Fprintln(out, "values ignore the 25-seed stop (docs/rules.md section 6)")
		return err
	}
	return nil
}

// exactness says whether the value is exact, and if not why the answer
// stopped and what is proven.
// printMoveValues writes a line a move: "  move 6: +1 (captures 2)", the
// form solve and query share.
func printMoveValues(out io.Writer, moves []oracle.MoveValue) {
	for _, m := range moves {
		fmt.Fprintf(out, "  move %v: %+d%s (captures %d)\n", m.Move, m.Value, boundNote(m), m.Captured)
	}
}

func exactness(a oracle.Answer) string {
	if a.Exact {
		if !a.BestMovesComplete && a.Stopped == string(solver.StopOneBest) {
			return "exact; --one-best: the best moves proven on the way, not every one"
		}
		if !a.BestMovesComplete {
			return fmt.Sprintf("exact; stopped (%s) before every best move was found", a.Stopped)
		}
		return "exact"
	}
	return fmt.Sprintf("not exact: an estimate, search stopped (%s); proven %+d..%+d", a.Stopped, a.Lower, a.Upper)
}

func pvNote(a oracle.Answer) string {
	if a.Exact && !a.PVComplete && len(a.PV) > 0 {
		return " (stops before the end)"
	}
	return ""
}

func boundNote(m oracle.MoveValue) string { return bounds(m.Exact, m.Lower, m.Upper) }

// bounds is "" for an exact value, else the proven bounds of an estimate.
func bounds(exact bool, lower, upper int) string {
	if exact {
		return ""
	}
	return fmt.Sprintf(" (estimate; proven %+d..%+d)", lower, upper)
}

func moveList[M any](moves []M) string {
	if len(moves) == 0 {
		return "-"
	}
	parts := make([]string, len(moves))
	for i, m := range moves {
		parts[i] = fmt.Sprint(m)
	}
	return strings.Join(parts, ",")
}
