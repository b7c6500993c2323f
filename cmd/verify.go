package cmd

import (
	"context"
	"errors"
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
	from    int
	to      int
	json    bool
}

func newVerifyCmd() *cobra.Command {
	opts := &verifyOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "verify VARIANT [--tb DIR]",
		Short: "Re-check every stored value of a variant's tablebase",
		Long: `verify reads every complete layer of the variant's tablebase, checks its
files, values and distances against the checksums recorded when it was built,
and re-derives each position's value and distance from its moves and the
stored values and distances of the positions they reach: a position without
moves must hold its end-of-game share difference and distance 0, any other the
best over its moves of the seeds captured minus the value of the position
reached, and the distance that the winner's shortest or the loser's longest
value-keeping move gives (a capture 1 ply, a move inside the layer 1 more than
its child's). It does not run the build's method again: it checks each
position against its children only. Any failure names the layer and the
position and makes the exit code non-zero.

--from N re-derives only the layers from N up; the layers below are read and
their checksums checked, so that a long verify can be run in parts (--from 0,
the default, re-derives every layer). A --from or --to above the top
complete layer, or --from above --to, is refused: such a range would pass
having re-derived nothing. After each layer stderr shows its time
and rate (a bar is drawn too when stderr is a terminal, otherwise a line a
minute gives the share of the layer done); the summary goes to
stdout.

verify holds the values of every layer below the one it checks in memory
(one byte a position), and that layer's values and distances (three bytes a
position): about 16 GiB for layer 30 of awari or oware, so a machine with
less memory than that cannot check such a layer. verify works out that need
before it reads anything and stops at once, naming the layers that fit, when the
machine has less; --to N then checks layers 0..N only.`,
		Example: `  mancala verify awari
  mancala verify awari --from 28
  mancala verify oware --to 26
  mancala verify akon --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runVerify(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	c.Flags().IntVar(&opts.threads, "threads", runtime.NumCPU(), "worker threads")
	c.Flags().IntVar(&opts.from, "from", 0, "re-derive the layers from N seeds up; below N check checksums only")
	c.Flags().IntVar(&opts.to, "to", 0, "check the layers up to N seeds only (0: up to the top)")
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
	if opts.from < 0 {
		return fmt.Errorf("--from %d: want a seed count of 0 or more", opts.from)
	}
	if opts.to < 0 {
		return fmt.Errorf("--to %d: want a seed count of 1 or more (0: up to the top)", opts.to)
	}
	if err := checkTBDir(opts.tb, false); err != nil {
		return err
	}
	collectNear(tablebase.DefaultMemBytes())
	dir := tbDir(opts.tb)
	top := storedMax(dir, v)
	bar := newLayerBar(errOut, v.Pits, top, "verify")
	layerDone := func(c tablebase.LayerCheck) {
		bar.clear()
		fmt.Fprintf(errOut, "layer %d: %s\n", c.Seeds, verifyProgress(c))
	}
	checks, verr := tablebase.Verify(ctx, dir, v, tablebase.VerifyOptions{Threads: opts.threads, From: opts.from, To: opts.to,
		Progress: bar.update, LayerDone: layerDone})
	bar.finish()
	if mem := (*tablebase.MemoryError)(nil); errors.As(verr, &mem) {
		return memoryHint(mem)
	}
	if rng := (*tablebase.RangeError)(nil); errors.As(verr, &rng) {
		return rangeFlags(rng, v, dir)
	}
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
		printVerify(out, res, opts.to > 0 && opts.to < top)
	}
	return verr
}

// rangeFlags words a *tablebase.RangeError with the flags that asked for
// the range.
func rangeFlags(rng *tablebase.RangeError, v *position.Variant, dir string) error {
	held := fmt.Sprintf("%s's tablebase in %s holds layers 0..%d", v.Name, dir, rng.Top)
	switch {
	case rng.To > 0 && rng.From > rng.To:
		return fmt.Errorf("--from %d --to %d: the first layer to re-derive is above the last to check; nothing would be re-derived", rng.From, rng.To)
	case rng.To > rng.Top:
		return fmt.Errorf("--to %d: %s; want --to %d or less", rng.To, held, rng.Top)
	}
	return fmt.Errorf("--from %d: %s; want --from %d or less, or build the layers above first", rng.From, held, rng.Top)
}

// memoryHint adds to a verify too large for the machine the flag that
// checks what fits.
func memoryHint(mem *tablebase.MemoryError) error {
	if mem.Fits < 0 {
		return fmt.Errorf("verify: %w", mem)
	}
	return fmt.Errorf("verify: %w: check them with --to %d", mem, mem.Fits)
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

// verifyProgress is the stderr line of a checked layer: whether it
// passed, so that a log of an interrupted verify still says, and its time
// and rate, or that only its checksum was checked.
func verifyProgress(c tablebase.LayerCheck) string {
	switch {
	case !c.OK():
		return fmt.Sprintf("FAILED in %.1f s: %s", c.Seconds, c.Failure())
	case !c.Rechecked:
		return fmt.Sprintf("checksum ok, read in %.1f s, not re-derived (below --from)", c.Seconds)
	case c.Seconds > 0:
		return fmt.Sprintf("ok, checked in %.1f s, %s", c.Seconds, rate(float64(c.Positions)/c.Seconds))
	}
	return fmt.Sprintf("ok, checked in %.1f s", c.Seconds)
}

// printVerify prints the summary; short says the check stopped below the
// top layer (--to).
func printVerify(out io.Writer, res verifyResult, short bool) {
	for _, c := range res.Layers {
		if c.OK() {
			what := "ok"
			if !c.Rechecked {
				what = "checksum ok, values not re-derived"
			}
			fmt.Fprintf(out, "layer %2d: %s %s\n", c.Seeds, plural(c.Positions, "position"), what)
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
	switch {
	case res.OK && short:
		fmt.Fprintf(out, "%s: layers 0..%d verified%s; the layers above were not checked (--to)\n", res.Variant, len(res.Layers)-1, fromNote(res))
	case res.OK:
		fmt.Fprintf(out, "%s: all %s verified%s\n", res.Variant, plural(len(res.Layers), "layer"), fromNote(res))
	}
}

// fromNote names the layers re-derived when verify ran with --from.
func fromNote(res verifyResult) string {
	for _, c := range res.Layers {
		if c.Rechecked {
			if c.Seeds == 0 {
				return ""
			}
			return fmt.Sprintf(" (values re-derived from layer %d up)", c.Seeds)
		}
	}
	if len(res.Layers) > 0 {
		return " (checksums only)"
	}
	return ""
}
