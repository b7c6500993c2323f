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
	tb   string
	json bool
}

func newStatsCmd() *cobra.Command {
	opts := &statsOptions{}
	c := &cobra.Command{
		Use:   "stats VARIANT [--tb DIR] [--json]",
		Short: "Per-layer counts of a variant's tablebase: wins, draws, losses, values",
		Long: `stats reads every complete layer of the variant's tablebase and prints, per
seed count, the positions, how many are won, drawn and lost for the side to
move, the histogram of values, and each layer's checksums (xxHash64 of its
values and of its distances, as its build recorded them) with its longest
distance in plies: the signature that tells whether two builds agree.`,
		Example: `  mancala stats awari
  mancala stats oware --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runStats(c.OutOrStdout(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
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
