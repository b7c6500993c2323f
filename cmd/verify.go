package cmd

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

type verifyOptions struct {
	tb      string
	threads int
	json    bool
}

func newVerifyCmd() *cobra.Command {
	opts := &verifyOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "verify VARIANT [--tb DIR]",
		Short: "Re-check every stored value of a variant's tablebase",
		Long: `verify reads every complete layer of the variant's tablebase, checks it
against the checksum recorded when it was built, and re-derives each position's
value from its moves: a position without moves must hold its end-of-game share
difference, any other the best over its moves of the seeds captured minus the
value of the position reached. Any failure names the layer and the position
and makes the exit code non-zero.`,
		Example: `  mancala verify awari
  mancala verify akon --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runVerify(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	c.Flags().IntVar(&opts.threads, "threads", runtime.NumCPU(), "worker threads")
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

type verifyResult struct {
	Variant string                 `json:"variant"`
	Dir     string                 `json:"dir"`
	OK      bool                   `json:"ok"`
	Layers  []tablebase.LayerCheck `json:"layers"`
}

func runVerify(ctx context.Context, out, errOut io.Writer, name string, opts *verifyOptions) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	if err := checkThreads(opts.threads); err != nil {
		return err
	}
	dir := tbDir(opts.tb)
	bar := newLayerBar(errOut, v.Pits, storedMax(dir, v), "verify")
	checks, verr := tablebase.Verify(ctx, dir, v, tablebase.VerifyOptions{Threads: opts.threads, Progress: bar.update})
	bar.finish()
	if len(checks) == 0 && verr == nil {
		verr = tablebase.Missing(dir, v)
	}
	if len(checks) == 0 {
		return tablebaseHint(verr, v, -1, opts.tb, "")
	}
	res := verifyResult{Variant: v.Name, Dir: dir, OK: verr == nil, Layers: checks}
	if opts.json {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else {
		printVerify(out, res)
	}
	return verr
}

// storedMax returns the last complete layer in dir, for sizing the bar
// (0 when it cannot tell).
func storedMax(dir string, v *position.Variant) int {
	pr, err := tablebase.OpenProber(dir, v)
	if err != nil {
		return 0
	}
	defer pr.Close()
	return max(pr.MaxSeeds(), 0)
}

func printVerify(out io.Writer, res verifyResult) {
	for _, c := range res.Layers {
		if c.OK() {
			fmt.Fprintf(out, "layer %2d: %s ok\n", c.Seeds, plural(c.Positions, "position"))
			continue
		}
		fmt.Fprintf(out, "layer %2d: %s FAILED:", c.Seeds, plural(c.Positions, "position"))
		if !c.ChecksumOK {
			fmt.Fprint(out, " checksum mismatch;")
		}
		if c.Unreadable != "" {
			fmt.Fprintf(out, " damaged: %s (the layers above are not checked)\n", c.Unreadable)
			continue
		}
		fmt.Fprintf(out, " %s disagree with their moves\n", plural(c.Mismatches, "position"))
		for _, e := range c.Examples {
			fmt.Fprintf(out, "    %s\n", e)
		}
	}
	if res.OK {
		fmt.Fprintf(out, "%s: all %s verified\n", res.Variant, plural(len(res.Layers), "layer"))
	}
}
