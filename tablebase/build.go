package tablebase

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

// Method selects how a layer's moves inside the layer are resolved (see
// doc.go).
type Method int

const (
	// MethodAuto un-sows where the variant allows it (awari, oware), else
	// uses the predecessor graph: in memory when it fits the memory
	// budget, else with its largest arrays in a memory-mapped temporary
	// file (spilled, Linux only); value iteration when none of these fits.
	MethodAuto Method = iota
	// MethodGraph always builds the predecessor graph, spilled to disk
	// when it does not fit in memory (error if even that does not fit).
	MethodGraph
	// MethodIteration always uses value iteration (least memory).
	MethodIteration
	// MethodUnsow generates predecessors by un-sowing instead of storing
	// a graph (build_unsow.go): awari and oware only, about 6 bytes a position.
	MethodUnsow
	// MethodSpill always builds the predecessor graph with its moves and
	// offsets in a memory-mapped temporary file, whatever the budget
	// (error where that is not possible: not Linux, or BuildMemory).
	MethodSpill
	// MethodForward solves each layer in one pass, children first, where
	// no position recurs (kalah; build_forward.go).
	MethodForward
)

// BuildOptions configures Build.
type BuildOptions struct {
	// MaxSeeds is the last layer to build: positions with 0..MaxSeeds
	// seeds on the board (at most the variant's total, and 70).
	MaxSeeds int
	// Threads is the number of worker goroutines; 0 means
	// runtime.GOMAXPROCS(0).
	Threads int
	// MemBytes bounds the bytes of the value arrays, counters and graph
	// held at once (Badger's and the runtime's own memory come on top,
	// some tens of MiB); 0 means DefaultMemBytes(). A budget too small
	// for a layer to build fails before the first layer is built.
	MemBytes int64
	// Method forces a solving method; the zero value chooses by memory.
	Method Method
	// Progress, when not nil, is called as a layer advances: done of
	// total work units of that layer (3 per position). Calls never
	// overlap, and done never decreases within a layer.
	Progress func(layer int, done, total int64)
	// LowerCacheBytes, when above 0, makes the build read the layers
	// below the one it builds from the store through a cache of decoded
	// blocks of this many bytes; 0 keeps them in memory while they fit
	// beside the layer, and switches to such a cache of what the budget
	// leaves when they do not.
	LowerCacheBytes int64
	// Parts, when above 1, splits each layer's propagation into that many
	// rank ranges owned by workers that exchange batched updates, the
	// shape of a build across machines (build_partition.go); 0 or 1 shares the
	// layer's state between the threads, which is faster on one machine.
	Parts int
	// LayerStart, when not nil, is called before each layer is built,
	// with the method and memory expected for it.
	LayerStart func(LayerPlan)
	// LayerDone, when not nil, is called after each layer is stored. A
	// layer is stored while the next one is solved, so that layer's
	// LayerStart comes first; LayerDone comes between two of its Progress
	// calls once the store has finished (or after the layer, if it made
	// none since), never during one.
	LayerDone func(LayerInfo)
	// Repair drops a damaged layer and every layer above it (of this
	// variant and rules version only) and builds them again; without it
	// a damaged layer is an error wrapping ErrDamaged.
	Repair bool
}

// BuildStats describes a Build run.
type BuildStats struct {
	Variant   string
	MaxSeeds  int         // every layer 0..MaxSeeds is stored now
	Resumed   int         // layers found complete in the database and not rebuilt
	Dropped   int         // damaged layers and those above them dropped by Repair
	Layers    []LayerInfo // the layers built by this run
	Positions int64       // positions in the layers built by this run
	Seconds   float64     // wall time of the run
	// StoredBytes is the compressed size of the values and distances of
	// every layer 0..MaxSeeds of this variant (not of the directory, which
	// may hold other variants, and not counting Badger's own overhead).
	StoredBytes int64
	// DiskTop is the top layer of v stored in dir after the run, and
	// DiskPositions the positions of every stored layer of v: the layers
	// whose files DiskBytes counts, which may reach above MaxSeeds when a
	// build asks for fewer layers than the directory holds.
	DiskTop       int
	DiskPositions int64
}

// Build computes v's layers 0..opts.MaxSeeds into the tablebase at dir,
// creating it if needed. Layers already complete there are loaded, not
// rebuilt, so a build interrupted by ctx, an error or a crash resumes
// from its last complete layer. It holds v's layers exclusively: a second
// build of v gets an error wrapping ErrInUse; readers are never blocked.
// A MemBytes too small for a layer's values is an error naming the layer
// and the bytes it needs. A damaged stored layer is an error wrapping
// ErrDamaged unless opts.Repair; too little disk space for a layer is an
// error wrapping syscall.ENOSPC, before the layer is written. A non-empty
// dir that is not a tablebase is refused.
func Build(ctx context.Context, dir string, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1}
	if opts.MaxSeeds < 0 || opts.MaxSeeds > min(v.Total(), maxLayer) {
		return stats, fmt.Errorf("max seeds %d: want 0..%d for %s", opts.MaxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	if err := buildable(v); err != nil {
		return stats, err
	}
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	opts = withDefaults(opts)
	if opts.Repair {
		if err := repairLinks(dir, v); err != nil {
			return stats, err
		}
	}
	s, err := openStore(dir, v, true)
	if err != nil {
		return stats, err
	}
	defer s.close()
	b := &builder{s: s, v: v, ix: NewIndex(v.Pits), opts: opts, movesPerPosition: 3.3}
	if stats.Dropped, err = b.resume(); err != nil {
		return stats, err
	}
	stats.Resumed = len(b.lower)
	stats.MaxSeeds = len(b.lower) - 1
	if err := b.checkBudget(len(b.lower)); err != nil {
		return stats, err
	}
	// Each layer is stored while the next is solved (storePending): the
	// store is mostly waiting on the database writer and the disk.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.stats, b.cancel = &stats, cancel
	b.opts.Progress = b.reportStored(opts.Progress)
	for n := len(b.lower); n <= opts.MaxSeeds; n++ {
		if opts.LayerStart != nil {
			opts.LayerStart(b.plan(n, b.movesPerPosition))
		}
		l, err := b.layer(ctx, n)
		// The layer below is stored, or failed to be, even when this one
		// failed or was interrupted: it counts as built.
		if perr := b.finishStore(); perr != nil {
			return stats, perr
		}
		if err != nil {
			return stats, err
		}
		b.movesPerPosition = float64(l.info.InnerMoves) / float64(l.info.Positions)
		b.startStore(l)
	}
	if err := b.finishStore(); err != nil {
		return stats, err
	}
	stats.Seconds = time.Since(began).Seconds()
	stats.StoredBytes = b.storedBytes
	stats.DiskTop, stats.DiskPositions = -1, 0
	seeds, err := storedLayers(s.vdir)
	for _, n := range seeds {
		stats.DiskTop = max(stats.DiskTop, n)
		stats.DiskPositions += b.ix.Size(n)
	}
	return stats, err
}

// solvedLayer is a layer solved and encoded, ready to store.
type solvedLayer struct {
	info               LayerInfo
	blocks, distBlocks [][]byte
}

// storing is a layer being stored in the background: its put's error
// arrives on done.
type storing struct {
	info LayerInfo
	done chan error
}

// startStore stores l in the background: the Badger writer's process and
// the disk's syncs take a tenth of a second and more a layer, in which the
// build's own threads would wait. A failure cancels the build's context,
// so that the layer being solved stops; finishStore reports the failure.
// There is one such layer at a time, the one below the layer being solved.
func (b *builder) startStore(l solvedLayer) {
	st := &storing{info: l.info, done: make(chan error, 1)}
	go func() {
		err := b.s.putLayer(l.info, l.blocks, l.distBlocks)
		if err != nil {
			err = fmt.Errorf("layer %d: storing: %w", l.info.Seeds, err)
			b.cancel()
		}
		st.done <- err
	}()
	b.storing = st
}

// finishStore waits for the layer being stored, if any, and records it
// as built (recordStored), or returns its error (and returns that error
// again when called after it).
func (b *builder) finishStore() error {
	if st := b.storing; st != nil {
		b.recordStored(st, <-st.done)
	}
	return b.storeErr
}

// pollStore records the layer being stored as built if its put has
// finished, without waiting: it runs before each progress report of the
// layer being solved (reportStored), so that the stored layer's LayerDone
// comes while the next layer is solved rather than after it, a whole
// layer later (22 minutes for oware's layer 30).
func (b *builder) pollStore() {
	if st := b.storing; st != nil {
		select {
		case err := <-st.done:
			b.recordStored(st, err)
		default:
		}
	}
}

// recordStored ends the store of st with its put's error: on success it
// calls LayerDone and counts the layer in the build's statistics.
func (b *builder) recordStored(st *storing, err error) {
	b.storing = nil
	if b.storeErr = err; err != nil {
		return
	}
	info := st.info
	if b.opts.LayerDone != nil {
		b.opts.LayerDone(info)
	}
	b.stats.Layers = append(b.stats.Layers, info)
	b.storedBytes += info.StoredBytes + info.DistanceBytes
	b.stats.Positions += info.Positions
	b.stats.MaxSeeds = info.Seeds
}

// reportStored returns the progress callback of the layers' work: it
// polls the store first (pollStore), then calls progress, if not nil.
// The layer's progress (build_progress.go) makes its calls one at a time,
// and the build's loop touches the store only between layers, when no
// call is running.
func (b *builder) reportStored(progress func(layer int, done, total int64)) func(layer int, done, total int64) {
	return func(layer int, done, total int64) {
		b.pollStore()
		if progress != nil {
			progress(layer, done, total)
		}
	}
}

func withDefaults(opts BuildOptions) BuildOptions {
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	if opts.MemBytes <= 0 {
		opts.MemBytes = DefaultMemBytes()
	}
	return opts
}

// builder carries a Build run from layer to layer.
type builder struct {
	s    *store
	v    *position.Variant
	ix   *Index
	opts BuildOptions
	// lower is the values of the layers done so far, by seed count; a
	// layer not held in memory (read from disk, build_lower.go) is nil.
	lower [][]int8
	// keepValues: the layer being solved keeps its values in lower for
	// the layers above (lowerPlan.keep).
	keepValues bool
	dists      [][]uint16 // their distances, kept only by BuildMemory
	edges      int64      // moves inside the layer just solved
	// storing is the layer being stored while the next is solved (nil:
	// none); stats and cancel are the run's, to record it and to stop the
	// run when storing fails.
	storing  *storing
	storeErr error // storing's failure, once known
	stats    *BuildStats
	cancel   context.CancelFunc

	movesPerPosition float64 // of the last layer built, to plan the next
	storedBytes      int64   // compressed bytes of the layers 0..done
}

// resume loads the complete layers already stored (up to MaxSeeds),
// checking their files and checksums, so the build continues after them.
// With Repair, damage drops the damaged layer and those above it; it
// returns how many layers were dropped.
func (b *builder) resume() (int, error) {
	infos, damage := b.s.layers()
	for _, info := range infos {
		if info.Seeds > b.opts.MaxSeeds {
			break
		}
		values, err := b.s.loadLayer(info)
		if err != nil {
			damage = err
			break
		}
		b.lower = append(b.lower, values)
		b.trimLower()
		b.movesPerPosition = float64(info.InnerMoves) / float64(info.Positions)
		b.storedBytes += info.StoredBytes + info.DistanceBytes
	}
	var dmg *DamageError
	if damage == nil || !errors.As(damage, &dmg) || !b.opts.Repair {
		return 0, damage
	}
	before, err := storedLayers(b.s.vdir)
	if err != nil {
		return 0, err
	}
	if err := b.s.checkDroppable(dmg.Seeds); err != nil {
		return 0, err
	}
	if err := b.s.dropFrom(dmg.Seeds); err != nil {
		return 0, fmt.Errorf("repairing %s: %w", b.s.dir, err)
	}
	after, err := storedLayers(b.s.vdir)
	return len(before) - len(after), err
}

// layer solves and keeps layer n, and returns it to store.
func (b *builder) layer(ctx context.Context, n int) (solvedLayer, error) {
	began := time.Now()
	size := b.ix.Size(n)
	if size >= 1<<32 {
		return solvedLayer{}, fmt.Errorf("layer %d: %d positions, more than this builder indexes (2^32)", n, size)
	}
	defer b.boundHeap(b.plan(n, b.movesPerPosition).PeakBytes)()
	res, err := b.solve(ctx, n, size)
	if err != nil {
		return solvedLayer{}, fmt.Errorf("layer %d: %w", n, err)
	}
	enc, err := encodeLayer(ctx, b.s.codec, b.opts.Threads, res, b.keepValues)
	method, rounds := res.method, res.rounds
	res = solved{} // the state is dead now: let the collector have it
	if err != nil {
		return solvedLayer{}, fmt.Errorf("layer %d: %w", n, err)
	}
	blocks, distBlocks, values := enc.blocks, enc.distBlocks, enc.values
	info := LayerInfo{
		Variant: b.v.Name, RulesVersion: int(b.v.RulesVersion()), Seeds: n,
		Positions: size, BlockSize: BlockSize, Blocks: len(blocks),
		Checksum: enc.checksum, StoredBytes: enc.stored,
		InnerMoves: b.edges, Method: method, BuiltAt: began.UTC(), ToolVersion: ToolVersion,
		Seconds: time.Since(began).Seconds(), Format: Format,
		DistanceChecksum: enc.distChecksum, DistanceBytes: enc.distStored, MaxDistance: enc.maxDistance,
		Rounds: rounds,
	}
	if !b.keepValues {
		values = nil // the layers above read it from disk, if at all
	}
	b.lower = append(b.lower, values)
	debug.FreeOSMemory() // return the layer's scratch arrays before the next, larger one
	return solvedLayer{info: info, blocks: blocks, distBlocks: distBlocks}, nil
}

// solve computes layer n's values and distances, choosing the method by
// the budget.
func (b *builder) solve(ctx context.Context, n int, size int64) (solved, error) {
	// The least any method needs (checked for every layer before the
	// first, so this is only a safeguard).
	if base := b.leastLayerBytes(n); base > b.opts.MemBytes {
		return solved{}, fmt.Errorf("a memory budget of %d bytes is too small: this layer needs at least %d", b.opts.MemBytes, base)
	}
	plan := b.planLower(n, int64(iterationBytes*float64(size)))
	split := false
	if b.useUnsow(n) {
		plan = b.planLower(n, unsowOwnBytes(size))
		if p, ok := b.splitScan(n); ok {
			plan, split = p, true
		}
	} else if b.useForward(n) {
		plan = b.planLower(n, forwardOwnBytes(size))
	}
	b.keepValues = plan.keep
	lower, disk, err := b.lowerSource(n, plan)
	if err != nil {
		return solved{}, err
	}
	res, err := b.solveWith(ctx, n, size, lower, split)
	if err == nil && disk != nil {
		err = disk.err()
	}
	return res, err
}

// solveWith is solve once the lower layers' source is chosen; split:
// un-sowing with two scans (splitScan).
func (b *builder) solveWith(ctx context.Context, n int, size int64, lower lowerValues, split bool) (solved, error) {
	if b.opts.Method == MethodUnsow && !canUnsow(b.v) {
		return solved{}, fmt.Errorf("%s cannot be built by un-sowing (awari and oware only)", b.v.Name)
	}
	if b.useForward(n) || b.opts.Method == MethodForward {
		return b.solveForward(ctx, n, size, lower)
	}
	base := b.minLayerBytes(n)
	s := &layerSolver{v: b.v, ix: b.ix, n: n, size: size, lower: lower,
		threads: b.opts.Threads, prog: newProgress(n, size, b.opts.Progress), partitions: b.opts.Parts,
		spillPath: b.spillPath(n)}
	if b.useUnsow(n) {
		return b.solveUnsow(ctx, s, split)
	}
	// The graph method's peak (graphLayerBytes): the per-part counters
	// with start and from while reversing, then start, from, the
	// propagation state, values and distances; from and start may go to
	// disk (placeGraph), the counters may not.
	parts := int64(s.parts())
	var indeg [][]uint16
	if b.opts.Method != MethodIteration && base+2*parts*size <= b.opts.MemBytes {
		for range parts {
			indeg = append(indeg, make([]uint16, size))
		}
	}
	if err := s.scan(ctx, indeg); err != nil {
		return solved{}, err
	}
	b.edges = s.edges
	graphBytes := graphLayerBytes(base, size, s.edges, s.keeps, parts)
	place, fits := b.placeGraph(graphBytes, 4*s.edges, 4*(size+1))
	if indeg != nil && s.edges < 1<<32 && fits {
		return solveGraph(ctx, s, indeg, place)
	}
	switch b.opts.Method {
	case MethodSpill:
		if !b.canSpill() {
			return solved{}, fmt.Errorf("the graph cannot be spilled to disk here (Linux and a tablebase directory only)")
		}
		fallthrough
	case MethodGraph:
		return solved{}, fmt.Errorf("a memory budget of %d bytes is too small for the graph method: it needs %d (%d with the graph on disk)", b.opts.MemBytes, graphBytes, place.ram)
	}
	values, dist, err := s.iterate(ctx)
	return solved{values: values, dist: dist, method: "iteration"}, err
}

// solveUnsow solves s's layer by un-sowing: a scan filling the exits and
// the counts (into the propagation state), then the propagation, which
// reads no lower layer. Split (splitScan), the exits are scanned first,
// the lower layers then dropped from memory (the layers above read them
// back), and the counts scanned after.
func (b *builder) solveUnsow(ctx context.Context, s *layerSolver, split bool) (solved, error) {
	if split {
		s.pass = scanExits
		if err := s.scan(ctx, nil); err != nil {
			return solved{}, err
		}
		s.lower = nil
		clear(b.lower)
		debug.FreeOSMemory() // before the state, the largest array, is allocated
		s.pass = scanCounts
	}
	s.state = make([]uint32, s.size) // scan writes the counts into it
	hugepage.Advise(s.state)
	if err := s.scan(ctx, nil); err != nil {
		return solved{}, err
	}
	b.edges = s.edges
	s.prog.reach(2 * s.size) // no reverse pass
	state, err := s.propagateLayer(ctx, nil)
	return solved{state: state, method: "unsow", rounds: s.rounds}, err
}

// useUnsow reports whether layer n is solved by un-sowing: asked for, or
// chosen by MethodAuto where the variant allows it and it fits.
func (b *builder) useUnsow(n int) bool {
	switch b.opts.Method {
	case MethodUnsow:
		return true // solveWith refuses a variant that cannot un-sow
	case MethodAuto:
		return canUnsow(b.v) && b.unsowLayerBytes(n) <= b.opts.MemBytes
	}
	return false
}

// MaxLayerPositions bounds the positions of one layer that Build indexes
// (ranks are 32-bit); a layer this large cannot be built.
const MaxLayerPositions = 1 << 32

// spillPath is the temporary file of layer n's graph: in the variant's
// directory, named like a staging directory so that a build started
// after a crash deletes it (removeLeftovers) should it still exist.
func (b *builder) spillPath(n int) string {
	if b.s == nil {
		return ""
	}
	return filepath.Join(b.s.vdir, fmt.Sprintf("%s%02d.graph", stagePrefix, n))
}

// lowerSum returns the bytes of layers 0..n-1's values.
func (b *builder) lowerSum(n int) int64 {
	total := int64(0)
	for m := 0; m < n; m++ {
		total += b.ix.Size(m)
	}
	return total
}

// lowerPlan is how layer n reads the finished layers below it.
type lowerPlan struct {
	inMem []bool // inMem[m]: layer m's values are held in memory while n is built
	held  int64  // the bytes of the layers held
	cache int64  // the block cache of the layers read from disk; 0 when none is
	keep  bool   // layer n's values are kept in memory for the layers above
}

func (p lowerPlan) bytes() int64 { return p.held + p.cache }
func (p lowerPlan) disk() bool   { return p.cache > 0 }

// planLower plans the lower layers for layer n, whose own arrays take own
// bytes: n's values are kept too (one byte a position more) when a layer
// up to MaxSeeds reads them and everything n reads then still fits in
// memory. Without a store every layer is held and kept.
func (b *builder) planLower(n int, own int64) lowerPlan {
	size := b.ix.Size(n)
	if b.s == nil {
		return b.placeLower(n, own+size, true)
	}
	if n+b.v.LeastCapture() <= b.opts.MaxSeeds {
		if p := b.placeLower(n, own+size, true); !p.disk() {
			return p
		}
	}
	return b.placeLower(n, own, false)
}

// placeLower places the layers below n beside own bytes of n's arrays:
// all of them in memory when they fit (or there is no store); else, of
// the layers a move of n can reach (up to n-LeastCapture), the highest in
// memory as far as they fit with the least cache beside them (captures of
// few seeds, the most frequent, read those) and the rest from disk through
// a block cache of what the budget leaves (at least minLowerCache, at
// most the layers it caches). BuildOptions.LowerCacheBytes, when set,
// reads every reachable layer from disk through a cache of that size.
func (b *builder) placeLower(n int, own int64, keep bool) lowerPlan {
	p := lowerPlan{inMem: make([]bool, n), keep: keep}
	reach := n - b.v.LeastCapture()
	reachable := b.lowerSum(reach + 1)
	switch all := b.lowerSum(n); {
	case b.s == nil || b.opts.LowerCacheBytes <= 0 && own+all <= b.opts.MemBytes:
		for m := range p.inMem {
			p.inMem[m] = true
		}
		p.held = all
		return p
	case b.opts.LowerCacheBytes > 0:
		p.cache = min(reachable, b.opts.LowerCacheBytes)
		return p
	}
	avail := b.opts.MemBytes - own
	for m := reach; m >= 0 && p.held+b.ix.Size(m)+minLowerCache <= avail; m-- {
		p.inMem[m], p.held = true, p.held+b.ix.Size(m)
	}
	if rest := reachable - p.held; rest > 0 {
		p.cache = min(rest, max(avail-p.held, minLowerCache))
	}
	return p
}

// lowerSource returns the lower layers for layer n as plan p places them:
// it drops from memory the layers p does not hold, reads back from the
// store those it holds that an earlier layer dropped and n can reach, and
// opens a block cache on the store for the rest.
func (b *builder) lowerSource(n int, p lowerPlan) (lowerValues, *diskLower, error) {
	reach := n - b.v.LeastCapture()
	for m, held := range p.inMem {
		if !held {
			b.lower[m] = nil
		}
		p.inMem[m] = held && (m <= reach || b.lower[m] != nil) // an unreachable layer is not read back
	}
	reload := false
	for m, held := range p.inMem {
		reload = reload || held && b.lower[m] == nil
	}
	if !reload && !p.disk() {
		return memLower(b.lower), nil, nil
	}
	// The layers below are read from the store: the last must be in it.
	if err := b.finishStore(); err != nil {
		return nil, nil, err
	}
	infos, err := b.s.layers()
	if err != nil {
		return nil, nil, err
	}
	infos = complete(infos)
	for m, held := range p.inMem {
		if held && b.lower[m] == nil {
			if b.lower[m], err = b.s.loadLayer(infos[m]); err != nil {
				return nil, nil, err
			}
		}
	}
	if !p.disk() {
		return memLower(b.lower), nil, nil
	}
	d := newDiskLower(b.s, infos[:n], p.cache)
	return tieredLower{mem: b.lower, disk: d}, d, nil
}

// trimLower drops from memory the lowest layers held while those held
// take more than half the budget (a resumed build: the layers above read
// them from disk, and the highest, which captures of few seeds read most,
// stay).
func (b *builder) trimLower() {
	held := int64(0)
	for m, values := range b.lower {
		if values != nil {
			held += b.ix.Size(m)
		}
	}
	for m := 0; m < len(b.lower) && held > b.opts.MemBytes/2; m++ {
		if b.lower[m] != nil {
			b.lower[m], held = nil, held-b.ix.Size(m)
		}
	}
}

// unsowOwnBytes is the memory of a layer of size positions by un-sowing,
// its values not kept (unsowBytes).
func unsowOwnBytes(size int64) int64 { return int64(math.Ceil(unsowBytes * float64(size))) }

// unsowMemory returns layer n's memory by un-sowing: its own arrays (its
// values kept for the layers above included), the lower layers' share
// (planLower), and whether some of those are read from disk.
//
// A layer whose scan is split (splitScan) peaks either in its first scan
// (the exits and terminal bits beside the lower layers) or after it (the
// propagation arrays, the lower layers dropped): own is the larger, and
// lower is 0.
func (b *builder) unsowMemory(n int) (own, lower int64, disk bool) {
	if p, ok := b.splitScan(n); ok {
		size := b.ix.Size(n)
		return max(unsowOwnBytes(size), scanExitBytes(size)+p.bytes()), 0, false
	}
	return b.layerMemory(n, unsowOwnBytes)
}

// scanExitBytes is the memory of the exits-only scan of a layer of size
// positions: its exits and terminal bits.
func scanExitBytes(size int64) int64 { return size + (size+63)/64*8 }

// splitScan reports whether layer n, by un-sowing, scans twice: the exits
// first, with the lower layers in memory (p places them), then, the lower
// layers dropped, the counts into the propagation state. It does when the
// one scan for both would read lower layers from disk beside the state and
// the exits' scan holds all it reads: through the block cache a capture's
// child is a cache miss and a block decoded (awari's layer 30 on 2 cores
// and an 18 GiB budget scanned about a quarter of its positions in 3.5 h,
// layer 29, all held, took 16 min), while the second scan only generates
// moves again. Its values are not kept (the next layer reads them back).
func (b *builder) splitScan(n int) (p lowerPlan, ok bool) {
	if b.s == nil || b.opts.LowerCacheBytes > 0 {
		return lowerPlan{}, false
	}
	size := b.ix.Size(n)
	if !b.planLower(n, unsowOwnBytes(size)).disk() {
		return lowerPlan{}, false
	}
	p = b.placeLower(n, scanExitBytes(size), false)
	return p, !p.disk()
}

// layerMemory returns layer n's own bytes by a method whose arrays take
// ownBytes(size) (one byte a position more when its values are kept), the
// lower layers' share (planLower) and whether some are read from disk.
func (b *builder) layerMemory(n int, ownBytes func(int64) int64) (own, lower int64, disk bool) {
	own = ownBytes(b.ix.Size(n))
	p := b.planLower(n, own)
	if p.keep {
		own += b.ix.Size(n)
	}
	return own, p.bytes(), p.disk()
}

// unsowLayerBytes is the memory of layer n by un-sowing.
func (b *builder) unsowLayerBytes(n int) int64 {
	own, lower, _ := b.unsowMemory(n)
	return own + lower
}

// minLayerBytes is the least memory layer n needs: the layers below it
// (in memory, or the least cache of them) and the iteration method's
// arrays.
func (b *builder) minLayerBytes(n int) int64 {
	own := int64(math.Ceil(iterationBytes * float64(b.ix.Size(n))))
	lower := b.planLower(n, own).bytes()
	if b.s != nil {
		lower = min(lower, b.lowerSum(n), minLowerCache)
	}
	return lower + own
}

// leastLayerBytes is the least memory any method allowed for layer n
// needs: iteration's (minLayerBytes), or un-sowing's with the smallest
// cache of lower layers where the variant un-sows.
func (b *builder) leastLayerBytes(n int) int64 {
	need := b.minLayerBytes(n)
	if canUnsow(b.v) && (b.opts.Method == MethodAuto || b.opts.Method == MethodUnsow) {
		own, lower, disk := b.unsowMemory(n)
		if disk {
			lower = min(lower, minLowerCache)
		}
		need = min(need, own+lower)
	}
	if b.useForward(n) {
		own, lower, disk := b.forwardMemory(n)
		if disk {
			lower = min(lower, minLowerCache)
		}
		need = min(need, own+lower)
	}
	return need
}

// checkBudget fails, before any layer is built, when the budget is too
// small for a layer from..MaxSeeds, naming the first such layer and the
// bytes it needs.
func (b *builder) checkBudget(from int) error {
	for n := from; n <= b.opts.MaxSeeds; n++ {
		if need := b.leastLayerBytes(n); need > b.opts.MemBytes {
			return fmt.Errorf("layer %d: a memory budget of %d bytes is too small: this layer needs at least %d", n, b.opts.MemBytes, need)
		}
	}
	return nil
}

// plan predicts layer n's method and memory, taking the moves a position
// from the last layer built (3.3 for awari when nothing is known).
func (b *builder) plan(n int, movesPerPosition float64) LayerPlan {
	p := b.planArrays(n, movesPerPosition)
	p.PeakBytes = heapPeak(p.MemBytes)
	return p
}

// planArrays is plan without the peak: the method and its arrays.
func (b *builder) planArrays(n int, movesPerPosition float64) LayerPlan {
	size := b.ix.Size(n)
	p := LayerPlan{Seeds: n, Positions: size, Budget: b.opts.MemBytes, Method: "iteration", MemBytes: b.minLayerBytes(n)}
	if b.useUnsow(n) {
		p.Method, p.MemBytes = "unsow", b.unsowLayerBytes(n)
		return p
	}
	if b.useForward(n) {
		own, lower, _ := b.forwardMemory(n)
		p.Method, p.MemBytes = "forward", own+lower
		return p
	}
	if b.opts.Method == MethodIteration {
		return p
	}
	edges := int64(movesPerPosition * float64(size))
	graph := graphLayerBytes(p.MemBytes, size, edges, 0, int64(min(b.opts.Threads, maxParts)))
	place, fits := b.placeGraph(graph, 4*edges, 4*(size+1))
	if fits || b.opts.Method == MethodGraph || b.opts.Method == MethodSpill {
		p.Method, p.MemBytes, p.DiskBytes = place.method(), place.ram, place.disk
	}
	return p
}

// boundHeap bounds the Go heap while layer n is built: the collector runs
// when the heap has grown by a quarter over what is live (rather than
// doubled, Go's default), and the runtime's soft memory limit is lowered to
// limit, the layer's planned peak (heapPeak), when that is below the limit
// set already. It returns the function that restores both. Without it the dead frontiers of the propagation make the
// peak RSS about double the plan. (Badger's memory-mapped files come on
// top in the RSS: about the size of the tablebase, reclaimable page cache.)
func (b *builder) boundHeap(limit int64) func() {
	prevPercent := debug.SetGCPercent(25)
	prev := debug.SetMemoryLimit(-1)
	if limit < prev {
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetMemoryLimit(prev)
		debug.SetGCPercent(prevPercent)
	}
}

// heapPeak is the Go heap a layer whose arrays take planned bytes is
// expected to reach: the arrays, an eighth more for the frontier lists of
// the propagation (live and not yet collected), and heapFixed. Measured
// (RssAnon, the process's anonymous memory, sampled every 10 s) on oware
// to 30 at the default budget: layer 29 planned 18.39 GiB, peaked at
// 18.40; layer 30 planned 17.09 GiB, peaked at 17.18.
func heapPeak(planned int64) int64 { return planned + planned/8 + heapFixed }

// heapFixed is the heap a build holds besides its plan: the runtime, the
// store's tables and caches, the block encoders, some 50 MiB whatever the
// layer (GODEBUG=gctrace=1). With 32 MiB the limit of a small layer sat
// below what was live, and the collector ran without pause: 699
// collections and 17% of the CPU of `build awari --max-seeds 14`.
const heapFixed = 128 << 20

// canSpill reports whether this build may put graph arrays in a file:
// on Linux, with a tablebase directory for the file (not BuildMemory),
// unless the method is forced to something else.
func (b *builder) canSpill() bool {
	m := b.opts.Method
	return spillSupported && b.s != nil && (m == MethodAuto || m == MethodGraph || m == MethodSpill)
}

// placeGraph places a graph layer that needs inMem bytes with its whole
// graph in memory, fromBytes of them the moves' array and startBytes the
// offsets': in memory when that fits the budget, else with the moves and
// then also the offsets in a temporary file, the first that fits
// (MethodSpill: always both in the file). ok is false when none fits;
// the placement returned then is the last one tried.
func (b *builder) placeGraph(inMem, fromBytes, startBytes int64) (p graphPlacement, ok bool) {
	first, last := spillNone, spillNone
	if b.canSpill() {
		last = spillBoth
	}
	if b.opts.Method == MethodSpill {
		first = spillBoth
	}
	for level := first; level <= last; level++ {
		p = graphPlacement{spill: level, ram: inMem}
		if level >= spillFrom {
			p.ram, p.disk = p.ram-fromBytes, p.disk+fromBytes
		}
		if level >= spillBoth {
			p.ram, p.disk = p.ram-startBytes, p.disk+startBytes
		}
		if p.ram <= b.opts.MemBytes {
			return p, true
		}
	}
	return p, false
}

// solveGraph resolves the layer on its predecessor graph, reversed from
// the in-degrees indeg counted by scan and placed as place says. The
// graph's temporary file, if any, is unmapped (and so removed) before it
// returns, on an error too; munmap's error is returned when nothing else
// failed.
func solveGraph(ctx context.Context, s *layerSolver, indeg [][]uint16, place graphPlacement) (res solved, err error) {
	g, err := s.newGraph(place.spill)
	if err != nil {
		return solved{}, err
	}
	defer func() {
		if rerr := g.release(); err == nil && rerr != nil {
			res, err = solved{}, fmt.Errorf("releasing the spilled graph: %w", rerr)
		}
	}()
	if err := s.reverse(ctx, g, indeg); err != nil {
		return solved{}, err
	}
	indeg = nil
	debug.FreeOSMemory() // the counters are dead now: collect them to keep the peak down
	state, err := s.propagateLayer(ctx, g)
	return solved{state: state, method: place.method(), rounds: s.rounds}, err
}

// useForward reports whether layer n is solved by the forward pass: the
// automatic choice for a variant without repetition (it needs the least
// memory of all methods), or asked for.
func (b *builder) useForward(n int) bool {
	switch b.opts.Method {
	case MethodAuto, MethodForward:
		return canForward(b.v)
	}
	return false
}

// forwardMemory returns layer n's own bytes by the forward pass, and the
// lower layers' share and whether they are read from disk.
func (b *builder) forwardMemory(n int) (own, lower int64, disk bool) {
	return b.layerMemory(n, forwardOwnBytes)
}

// forwardOwnBytes is the memory of a layer of size positions by the
// forward pass, its values not kept (forwardBytes).
func forwardOwnBytes(size int64) int64 { return int64(forwardBytes*float64(size)) + forwardFixed }

// solveForward is solveWith for the forward pass.
func (b *builder) solveForward(ctx context.Context, n int, size int64, lower lowerValues) (solved, error) {
	if !canForward(b.v) {
		return solved{}, fmt.Errorf("%s cannot be built by the forward pass (its positions can recur)", b.v.Name)
	}
	s := &layerSolver{v: b.v, ix: b.ix, n: n, size: size, lower: lower,
		threads: b.opts.Threads, prog: newProgress(n, size, b.opts.Progress)}
	state, err := s.forward(ctx)
	b.edges = s.edges
	return solved{state: state, method: "forward", rounds: s.rounds}, err
}

// Buildable returns nil when v has tablebases, else the error Build gives
// before any work: a variant whose repetitions are not worth 0
// (oware-own), where retrograde analysis would value play that stays in a
// layer forever at 0 while there the value of a repetition depends on the
// position repeated.
func Buildable(v *position.Variant) error { return buildable(v) }

func buildable(v *position.Variant) error {
	if v.Repetition != position.RepetitionNobody {
		return fmt.Errorf("%s: no tablebase: a repetition gives each player their own row, which retrograde analysis (endless play worth 0) does not value", v.Name)
	}
	return nil
}
