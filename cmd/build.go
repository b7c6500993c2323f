package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"mancala/position"
	"mancala/tablebase"
)

type buildOptions struct {
	maxSeeds int
	threads  int
	mem      string
	tb       string
	json     bool
	profile  string
	repair   bool
}

func newBuildCmd() *cobra.Command {
	opts := &buildOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "build VARIANT --max-seeds N [--threads N] [--mem SIZE] [--tb DIR]",
		Short: "Build the endgame tablebase of a variant up to N seeds on the board",
		Long: `build computes the exact value of every position with 0..N seeds on the
board by retrograde analysis, one layer (seed count) at a time, and stores it
in a Badger database. Layers already complete in DIR are kept, so an
interrupted build (Ctrl-C, kill) resumes from its last complete layer when run
again. Queries, stats and verify read the complete layers while a build adds
more. A damaged layer (a file changed since its build) stops the build with
the repair command: --repair drops the damaged layer and the layers above it,
of this variant only, and builds them again. Progress is drawn on stderr when it is a terminal (one line a layer
otherwise); the summary goes to stdout.`,
		Example: `  mancala build awari --max-seeds 12
  mancala build akon --max-seeds 14 --threads 2 --mem 6GiB --tb /data/tb --json
  mancala build awari --max-seeds 12 --repair`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runBuild(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	c.Flags().IntVar(&opts.maxSeeds, "max-seeds", -1, "build layers 0..N seeds on the board (required)")
	c.Flags().IntVar(&opts.threads, "threads", runtime.NumCPU(), "worker threads")
	c.Flags().StringVar(&opts.mem, "mem", "8GiB", "memory budget for the build's arrays (e.g. 4GiB, 512MB)")
	c.Flags().StringVar(&opts.profile, "cpuprofile", "", "write a CPU profile (pprof) of the build to FILE")
	_ = c.Flags().MarkHidden("cpuprofile")
	c.Flags().BoolVar(&opts.repair, "repair", false, "drop damaged layers (and those above them) of this variant and build them again")
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

type buildResult struct {
	Variant            string  `json:"variant"`
	Dir                string  `json:"dir"`
	MaxSeeds           int     `json:"max_seeds"`
	ResumedLayers      int     `json:"resumed_layers"`
	DroppedLayers      int     `json:"dropped_layers,omitempty"` // damaged ones and those above, by --repair
	BuiltLayers        int     `json:"built_layers"`
	Positions          int64   `json:"positions"`       // stored, layers 0..max_seeds
	BuiltPositions     int64   `json:"built_positions"` // by this run
	Seconds            float64 `json:"seconds"`
	PositionsPerSecond float64 `json:"positions_per_second"`
	DiskBytes          int64   `json:"disk_bytes"`
	BytesPerPosition   float64 `json:"bytes_per_position"`
}

func runBuild(ctx context.Context, out, errOut io.Writer, name string, opts *buildOptions) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	switch {
	case opts.maxSeeds == -1:
		return errors.New("--max-seeds N is required")
	case opts.maxSeeds < 0:
		return fmt.Errorf("--max-seeds %d: want 0 or more", opts.maxSeeds)
	}
	if err := checkThreads(opts.threads); err != nil {
		return err
	}
	mem, err := parseSize("--mem", opts.mem)
	if err != nil {
		return err
	}
	// The budget covers our arrays; let the collector work to stay near it.
	debug.SetMemoryLimit(mem + 1<<30)
	dir := tbDir(opts.tb)
	if opts.profile != "" {
		stopProfile, err := startProfile(opts.profile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	bar := newLayerBar(errOut, v.Pits, opts.maxSeeds, "build")
	stats, err := tablebase.Build(ctx, dir, v, tablebase.BuildOptions{
		MaxSeeds: opts.maxSeeds, Threads: opts.threads, MemBytes: mem,
		Progress: bar.update, LayerDone: layerLogger(errOut, bar), Repair: opts.repair,
	})
	bar.finish()
	if errors.Is(err, context.Canceled) {
		// Execute gives the signal's exit code (130 or 143).
		return fmt.Errorf("interrupted: layers 0..%d are stored in %s; run the same command to resume", stats.MaxSeeds, dir)
	}
	if err != nil {
		return err
	}
	res, err := buildSummary(dir, v, stats)
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(out, res)
	}
	return printBuild(out, res)
}

// startProfile starts a CPU profile into file and returns its stop.
func startProfile(file string) (func(), error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// layerLogger prints one line a finished layer when no bar is drawn.
func layerLogger(errOut io.Writer, bar *layerBar) func(tablebase.LayerInfo) {
	if bar.bar != nil {
		return nil
	}
	return func(info tablebase.LayerInfo) {
		fmt.Fprintf(errOut, "layer %d: %d positions in %.1f s (%s)\n", info.Seeds, info.Positions, info.Seconds, info.Method)
	}
}

func buildSummary(dir string, v *position.Variant, stats tablebase.BuildStats) (buildResult, error) {
	res := buildResult{Variant: v.Name, Dir: dir, MaxSeeds: stats.MaxSeeds, ResumedLayers: stats.Resumed, DroppedLayers: stats.Dropped,
		BuiltLayers: len(stats.Layers), BuiltPositions: stats.Positions, Seconds: stats.Seconds}
	ix := tablebase.NewIndex(v.Pits)
	for n := 0; n <= stats.MaxSeeds; n++ {
		res.Positions += ix.Size(n)
	}
	if res.Seconds > 0 {
		res.PositionsPerSecond = float64(res.BuiltPositions) / res.Seconds
	}
	disk, err := tablebase.DiskBytes(dir, v)
	if err != nil {
		return res, err
	}
	res.DiskBytes = disk
	if res.Positions > 0 {
		res.BytesPerPosition = float64(disk) / float64(res.Positions)
	}
	return res, nil
}

func printBuild(out io.Writer, res buildResult) error {
	fmt.Fprintf(out, "%s: layers 0..%d, %d positions", res.Variant, res.MaxSeeds, res.Positions)
	if res.ResumedLayers > 0 {
		fmt.Fprintf(out, " (%d layers were already stored)", res.ResumedLayers)
	}
	fmt.Fprintln(out)
	if res.DroppedLayers > 0 {
		fmt.Fprintf(out, "repaired: dropped %d layers (the damaged ones and those above them) and built them again\n", res.DroppedLayers)
	}
	fmt.Fprintf(out, "built %d positions in %.1f s: %.2f M positions/s\n",
		res.BuiltPositions, res.Seconds, res.PositionsPerSecond/1e6)
	fmt.Fprintf(out, "%s on disk for %s in %s: %.3f bytes/position\n",
		humanBytes(res.DiskBytes), res.Variant, res.Dir, res.BytesPerPosition)
	return nil
}

// humanBytes writes a byte count with a binary unit.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for x := n / unit; x >= unit; x /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
