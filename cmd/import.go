package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

type importOptions struct {
	parts string
	tb    string
	layer int
	json  bool
}

func newImportCmd() *cobra.Command {
	opts := &importOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "import VARIANT --parts DIR [--tb DIR]",
		Short: "Put the parts of a build across processes into a tablebase",
		Long: `import puts the complete layers of a build across processes (mancala build
under mpirun or srun writes each rank's range of every layer as a part file in
its --parts directory) into the tablebase at --tb, where stats, query, solve,
verify and serve read them exactly as a one-machine build's layers.

Before a layer is written every part file is re-hashed against the layer's
metadata: a damaged part stops the import, naming it (rebuild that layer: remove
its directory and those above it from the parts and run the build again). While
it is written every block is decoded and the layer's values and distances are
checked against its checksums, which are the one-machine build's. A layer goes
into the tablebase as a build stores one, its metadata last, so an interrupted
import (Ctrl-C, kill, a full disk) resumes at the first missing layer when run
again; layers already in the tablebase are kept when their checksums equal the
parts'. Each layer's line goes to stderr, the summary to stdout.

--layer N imports layer N only, and lets imports of other layers run at the same
time (one layer a task of a Slurm array job: deploy/slurm/import.sbatch); until
every layer is in, the tablebase's readers report the layers above a missing one
as damage.`,
		Example: `  mancala import awari --parts /shared/parts --tb /shared/tb
  mancala import oware --parts parts --tb tb --json
  mancala import awari --parts /shared/parts --tb /shared/tb --layer 17`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runImport(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	c.Flags().StringVar(&opts.parts, "parts", "", "the directory of the build's parts (required)")
	_ = c.MarkFlagRequired("parts")
	c.Flags().IntVar(&opts.layer, "layer", -1, "import layer N only, beside imports of other layers (-1: every layer)")
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

type importResult struct {
	Variant        string  `json:"variant"`
	Parts          string  `json:"parts"`
	Dir            string  `json:"dir"`
	MaxSeeds       int     `json:"max_seeds"`       // layers 0..max_seeds are in the tablebase
	PartsTop       int     `json:"parts_top"`       // the top complete layer of the parts
	KeptLayers     int     `json:"kept_layers"`     // already in the tablebase
	ImportedLayers int     `json:"imported_layers"` // by this run
	Positions      int64   `json:"positions"`       // imported by this run
	Seconds        float64 `json:"seconds"`
}

func runImport(ctx context.Context, out, errOut io.Writer, name string, opts *importOptions) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	if err := checkTBDir(opts.tb, false); err != nil {
		return err
	}
	dir := tbDir(opts.tb)
	done := func(info tablebase.LayerInfo) {
		fmt.Fprintf(errOut, "layer %d: imported, %s, checksums %016x/%016x\n", info.Seeds, plural(info.Positions, "position"), info.Checksum, info.DistanceChecksum)
	}
	iopts := tablebase.ImportOptions{LayerDone: done}
	if opts.layer >= 0 {
		iopts.Layers = []int{opts.layer}
	}
	stats, err := tablebase.Import(ctx, opts.parts, dir, v, iopts)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: layers 0..%d are in %s; run the same command to resume", stats.MaxSeeds, dir)
	}
	if err != nil {
		return err
	}
	res := importResult{Variant: stats.Variant, Parts: opts.parts, Dir: dir, MaxSeeds: stats.MaxSeeds, PartsTop: stats.PartsTop,
		KeptLayers: stats.Kept, ImportedLayers: len(stats.Layers), Seconds: stats.Seconds}
	for _, info := range stats.Layers {
		res.Positions += info.Positions
	}
	if opts.json {
		return writeJSON(out, res)
	}
	fmt.Fprintf(out, "%s: layers 0..%d in %s (%s already there, %s imported: %s in %.1f s); the parts hold layers 0..%d\n",
		res.Variant, res.MaxSeeds, res.Dir, plural(int64(res.KeptLayers), "layer"), plural(int64(res.ImportedLayers), "layer"),
		plural(res.Positions, "position"), res.Seconds, res.PartsTop)
	return nil
}
