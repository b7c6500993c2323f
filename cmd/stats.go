package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

type statsOptions struct {
	tb      string
	compare string
	json    bool
}

func newStatsCmd() *cobra.Command {
	opts := &statsOptions{}
	c := &cobra.Command{
		Use:   "stats VARIANT [--tb DIR] [--compare DIR] [--json]",
		Short: "Per-layer counts of a variant's tablebase: wins, draws, losses, values",
		Long: `stats reads every complete layer of the variant's tablebase and prints, per
seed count, the positions, how many are won, drawn and lost for the side to
move, the histogram of values, and each layer's checksums (xxHash64 of its
values and of its distances, as its build recorded them) with its longest
distance in plies: the signature that tells whether two builds agree.

--compare DIR compares the tablebase with the variant's tablebase in DIR
instead, from the checksums each build recorded, without reading values
(seconds even for the largest): per layer both builds' positions and
checksums and whether they agree. Builds made by any method, thread count or
version agree exactly when they hold the same values and distances. A layer
that differs, or a layer one holds and the other lacks, makes the exit status
1.`,
		Example: `  mancala stats awari
  mancala stats oware --tb /data/tb --json
  mancala stats oware --tb /data/tb --compare /old/tb`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runStats(c.OutOrStdout(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
	c.Flags().StringVar(&opts.compare, "compare", "", "compare the recorded checksums with the tablebase in this directory")
	addJSONFlag(c, &opts.json)
	return c
}

type statsResult struct {
	Variant string                 `json:"variant"`
	Dir     string                 `json:"dir"`
	Layers  []tablebase.LayerStats `json:"layers"`
}

func runStats(out io.Writer, name string, opts *statsOptions) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	if err := checkTBDir(opts.tb, false); err != nil {
		return err
	}
	dir := tbDir(opts.tb)
	if opts.compare != "" {
		return runCompare(out, v, dir, opts)
	}
	layers, err := tablebase.Stats(dir, v)
	if err == nil && len(layers) == 0 {
		err = tablebase.Missing(dir, v)
	}
	if err != nil {
		return tablebaseHint(err, v, -1, opts.tb, "")
	}
	res := statsResult{Variant: v.Name, Dir: dir, Layers: layers}
	if opts.json {
		return writeJSON(out, res)
	}
	printStats(out, res)
	return nil
}

func printStats(out io.Writer, res statsResult) {
	fmt.Fprintf(out, "%s tablebase in %s (values for the side to move)\n", res.Variant, res.Dir)
	fmt.Fprintf(out, "%5s %12s %7s %7s %7s %10s\n", "seeds", "positions", "wins", "draws", "losses", "stored")
	for _, l := range res.Layers {
		fmt.Fprintf(out, "%5d %12d %6.2f%% %6.2f%% %6.2f%% %10s\n", l.Seeds, l.Positions,
			pct(l.Wins, l.Positions), pct(l.Draws, l.Positions), pct(l.Losses, l.Positions), humanize.IBytes(uint64(l.StoredBytes)))
	}
	fmt.Fprintln(out, "values (value:count):")
	for _, l := range res.Layers {
		bars := make([]string, len(l.Histogram))
		for i, h := range l.Histogram {
			bars[i] = fmt.Sprintf("%d:%d", h.Value, h.Count)
		}
		fmt.Fprintf(out, "%5d  %s\n", l.Seeds, strings.Join(bars, " "))
	}
	fmt.Fprintln(out, "checksums (xxHash64 of values, of distances; longest distance in plies):")
	for _, l := range res.Layers {
		fmt.Fprintf(out, "%5d  %016x %016x %4d\n", l.Seeds, l.Checksum, l.DistanceChecksum, l.MaxDistance)
	}
}

func pct(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

type compareResult struct {
	Variant     string         `json:"variant"`
	Dir         string         `json:"dir"`
	Other       string         `json:"other"`
	Layers      []compareLayer `json:"layers"`
	Differences []string       `json:"differences"` // empty when the builds agree
}

// compareLayer is one layer of either build; a layer only one build holds
// has the other's fields zero.
type compareLayer struct {
	Seeds int                  `json:"seeds"`
	Mine  *tablebase.LayerInfo `json:"layer,omitempty"`
	Other *tablebase.LayerInfo `json:"other,omitempty"`
	Same  bool                 `json:"same"`
}

// runCompare is stats --compare: the layers' recorded checksums of dir
// and opts.compare side by side; an error (exit status 1) when they differ.
func runCompare(out io.Writer, v *position.Variant, dir string, opts *statsOptions) error {
	mine, err := tablebase.Layers(dir, v)
	if err == nil && len(mine) == 0 {
		err = tablebase.Missing(dir, v)
	}
	if err != nil {
		return tablebaseHint(err, v, -1, opts.tb, "")
	}
	other, err := tablebase.Layers(opts.compare, v)
	if err == nil && len(other) == 0 {
		err = tablebase.Missing(opts.compare, v)
	}
	if err != nil {
		return fmt.Errorf("--compare: %w", err)
	}
	res := compareResult{Variant: v.Name, Dir: dir, Other: opts.compare, Differences: tablebase.ChecksumDiff(mine, other)}
	if res.Differences == nil {
		res.Differences = []string{}
	}
	for n := range max(len(mine), len(other)) {
		l := compareLayer{Seeds: n}
		if n < len(mine) {
			l.Mine = &mine[n]
		}
		if n < len(other) {
			l.Other = &other[n]
		}
		l.Same = l.Mine != nil && l.Other != nil && len(tablebase.ChecksumDiff(mine[n:n+1], other[n:n+1])) == 0
		res.Layers = append(res.Layers, l)
	}
	if opts.json {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else {
		printCompare(out, res)
	}
	if len(res.Differences) > 0 {
		return fmt.Errorf("%s tablebases in %s and %s differ: %s", v.Name, dir, opts.compare, res.Differences[0])
	}
	return nil
}

func printCompare(out io.Writer, res compareResult) {
	fmt.Fprintf(out, "%s tablebase in %s against %s (positions, xxHash64 of values, of distances)\n", res.Variant, res.Dir, res.Other)
	side := func(l *tablebase.LayerInfo) string {
		if l == nil {
			return fmt.Sprintf("%12s %16s %16s", "-", "-", "-")
		}
		return fmt.Sprintf("%12d %016x %016x", l.Positions, l.Checksum, l.DistanceChecksum)
	}
	for _, l := range res.Layers {
		verdict := "same"
		if !l.Same {
			verdict = "DIFFERS"
		}
		fmt.Fprintf(out, "%5d  %s  %s  %s\n", l.Seeds, side(l.Mine), side(l.Other), verdict)
	}
	if len(res.Differences) == 0 {
		fmt.Fprintf(out, "all %d layers agree\n", len(res.Layers))
	} else {
		fmt.Fprintf(out, "%d differences\n", len(res.Differences))
	}
}
