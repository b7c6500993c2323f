package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/internal/mpi"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

type buildOptions struct {
	maxSeeds int
	threads  int
	mem      string
	tb       string
	json     bool
	repair   bool
	parts    string
	plan     bool
	mapped   bool
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
of this variant only, and builds them again. Before each layer, stderr shows
its positions, the method (unsow for awari and oware: predecessors by taking
seeds back; forward for kalah, whose positions never recur: one pass, children
first; graph for the others, a predecessor graph in memory; graph-spilled
when that graph does not fit --mem: its largest arrays then go to a temporary,
memory-mapped file in the tablebase directory, Linux only, removed after the
layer; value iteration, much slower, when not even that fits) and the memory it
needs, plus the disk the spilled graph takes;
after it, its time, its rate and an estimate of the time the whole build still
takes (fitted on the layers so far: a position costs more in larger layers).
A bar is drawn too when stderr is a terminal; otherwise a line a minute gives
the share of the layer done. The summary goes to stdout.

--mem bounds the build's arrays (the layers below the one being built, and that
layer's working arrays); by default it is 3/4 of the machine's memory, or of
its cgroup limit when lower. A budget too small for a layer fails at once,
before any layer is built, naming the layer and the memory it needs. So does a
layer of more than 2^32 positions (32 seeds and up with six pits a row), which
one machine's build does not rank: such layers are built across machines
(docs/distributed-build.md). --plan prints every layer's line of method and
memory as a build into an empty directory would start it, and builds nothing:
whether a budget fits, before hours of work.

Under mpirun or srun (a binary built with -tags mpi) each process is one rank
of a build across processes: every rank builds and writes its range of each
layer as a part file in --parts DIR, a directory every rank sees, rank 0 the
layer's metadata last; a build started again goes on at the first layer
without metadata. mancala import then puts the parts into a tablebase.

--mapped also writes each layer's values, one byte a position, to a plain
file in DIR/VARIANT.rN/mapped/ (kalah to 20 seeds: 216 MB beside a 119 MB
store), or keeps the one there when it is valid: solve and analyze with
--load-tb then map these files (Linux) instead of decoding the layers, which
costs next to no CPU. They are derived from the stored layers and
checked against the checksums the build recorded; a stale or damaged one is
ignored (the layer is decoded) until --mapped writes it again. Layers a build
without --mapped adds are decoded; rm -r the mapped directory to drop them.`,
		Example: `  mancala build awari --max-seeds 12
  mancala build akon --max-seeds 14 --threads 2 --mem 6GiB --tb /data/tb --json
  mancala build awari --max-seeds 12 --repair
  mancala build awari --max-seeds 30 --mem 12GiB --plan
  mancala build kalah --max-seeds 20 --mapped
  mpirun -np 4 mancala build awari --max-seeds 16 --threads 1 --parts /shared/parts`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runBuild(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], opts)
		},
	})
	c.Flags().IntVar(&opts.maxSeeds, "max-seeds", 0, "build layers 0..N seeds on the board (required)")
	_ = c.MarkFlagRequired("max-seeds")
	c.Flags().IntVar(&opts.threads, "threads", runtime.NumCPU(), "worker threads")
	c.Flags().StringVar(&opts.mem, "mem", "", "memory budget for the build's arrays, e.g. 4GiB, 512MB (default: 3/4 of the machine's or cgroup's memory)")
	c.Flags().BoolVar(&opts.repair, "repair", false, "drop damaged layers (and those above them) of this variant and build them again")
	c.Flags().BoolVar(&opts.plan, "plan", false, "print each layer's plan (method, memory, heap peak) for an empty directory, and build nothing")
	c.Flags().BoolVar(&opts.mapped, "mapped", false, "also write each layer's values to a file, one byte a position, that --load-tb maps instead of decoding")
	c.Flags().StringVar(&opts.parts, "parts", "", "under mpirun or srun: the directory of the build's parts, which every rank sees (required there)")
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

type buildResult struct {
	Variant string `json:"variant"`
	// TablebaseOf names the variant whose tablebase holds these layers
	// when it is another (kalah sizes share one a row length).
	TablebaseOf        string  `json:"tablebase_of,omitempty"`
	Dir                string  `json:"dir"`
	MaxSeeds           int     `json:"max_seeds"`
	ResumedLayers      int     `json:"resumed_layers"`
	DroppedLayers      int     `json:"dropped_layers,omitempty"` // damaged ones and those above, by --repair
	BuiltLayers        int     `json:"built_layers"`
	Positions          int64   `json:"positions"`       // stored, layers 0..max_seeds
	BuiltPositions     int64   `json:"built_positions"` // by this run
	Seconds            float64 `json:"seconds"`
	PositionsPerSecond float64 `json:"positions_per_second"`
	DiskBytes          int64   `json:"disk_bytes"`         // this variant's part of the directory
	DiskTop            int     `json:"disk_top"`           // its top stored layer, max_seeds or above
	DiskPositions      int64   `json:"disk_positions"`     // the positions of its stored layers
	BytesPerPosition   float64 `json:"bytes_per_position"` // disk_bytes / disk_positions
	// StoredBytes is this variant's compressed values and distances.
	StoredBytes            int64   `json:"stored_bytes"`
	StoredBytesPerPosition float64 `json:"stored_bytes_per_position"`
	// Mapped is what --mapped did; absent without it.
	Mapped *mappedResult `json:"mapped,omitempty"`
}

// mappedResult is what build --mapped wrote (tablebase.BuildStats.Mapped).
type mappedResult struct {
	MaxSeeds int   `json:"max_seeds"`
	Written  int   `json:"written_layers"`
	Kept     int   `json:"kept_layers"` // already there and valid
	Bytes    int64 `json:"bytes"`
}

func runBuild(ctx context.Context, out, errOut io.Writer, name string, opts *buildOptions) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	switch {
	case opts.maxSeeds < 0:
		return fmt.Errorf("--max-seeds %d: want 0 or more", opts.maxSeeds)
	}
	if err := checkThreads(opts.threads); err != nil {
		return err
	}
	mem := tablebase.DefaultMemBytes()
	if opts.mem != "" {
		if mem, err = parseSize("--mem", opts.mem); err != nil {
			return err
		}
	}
	if opts.plan {
		return runBuildPlan(out, v, opts, mem)
	}
	collectNear(mem) // the budget covers our arrays
	if err := checkTBDir(opts.tb, false); err != nil {
		return err
	}
	dir := tbDir(opts.tb)
	// Under mpirun or srun (a binary built with -tags mpi) this process is
	// one rank of the build; rank 0 stores and prints, the others print
	// only their errors.
	proc, err := mpi.Join()
	if err != nil {
		return err
	}
	if dir, err = partsDir(proc, opts, dir); err != nil {
		return err
	}
	if proc != nil && opts.mapped {
		return fmt.Errorf("--mapped: a build across processes writes parts; run `mancala build %s --max-seeds %d --tb TB --mapped` after `mancala import`", v.Name, opts.maxSeeds)
	}
	logOut := errOut
	if proc != nil && proc.Rank() != 0 {
		out, logOut = io.Discard, io.Discard
	}
	bar := newLayerBar(logOut, v.Pits, opts.maxSeeds, "build")
	log := &layerLog{w: logOut, bar: bar, ix: tablebase.NewIndex(v.Pits), maxSeeds: opts.maxSeeds}
	bopts := tablebase.BuildOptions{
		MaxSeeds: opts.maxSeeds, Threads: opts.threads, MemBytes: mem,
		Progress: bar.update, LayerStart: log.start, LayerDone: log.done, Repair: opts.repair, Mapped: opts.mapped,
	}
	if proc != nil {
		bopts.Cluster, bopts.Parts = proc, proc.Size()
		bopts.LayerStart = failRankAt(proc.Rank(), log.start)
	}
	stats, err := tablebase.Build(ctx, dir, v, bopts)
	bar.finish()
	if proc != nil {
		err = endRank(ctx, errOut, proc, stats, err)
	}
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
	if err := printBuild(out, res); err != nil || proc == nil {
		return err
	}
	_, err = fmt.Fprintf(out, "the layers are in parts: `mancala import %s --parts %s --tb DIR` puts them into a tablebase\n", v.Name, dir)
	return err
}

// partsDir returns the directory a build stores in: --tb's on one
// machine, --parts' across processes, each refused in the other.
func partsDir(proc mpi.Process, opts *buildOptions, dir string) (string, error) {
	switch {
	case proc == nil && opts.parts != "":
		return "", errors.New("--parts: only a build across processes (under mpirun or srun, a binary built with -tags mpi) writes parts; give --tb")
	case proc == nil:
		return dir, nil
	case opts.parts == "":
		return "", errors.New("a build across processes writes its layers in parts: give --parts DIR, a directory every rank sees, then run `mancala import VARIANT --parts DIR --tb TB`")
	case opts.tb != "":
		return "", errors.New("--tb: a build across processes writes parts (--parts); `mancala import` puts them into the tablebase")
	}
	return opts.parts, nil
}

// layerLog prints a line before and after each layer, on stderr: the
// plan, then the measures and the estimate for the rest of the build.
type layerLog struct {
	w        io.Writer
	bar      *layerBar
	ix       *tablebase.Index
	maxSeeds int
	built    []tablebase.LayerInfo
	now      func() time.Time // nil: time.Now
	// running and since are the layer last started and when: a layer's
	// done line comes when its store ends, while the next layer runs.
	running int
	since   time.Time
}

func (l *layerLog) clock() time.Time {
	if l.now == nil {
		return time.Now()
	}
	return l.now()
}

func (l *layerLog) start(p tablebase.LayerPlan) {
	l.running, l.since = p.Seeds, l.clock()
	l.bar.clear()
	fmt.Fprintln(l.w, planLine(p))
}

// planLine is a layer's plan as the build shows it before the layer.
func planLine(p tablebase.LayerPlan) string {
	disk := ""
	if p.DiskBytes > 0 {
		disk = fmt.Sprintf(", plus %s on disk", humanize.IBytes(uint64(p.DiskBytes)))
	}
	return fmt.Sprintf("layer %d: %s, %s method, needs about %s of %s%s; heap peak about %s", p.Seeds, plural(p.Positions, "position"),
		p.Method, humanize.IBytes(uint64(p.MemBytes)), humanize.IBytes(uint64(p.Budget)), disk, humanize.IBytes(uint64(p.PeakBytes)))
}

// layerPlanJSON is a layer's plan in --plan --json.
type layerPlanJSON struct {
	Seeds     int    `json:"seeds"`
	Positions int64  `json:"positions"`
	Method    string `json:"method"`
	MemBytes  int64  `json:"mem_bytes"`
	DiskBytes int64  `json:"disk_bytes,omitempty"`
	PeakBytes int64  `json:"peak_bytes"`
	Budget    int64  `json:"budget_bytes"`
}

// runBuildPlan prints the plans of the layers 0..--max-seeds at the
// budget mem (tablebase.PlanBuild), then the error of a layer that
// cannot be built, if any.
func runBuildPlan(out io.Writer, v *position.Variant, opts *buildOptions, mem int64) error {
	plans, err := tablebase.PlanBuild(v, tablebase.BuildOptions{MaxSeeds: opts.maxSeeds, Threads: opts.threads, MemBytes: mem})
	if opts.json {
		rows := make([]layerPlanJSON, len(plans))
		for i, p := range plans {
			rows[i] = layerPlanJSON{p.Seeds, p.Positions, p.Method, p.MemBytes, p.DiskBytes, p.PeakBytes, p.Budget}
		}
		if werr := writeJSON(out, rows); werr != nil {
			return werr
		}
		return err
	}
	for _, p := range plans {
		if _, werr := fmt.Fprintln(out, planLine(p)); werr != nil {
			return werr
		}
	}
	return err
}

func (l *layerLog) done(info tablebase.LayerInfo) {
	l.built = append(l.built, info)
	speed := ""
	if info.Seconds > 0 {
		speed = ", " + rate(float64(info.Positions)/info.Seconds)
	}
	l.bar.clear()
	fmt.Fprintf(l.w, "layer %d: done in %.1f s%s (%s, longest forced line %s); %s\n",
		info.Seeds, info.Seconds, speed, info.Method, plural(info.MaxDistance, "ply"),
		remainingNote(info.Seeds, l.maxSeeds, l.remainingSeconds(info.Seeds)))
}

// remainingSeconds estimates the seconds the layers above done still
// take (-1 while there is no estimate), less the time the next layer has
// run already when it started before done's line came, but never less
// than the layers after it.
func (l *layerLog) remainingSeconds(done int) float64 {
	var rest []int64
	for n := done + 1; n <= l.maxSeeds; n++ {
		rest = append(rest, l.ix.Size(n))
	}
	full := tablebase.EstimateSeconds(l.built, rest)
	if full < 0 || len(rest) == 0 || l.running != done+1 {
		return full
	}
	after := tablebase.EstimateSeconds(l.built, rest[1:])
	return max(full-l.clock().Sub(l.since).Seconds(), after)
}

// remainingNote is the tail of a layer's done line: the layers still to
// build after layer done, with the time they should take when secs (the
// estimate, -1 while there is none) is known, or that the build is
// complete.
func remainingNote(done, maxSeeds int, secs float64) string {
	if done >= maxSeeds {
		return "the build is complete"
	}
	layers := fmt.Sprintf("layers %d..%d", done+1, maxSeeds)
	if done+1 == maxSeeds {
		layers = fmt.Sprintf("layer %d", maxSeeds)
	}
	if secs < 0 {
		return layers + " to go"
	}
	return fmt.Sprintf("%s: about %s more", layers, time.Duration(secs*float64(time.Second)).Round(time.Second))
}

// rate writes positions a second (rateOf).
func rate(perSecond float64) string { return rateOf(perSecond, "positions") }

func buildSummary(dir string, v *position.Variant, stats tablebase.BuildStats) (buildResult, error) {
	res := buildResult{Variant: v.Name, Dir: dir, MaxSeeds: stats.MaxSeeds, ResumedLayers: stats.Resumed, DroppedLayers: stats.Dropped,
		BuiltLayers: len(stats.Layers), BuiltPositions: stats.Positions, Seconds: stats.Seconds}
	if m := stats.Mapped; m.MaxSeeds >= 0 {
		res.Mapped = &mappedResult{MaxSeeds: m.MaxSeeds, Written: m.Written, Kept: m.Kept, Bytes: m.Bytes}
	}
	if tv := tablebase.VariantOf(v); tv != v {
		res.TablebaseOf = tv.Name
	}
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
	res.DiskBytes, res.StoredBytes = disk, stats.StoredBytes
	res.DiskTop, res.DiskPositions = stats.DiskTop, stats.DiskPositions
	if res.DiskPositions > 0 {
		// Over every stored layer, those above max_seeds too: their files are in disk.
		res.BytesPerPosition = float64(disk) / float64(res.DiskPositions)
	}
	if res.Positions > 0 {
		res.StoredBytesPerPosition = float64(res.StoredBytes) / float64(res.Positions)
	}
	return res, nil
}

func printBuild(out io.Writer, res buildResult) error {
	fmt.Fprintf(out, "%s: layers 0..%d, %s", res.Variant, res.MaxSeeds, plural(res.Positions, "position"))
	if res.ResumedLayers > 0 {
		fmt.Fprintf(out, " (%s already stored)", plural(int64(res.ResumedLayers), "layer"))
	}
	fmt.Fprintln(out)
	if res.TablebaseOf != "" {
		fmt.Fprintf(out, "stored as %s's tablebase, which every kalah size of the same row length reads\n", res.TablebaseOf)
	}
	if res.DroppedLayers > 0 {
		fmt.Fprintf(out, "repaired: dropped %s (the damaged ones and those above them) and built them again\n", plural(int64(res.DroppedLayers), "layer"))
	}
	if res.BuiltLayers == 0 {
		fmt.Fprintln(out, "nothing to build: every layer asked for was already stored")
	} else {
		fmt.Fprintf(out, "built %s in %.1f s: %s\n",
			plural(res.BuiltPositions, "position"), res.Seconds, rate(res.PositionsPerSecond))
	}
	above, asked := "", ""
	if res.DiskTop > res.MaxSeeds { // the directory holds more than this build asked for
		above = fmt.Sprintf(" (layers 0..%d, %s)", res.DiskTop, plural(res.DiskPositions, "position"))
		asked = fmt.Sprintf(" in layers 0..%d", res.MaxSeeds)
	}
	fmt.Fprintf(out, "%s on disk for %s in %s%s: %.3f bytes/position (%s of compressed values and distances%s)\n",
		humanize.IBytes(uint64(res.DiskBytes)), res.Variant, res.Dir, above, res.BytesPerPosition, humanize.IBytes(uint64(res.StoredBytes)), asked)
	if m := res.Mapped; m != nil {
		fmt.Fprintf(out, "mapped layers 0..%d: %s written, %d already valid, %s on disk; --load-tb maps them\n",
			m.MaxSeeds, plural(int64(m.Written), "layer"), m.Kept, humanize.IBytes(uint64(m.Bytes)))
	}
	return nil
}

// rankFailed is the exit status of a build across processes when a rank
// fails (EX_TEMPFAIL): deploy/slurm/build.sbatch requeues the job on it,
// and the build resumes at the first missing layer.
const rankFailed = 75

// endRank ends this rank's part of a build across processes: after a
// failure it prints the error and aborts every rank with rankFailed;
// after a success rank 0 prints the traffic of the whole job on errOut
// (the bytes every rank sent others in the rounds' exchanges, and in the
// all-to-alls of the captures' lookups and answers), and MPI
// is finalized.
func endRank(ctx context.Context, errOut io.Writer, proc mpi.Process, stats tablebase.BuildStats, err error) error {
	if err != nil {
		fmt.Fprintf(errOut, "mancala: rank %d of %d: %v\n", proc.Rank(), proc.Size(), err)
		proc.Abort(rankFailed)
	}
	tr := proc.Traffic()
	exchanged, err := proc.Sum(ctx, proc.Rank(), tr.Exchanged)
	var lookups int64
	if err == nil {
		lookups, err = proc.Sum(ctx, proc.Rank(), tr.AllToAll)
	}
	if err == nil && proc.Rank() == 0 {
		perPosition := func(bytes int64) float64 {
			if stats.Positions == 0 {
				return 0
			}
			return float64(bytes) / float64(stats.Positions)
		}
		fmt.Fprintf(errOut, "mpi: %d ranks exchanged %s bytes in %d rounds: %.2f bytes a position built; lookups: %s bytes, %.2f a position\n",
			proc.Size(), humanize.Comma(exchanged), tr.Rounds, perPosition(exchanged), humanize.Comma(lookups), perPosition(lookups))
	}
	proc.Finalize()
	return err
}

// failRankAt returns start, or, when MANCALA_FAIL_AT is "RANK:LAYER" and
// this is that rank on a job's first run (SLURM_RESTART_COUNT unset or
// 0), start followed by this process's exit with rankFailed at the start
// of that layer: the fault of the CI's requeue test.
func failRankAt(rank int, start func(tablebase.LayerPlan)) func(tablebase.LayerPlan) {
	failLayer, ok := failLayerOf(rank, os.Getenv("MANCALA_FAIL_AT"), os.Getenv("SLURM_RESTART_COUNT"))
	if !ok {
		return start
	}
	return func(p tablebase.LayerPlan) {
		start(p)
		if p.Seeds == failLayer {
			fmt.Fprintf(os.Stderr, "mancala: rank %d: failing at layer %d (MANCALA_FAIL_AT)\n", rank, failLayer)
			os.Exit(rankFailed)
		}
	}
}

// failLayerOf returns the layer at whose start rank fails, from
// MANCALA_FAIL_AT's value at ("RANK:LAYER") and SLURM_RESTART_COUNT's
// restarts; ok is false when this rank does not fail (another rank, a
// malformed value, or a requeued start).
func failLayerOf(rank int, at, restarts string) (layer int, ok bool) {
	r, l, found := strings.Cut(at, ":")
	failRank, err1 := strconv.Atoi(r)
	layer, err2 := strconv.Atoi(l)
	n, err3 := strconv.Atoi(restarts)
	if !found || err1 != nil || err2 != nil || failRank != rank || restarts != "" && (err3 != nil || n > 0) {
		return 0, false
	}
	return layer, true
}
