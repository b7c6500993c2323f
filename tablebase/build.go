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
	// Parts, when above 1, builds each layer in that many parts (method
	// "unsow-parts" or "graph-parts"): each part a goroutine owning a
	// block-aligned range of the layer, which it scans and propagates,
	// exchanging batched updates with the others, the shape of a build
	// across machines (build_partition.go); 0 or 1 shares the layer's
	// state between the threads, which is faster on one machine. The
	// forward pass and value iteration ignore it.
	Parts int
	// Cluster, when not nil, makes this process one rank of a build
	// across processes (MPI ranks, build_cluster.go): Parts must equal
	// Cluster.Size(), and this process scans, propagates and holds only
	// part Cluster.Rank() of each layer, asking the others for the
	// captures' values; only un-sowing is split so (awari, oware: another
	// variant or a forced method is refused). dir is then the build's
	// parts (a directory every rank sees, parts.go): each rank writes its
	// range of every layer there, rank 0 the layers' metadata; Import puts
	// them into a tablebase.
	Cluster Cluster
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
	// Mapped also writes the mapped form (WriteMapped) of layers
	// 0..MaxSeeds, keeping the valid files: a resumed layer's from the
	// values the resume reads anyway when layers are built above it,
	// otherwise decoded after the build (as WriteMapped does). Not with
	// Cluster.
	Mapped bool
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
	// Mapped is what BuildOptions.Mapped wrote (MaxSeeds -1 without it).
	Mapped MappedStats
	// heldBytes is the most bytes of a layer's arrays and lower layers'
	// values this process held (noteHeld): counted, not measured.
	heldBytes int64
}

// Build computes v's layers 0..opts.MaxSeeds into the tablebase at dir,
// creating it if needed. Layers already complete there are loaded, not
// rebuilt, so a build interrupted by ctx, an error or a crash resumes
// from its last complete layer. It holds v's layers exclusively: a second
// build of v gets an error wrapping ErrInUse; readers are never blocked.
// A layer that cannot be built is refused before the directory is
// opened (chooseMethod): a MemBytes too small for it (naming the layer
// and the memory it needs in human units), more than MaxLayerPositions
// positions (across processes: a rank's range of more, naming the ranks
// the layer needs), or a forced Method that cannot solve v. A damaged stored layer is an error wrapping
// ErrDamaged unless opts.Repair; too little disk space for a layer is an
// error wrapping syscall.ENOSPC, before the layer is written. A non-empty
// dir that is not a tablebase is refused.
func Build(ctx context.Context, dir string, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1, Mapped: MappedStats{MaxSeeds: -1}}
	if opts.MaxSeeds < 0 || opts.MaxSeeds > min(v.Total(), maxLayer) {
		return stats, fmt.Errorf("max seeds %d: want 0..%d for %s", opts.MaxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	if err := buildable(v); err != nil {
		return stats, err
	}
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	opts = withDefaults(opts)
	if err := checkCluster(opts); err != nil {
		return stats, err
	}
	if opts.Cluster != nil {
		return buildRank(ctx, dir, v, opts)
	}
	b := &builder{stored: true, v: v, ix: NewIndex(v.Pits), opts: opts, movesPerPosition: 3.3}
	// Every layer's method and memory are checked before the store is
	// opened: a layer that cannot be built is refused before any work.
	if err := b.checkLayers(0); err != nil {
		return stats, err
	}
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
	b.s = s
	if stats.Dropped, err = b.resume(); err != nil {
		return stats, err
	}
	stats.Resumed = len(b.lower)
	stats.MaxSeeds = len(b.lower) - 1
	// Each layer is stored while the next is solved (storePending): the
	// store is mostly waiting on the database writer and the disk.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.stats, b.cancel = &stats, cancel
	b.opts.Progress = b.reportStored(opts.Progress)
	for n := len(b.lower); n <= opts.MaxSeeds; n++ {
		p, err := b.choose(n, b.movesPerPosition)
		if err != nil {
			return stats, err
		}
		if opts.LayerStart != nil {
			opts.LayerStart(p.LayerPlan)
		}
		if n == opts.MaxSeeds {
			// The top layer is the build's peak: its arrays take the
			// memory of the blocks of the layer below, stored first
			// (kalah to 20: 236 MiB of RSS at most, 210 with the wait).
			if err := b.finishStore(); err != nil {
				return stats, err
			}
		}
		l, err := b.layer(ctx, p)
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
	if opts.Mapped {
		infos, err := s.layers()
		if err != nil {
			return stats, err
		}
		if stats.Mapped, err = s.writeMappedLayers(ctx, infos[:opts.MaxSeeds+1], opts.Threads, b.mappedNow); err != nil {
			return stats, err
		}
	}
	stats.Seconds = time.Since(began).Seconds()
	stats.heldBytes = b.heldBytes
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
// calls LayerDone and counts the layer in the build's statistics. The
// stored blocks' memory goes back to the system at once: the runtime
// would keep it for the heap's growth, beside the next layer's arrays
// (28 MB of kalah's layer 19 beside the values of layer 20).
func (b *builder) recordStored(st *storing, err error) {
	b.storing = nil
	debug.FreeOSMemory()
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
	s *store
	// stored: a store backs the build (Build), though s is opened only
	// once every layer is checked (checkLayers).
	stored bool
	v      *position.Variant
	ix     *Index
	opts   BuildOptions
	// lower is the values of the layers done so far, by seed count; a
	// layer not held in memory (read from disk, build_lower.go) or held
	// packed is nil.
	lower [][]int8
	// packed holds, beside lower, the layers the forward pass keeps
	// packed (packValues); when it is shorter, the layers above it hold
	// none.
	packed []packedValues
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

	// own is, in a build across processes, this rank's range of every
	// layer built or resumed (ownRange), by seed count (lower then holds
	// nils); parts is the build's parts (parts.go). Both nil on one
	// machine.
	own       [][]int8
	parts     *partsDir
	heldBytes int64 // noteHeld
	// mappedNow: the layers whose mapped file the resume wrote
	// (BuildOptions.Mapped).
	mappedNow map[int]bool
}

// resume loads the complete layers already stored (up to MaxSeeds),
// checking their files and checksums, so the build continues after them.
// With Repair, damage drops the damaged layer and those above it; it
// returns how many layers were dropped.
func (b *builder) resume() (int, error) {
	infos, damage := b.s.layers()
	// With every layer asked for stored, none is built above them: each
	// is checked and let go, not kept (kalah to 30 held 18.8 GB to build
	// nothing). A repair may rebuild layers, which read those below.
	nothingToBuild := len(infos) > b.opts.MaxSeeds && !b.opts.Repair
	for _, info := range infos {
		if info.Seeds > b.opts.MaxSeeds {
			break
		}
		if nothingToBuild {
			// Nothing needs the values: the layer is checked a block at a
			// time, or, when its mapped file is to be written, by that
			// writing (writeMapped checks what it decodes).
			if !b.opts.Mapped || mappedValid(b.s.vdir, info) {
				if err := b.s.scanLayer(info, func([]int8) {}); err != nil {
					damage = err
					break
				}
			}
			b.lower = append(b.lower, nil)
			b.storedBytes += info.StoredBytes + info.DistanceBytes
			continue
		}
		values, err := b.s.loadLayer(info)
		if err != nil {
			damage = err
			break
		}
		if err := b.mapResumed(info, values); err != nil {
			return 0, err
		}
		b.keep(info.Seeds, values, canForward(b.v))
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

// layer solves and keeps the layer p plans, and returns it to store.
func (b *builder) layer(ctx context.Context, p methodPlan) (solvedLayer, error) {
	began := time.Now()
	n, size := p.Seeds, p.Positions
	defer b.boundHeap(p.PeakBytes, gcPercent(p.method))()
	res, err := p.method.solve(ctx, b, p)
	if err != nil {
		return solvedLayer{}, fmt.Errorf("layer %d: %w", n, err)
	}
	enc, err := encodeLayer(ctx, b.s.codec, b.opts.Threads, &res, b.keepValues)
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
	b.keep(n, values, method == "forward")
	values = nil
	debug.FreeOSMemory() // return the layer's scratch arrays before the next, larger one
	return solvedLayer{info: info, blocks: blocks, distBlocks: distBlocks}, nil
}

// keep appends layer n's values (nil: not held) to the lower layers, for
// the forward pass packed (packValues) when they have its form: the
// layers above read them there.
func (b *builder) keep(n int, values []int8, forward bool) {
	var p packedValues
	if forward && values != nil {
		if packed, ok := packValues(values, n); ok {
			p, values = packed, nil
		}
	}
	b.lower = append(b.lower, values)
	b.packed = append(b.packed, p)
}

// holds reports whether layer m's values are in memory, as int8s or
// packed.
func (b *builder) holds(m int) bool {
	return b.lower[m] != nil || m < len(b.packed) && b.packed[m].held()
}

// drop lets go of layer m's values in memory.
func (b *builder) drop(m int) {
	b.lower[m] = nil
	if m < len(b.packed) {
		b.packed[m] = packedValues{}
	}
}

// dropLower lets go of every lower layer held in memory and returns
// their memory to the system: the top layer's forward pass calls it after
// its exit pass, so that its distances take the lower layers' place.
func (b *builder) dropLower() {
	for m := range b.lower {
		b.drop(m)
	}
	debug.FreeOSMemory()
}

// unpackLower turns the packed lower layers back into int8s, for a method
// other than the forward pass.
func (b *builder) unpackLower() {
	for m := range b.packed {
		if p := &b.packed[m]; p.held() {
			b.lower[m], *p = p.unpack(b.ix.Size(m)), packedValues{}
		}
	}
}

// solve computes layer n's values and distances by the method chosen for
// it (chooseMethod), as BuildMemory does.
func (b *builder) solve(ctx context.Context, n int) (solved, error) {
	p, err := b.choose(n, b.movesPerPosition)
	if err != nil {
		return solved{}, err
	}
	return p.method.solve(ctx, b, p)
}

// choose is chooseMethod for layer n, with the heap's expected peak.
func (b *builder) choose(n int, movesPerPosition float64) (methodPlan, error) {
	p, err := chooseMethod(b.shape(n, movesPerPosition))
	p.PeakBytes = heapPeak(p.MemBytes)
	return p, err
}

// MaxLayerPositions bounds the positions of one layer that one machine's
// build solves: inside a layer (the propagation state's frontiers, the
// predecessors, the graph) ranks are 32-bit, half the memory of 64-bit
// ones. For six pits a row layer 31 (4,280,561,376 positions) is the
// last under it; a larger layer is refused before any work
// (chooseMethod) and is built across machines, where each part's ranks
// are relative to its range (docs/distributed-build.md). Index and the
// lower layers' look-ups rank in 64 bits, up to C(60,12) at 48 seeds.
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

// lowerPlan is how layer n reads the finished layers below it.
type lowerPlan struct {
	inMem []bool // inMem[m]: layer m's values are held in memory while n is built
	held  int64  // the bytes of the layers held
	cache int64  // the block cache of the layers read from disk; 0 when none is
	keep  bool   // layer n's values are kept in memory for the layers above
}

func (p lowerPlan) bytes() int64 { return p.held + p.cache }
func (p lowerPlan) disk() bool   { return p.cache > 0 }

// lowerSource returns the lower layers for layer n as plan p places them:
// it drops from memory the layers p does not hold, reads back from the
// store those it holds that an earlier layer dropped and n can reach, and
// opens a block cache on the store for the rest.
func (b *builder) lowerSource(n int, p lowerPlan) (lowerValues, *diskLower, error) {
	reach := n - b.v.LeastCapture()
	for m, held := range p.inMem {
		if !held {
			b.drop(m)
		}
		p.inMem[m] = held && (m <= reach || b.holds(m)) // an unreachable layer is not read back
	}
	reload := false
	for m, held := range p.inMem {
		reload = reload || held && !b.holds(m)
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
		if held && !b.holds(m) {
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
	for m := range b.lower {
		if b.holds(m) {
			held += b.ix.Size(m)
		}
	}
	for m := 0; m < len(b.lower) && held > b.opts.MemBytes/2; m++ {
		if b.holds(m) {
			b.drop(m)
			held -= b.ix.Size(m)
		}
	}
}

// unsowOwnBytes is the memory of a layer of size positions by un-sowing,
// its values not kept (unsowBytes).
func unsowOwnBytes(size int64) int64 { return int64(math.Ceil(unsowBytes * float64(size))) }

// unsowNarrowOwnBytes is unsowOwnBytes with the narrow state
// (unsowNarrowBytes).
func unsowNarrowOwnBytes(size int64) int64 {
	return int64(math.Ceil(unsowNarrowBytes * float64(size)))
}

// scanExitBytes is the memory of the exits-only scan of a layer of size
// positions: its exits and terminal bits.
func scanExitBytes(size int64) int64 { return size + (size+63)/64*8 }

// checkLayers fails, before any layer is built, when a layer
// from..MaxSeeds cannot be built (chooseMethod: too many positions for
// one machine, a method that cannot solve the variant, a budget too
// small), naming the first such layer.
func (b *builder) checkLayers(from int) error {
	for n := from; n <= b.opts.MaxSeeds; n++ {
		if _, err := b.choose(n, b.movesPerPosition); err != nil {
			return err
		}
	}
	return nil
}

// plan predicts layer n's method and memory, taking the moves a position
// from the last layer built (3.3 for awari when nothing is known): the
// plan the layer runs (choose), without the error of a layer that
// cannot be built.
func (b *builder) plan(n int, movesPerPosition float64) LayerPlan {
	p, _ := b.choose(n, movesPerPosition)
	return p.LayerPlan
}

// boundHeap bounds the Go heap while layer n is built: the collector runs
// when the heap has grown by percent over what is live (gcPercent: rather
// than doubled, Go's default), and the runtime's soft memory limit is lowered to
// limit, the layer's planned peak (heapPeak), when that is below the limit
// set already. It returns the function that restores both. Without it the dead frontiers of the propagation make the
// peak RSS about double the plan. (Badger's memory-mapped files come on
// top in the RSS: about the size of the tablebase, reclaimable page cache.)
func (b *builder) boundHeap(limit int64, percent int) func() {
	prevPercent := debug.SetGCPercent(percent)
	prev := debug.SetMemoryLimit(-1)
	if limit < prev {
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetMemoryLimit(prev)
		debug.SetGCPercent(prevPercent)
	}
}

// gcPercent is the heap's growth over what is live, in percent, before
// the collector runs while a layer of method m is built: a quarter, or a
// twentieth for the forward pass, whose heap is nearly all its two arrays
// and the lower layers' values, none holding a pointer, so a collection
// costs little and the heap's growth is all garbage: the encoder's
// buffers (5% against 10%: 202 MiB of RSS at most for kalah to 20
// against 207).
func gcPercent(m layerMethod) int {
	if _, ok := m.(forwardMethod); ok {
		return 5
	}
	return 25
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

// solveOnGraph resolves the layer on its predecessor graph, reversed from
// the in-degrees indeg counted by scan and placed as place says. The
// graph's temporary file, if any, is unmapped (and so removed) before it
// returns, on an error too; munmap's error is returned when nothing else
// failed.
func solveOnGraph(ctx context.Context, s *layerSolver, indeg [][]uint16, place graphPlacement) (res solved, err error) {
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

// forwardOwnBytes is the memory of a layer of size positions by the
// forward pass, its values not kept (forwardBytes).
func forwardOwnBytes(size int64) int64 { return int64(forwardBytes*float64(size)) + forwardFixed }

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
