package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/bench"
	"github.com/mancala-solver/mancala/position"
)

type benchOptions struct {
	variant    string
	threads    int
	seconds    float64
	runs       int
	playLeaves bool
	json       bool
}

func newBenchCmd() *cobra.Command {
	opts := &benchOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "bench [sow|perft|solve|build]...",
		Short: "Measure make-move, perft, search and tablebase-building speed",
		Long: `bench measures the engine. Each figure is the median of --runs timed runs
(min and max given too) within --seconds:

  sow    make-move rate on a fixed sample of positions from play, packed engine
         and reference implementation, one thread and all threads, and their
         ratio; the sample is drawn evenly over the seed counts play reaches,
         and its make-up (seed counts, one-seed sowings) is printed with it
  perft  perft from each start position to a fixed depth (a derived one, the
         first to reach 10 M nodes, for the kalah sizes); the node counts are a
         signature that changes only when the rules change. The last ply is
         bulk-counted; --play-leaves makes its moves too (same counts)
  solve  the solver's fixed suite (bench/testdata/solve-suite.txt): nodes per
         second on midgames to a fixed depth, whose one-thread node count is a
         signature of the search, and seconds to an exact value on endgames,
         one thread and all threads, with the speedups (the five games only)
  build  a small tablebase build (in a temporary directory; the layers of at
         most 3 M positions), one thread and all threads: positions per second
         of wall time and per CPU-second (user + system, getrusage), the
         speedup, and the positions built and their checksums as signatures

Without --variant, sow, perft and build measure the five games, kalah and
kalah-std; solve the five games. A --variant a group cannot measure (solve:
a variant outside the five games; build: oware-own, which has no tablebase)
is refused before any work when the group is named, and the group is
skipped with a line saying so when none is. --runs is at most --seconds
divided by 1 ms: a shorter run measures the clock, not the work.

With no group named, every group runs: a few minutes with the defaults
(--seconds 0.5 --runs 1 for a quick look; each build and endgame figure takes
as long as its work needs). Output is a table, or with --json one document
with the machine and every figure with its unit. Progress goes to stderr: a
line as each figure starts and ends, or a bar on a terminal. Ctrl-C (or
SIGTERM) stops at once, prints the figures measured so far, removes the
temporary tablebase of "build", and exits with 130 (143).`,
		Example: `  mancala bench --seconds 1
  mancala bench sow --variant awari --json
  mancala bench perft --play-leaves
  mancala bench build --variant kalah-std-4x3`,
		ValidArgs: bench.Groups,
		Args: func(c *cobra.Command, args []string) error {
			for _, a := range args {
				if !slices.Contains(bench.Groups, a) {
					return fmt.Errorf("%q is not a benchmark group (known: %s)", a, strings.Join(bench.Groups, ", "))
				}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runBench(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args, opts)
		},
	})
	c.Flags().StringVar(&opts.variant, "variant", "", "only this variant (default: all)")
	c.Flags().IntVar(&opts.threads, "threads", runtime.NumCPU(), "threads of the multi-threaded figures")
	c.Flags().Float64Var(&opts.seconds, "seconds", 2, "time budget of each figure, in seconds")
	c.Flags().IntVar(&opts.runs, "runs", 3, "timed runs per figure (the median is reported)")
	c.Flags().BoolVar(&opts.playLeaves, "play-leaves", false, "perft: make every move of the last ply instead of bulk-counting it (same counts)")
	addJSONFlag(c, &opts.json)
	return c
}

// minSeconds and maxSeconds bound --seconds: below 10 ms a figure is
// noise, above a day a typo (and NaN or Inf never a budget).
const minSeconds, maxSeconds = 0.01, 86400.0

func runBench(ctx context.Context, out, errOut io.Writer, groups []string, opts *benchOptions) error {
	switch {
	case checkThreads(opts.threads) != nil:
		return checkThreads(opts.threads)
	case !(opts.seconds >= minSeconds && opts.seconds <= maxSeconds): // also NaN
		return fmt.Errorf("--seconds %g: want %g to %g", opts.seconds, minSeconds, maxSeconds)
	case opts.runs < 1:
		return fmt.Errorf("--runs %d: want 1 or more", opts.runs)
	}
	var variants []*position.Variant // nil: each group's default
	if opts.variant != "" {
		v, err := position.Lookup(opts.variant)
		if err != nil {
			return fmt.Errorf("--variant: %w", err)
		}
		variants = []*position.Variant{v}
	}
	bopts := bench.Options{Threads: opts.threads, Seconds: opts.seconds, Runs: opts.runs, PlayLeaves: opts.playLeaves}
	if runs := (*bench.RunsError)(nil); errors.As(bopts.Check(), &runs) {
		return fmt.Errorf("--runs %d: at most %d fit in --seconds %g, each run lasting at least %g s", runs.Runs, runs.Max, runs.Seconds, bench.MinRunSeconds)
	}
	stopProgress := benchProgress(errOut, &bopts)
	report, err := bench.Run(ctx, groups, variants, bopts)
	stopProgress()
	if err != nil && interruption(ctx) == nil {
		return err
	}
	// Interrupted or not, the figures measured are printed; Execute then
	// gives an interruption its exit code.
	if opts.json {
		if jerr := writeJSON(out, report); jerr != nil {
			return jerr
		}
	} else if perr := printBench(out, report); perr != nil {
		return perr
	}
	if err != nil {
		return fmt.Errorf("interrupted: %s measured, printed above", plural(len(report.Figures), "figure"))
	}
	return nil
}

// benchProgress shows on errOut what bench measures: a bar on a terminal,
// else a line as each figure starts and one as it is measured. It returns
// the function that ends the display.
func benchProgress(errOut io.Writer, bopts *bench.Options) func() {
	name := func(f bench.Figure) string {
		return strings.TrimSpace(fmt.Sprintf("%s %s %s, %s", f.Group, f.Variant, f.Name, plural(f.Threads, "thread")))
	}
	if isTerminal(errOut) {
		bar := progressbar.NewOptions(-1, progressbar.OptionSetWriter(errOut),
			progressbar.OptionSetDescription("measuring"), progressbar.OptionClearOnFinish())
		bopts.Starting = func(f bench.Figure) { bar.Describe("measuring " + name(f)) }
		bopts.Measured = func(bench.Figure) { bar.Add(1) }
		return func() { bar.Finish() }
	}
	bopts.Starting = func(f bench.Figure) { fmt.Fprintf(errOut, "bench: measuring %s\n", name(f)) }
	bopts.Measured = func(f bench.Figure) {
		fmt.Fprintf(errOut, "bench: %s: %s %s\n", name(f), human(f.Median), f.Unit)
	}
	return func() {}
}

func printBench(out io.Writer, r bench.Report) error {
	fmt.Fprintf(out, "%s, %s, %s %s/%s\n\n", r.Machine.CPU, plural(r.Machine.Cores, "core"), r.Machine.GoVersion, r.Machine.OS, r.Machine.Arch)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "group\tfigure\tvariant\tthreads\tmedian\tmin\tmax\tunit\t")
	for _, f := range r.Figures {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", f.Group, f.Name, f.Variant, f.Threads,
			human(f.Median), human(f.Min), human(f.Max), f.Unit)
	}
	w.Flush()
	if len(r.Ratios) > 0 {
		fmt.Fprintln(out)
		for _, x := range r.Ratios {
			fmt.Fprintf(out, "%s %s %s: %.1f\n", x.Group, x.Variant, x.Name, x.Value)
		}
	}
	if len(r.Samples) > 0 {
		fmt.Fprintln(out)
		for _, mu := range r.Samples {
			fmt.Fprintf(out, "sample %s: %d positions, %d..%d seeds on the board in %d counts (at most %.1f%% of one), "+
				"%.1f%% one-seed sowings, %.2f seeds sown a move\n", mu.Variant, mu.Positions, mu.MinSeeds, mu.MaxSeeds,
				mu.SeedCounts, 100*mu.LargestShare, 100*mu.OneSeedSowings, mu.MeanSown)
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintln(out)
		for _, s := range r.Skipped {
			fmt.Fprintf(out, "skipped %s %s: %s\n", s.Group, s.Variant, s.Reason)
		}
	}
	if len(r.Signatures) > 0 {
		fmt.Fprintln(out)
		for _, s := range r.Signatures {
			fmt.Fprintf(out, "signature %s %s %s: %d\n", s.Group, s.Variant, s.Name, s.Value)
		}
	}
	return nil
}

// human writes a rate with an SI prefix: 1.23G, 45.6M, 789k.
func human(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}
