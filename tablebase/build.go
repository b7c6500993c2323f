package tablebase

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sync/errgroup"

	"mancala/position"
)

// Method selects how a layer's moves inside the layer are resolved (see
// doc.go).
type Method int

const (
	// MethodAuto uses the predecessor graph when it fits in the memory
	// budget, else value iteration.
	MethodAuto Method = iota
	// MethodGraph always builds the predecessor graph (error if it does
	// not fit).
	MethodGraph
	// MethodIteration always uses value iteration (least memory).
	MethodIteration
)

// DefaultMemBytes is the memory budget when BuildOptions.MemBytes is 0:
// enough for awari and oware to 20 seeds by the graph method.
const DefaultMemBytes = 8 << 30

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
	// some tens of MiB); 0 means DefaultMemBytes.
	MemBytes int64
	// Method forces a solving method; the zero value chooses by memory.
	Method Method
	// Progress, when not nil, is called as a layer advances: done of
	// total work units of that layer (3 per position). Calls never
	// overlap, and done never decreases within a layer.
	Progress func(layer int, done, total int64)
	// LayerDone, when not nil, is called after each layer is stored.
	LayerDone func(LayerInfo)
}

// BuildStats describes a Build run.
type BuildStats struct {
	Variant   string
	MaxSeeds  int         // every layer 0..MaxSeeds is stored now
	Resumed   int         // layers found complete in the database and not rebuilt
	Layers    []LayerInfo // the layers built by this run
	Positions int64       // positions in the layers built by this run
	Seconds   float64     // wall time of the run
}

// Build computes v's layers 0..opts.MaxSeeds into the tablebase at dir,
// creating it if needed. Layers already complete there are loaded, not
// rebuilt, so a build interrupted by ctx, an error or a crash resumes
// from its last complete layer. It holds dir exclusively: a second
// process gets an error wrapping ErrInUse. A MemBytes too small for a
// layer's values is an error naming the layer and the bytes it needs.
func Build(ctx context.Context, dir string, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1}
	if !Supports(v) {
		return stats, errUnsupported(v)
	}
	if opts.MaxSeeds < 0 || opts.MaxSeeds > min(v.Total(), maxLayer) {
		return stats, fmt.Errorf("max seeds %d: want 0..%d for %s", opts.MaxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	opts = withDefaults(opts)
	s, err := openStore(dir, true)
	if err != nil {
		return stats, err
	}
	defer s.close()
	b := &builder{s: s, v: v, ix: NewIndex(v.Pits), opts: opts}
	if err := b.resume(); err != nil {
		return stats, err
	}
	stats.Resumed = len(b.lower)
	stats.MaxSeeds = len(b.lower) - 1
	for n := len(b.lower); n <= opts.MaxSeeds; n++ {
		info, err := b.layer(ctx, n)
		if err != nil {
			return stats, err
		}
		if opts.LayerDone != nil {
			opts.LayerDone(info)
		}
		stats.Layers = append(stats.Layers, info)
		stats.Positions += info.Positions
		stats.MaxSeeds = n
	}
	stats.Seconds = time.Since(began).Seconds()
	return stats, nil
}

func withDefaults(opts BuildOptions) BuildOptions {
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	if opts.MemBytes <= 0 {
		opts.MemBytes = DefaultMemBytes
	}
	return opts
}

// builder carries a Build run from layer to layer.
type builder struct {
	s     *store
	v     *position.Variant
	ix    *Index
	opts  BuildOptions
	lower [][]int8 // values of the layers done so far, by seed count
	edges int64    // moves inside the layer just solved
}

// lowerBytes returns the bytes of the finished layers held in memory.
func (b *builder) lowerBytes() int64 {
	total := int64(0)
	for _, l := range b.lower {
		total += int64(len(l))
	}
	return total
}

// resume loads the complete layers already stored (up to MaxSeeds),
// checking their checksums, so the build continues after them.
func (b *builder) resume() error {
	infos, err := b.s.layers(b.v)
	if err != nil {
		return err
	}
	for _, info := range complete(infos) {
		if info.Seeds > b.opts.MaxSeeds {
			break
		}
		values, err := b.s.loadLayer(b.v, info)
		if err != nil {
			return fmt.Errorf("resuming: %w", err)
		}
		b.lower = append(b.lower, values)
	}
	return nil
}

// layer solves, stores and keeps layer n.
func (b *builder) layer(ctx context.Context, n int) (LayerInfo, error) {
	began := time.Now()
	size := b.ix.Size(n)
	if size >= 1<<32 {
		return LayerInfo{}, fmt.Errorf("layer %d: %d positions, more than this builder indexes (2^32)", n, size)
	}
	values, method, err := b.solve(ctx, n, size)
	if err != nil {
		return LayerInfo{}, fmt.Errorf("layer %d: %w", n, err)
	}
	blocks, stored, err := b.encode(ctx, values)
	if err != nil {
		return LayerInfo{}, fmt.Errorf("layer %d: %w", n, err)
	}
	info := LayerInfo{
		Variant: b.v.Name, RulesVersion: position.RulesVersion, Seeds: n,
		Positions: size, BlockSize: BlockSize, Blocks: len(blocks),
		Checksum: xxhash.Sum64(int8Bytes(values)), StoredBytes: stored,
		InnerMoves: b.edges, Method: method, BuiltAt: began.UTC(), ToolVersion: ToolVersion,
		Seconds: time.Since(began).Seconds(),
	}
	if err := b.s.putLayer(b.v, info, blocks); err != nil {
		return LayerInfo{}, fmt.Errorf("layer %d: storing: %w", n, err)
	}
	b.lower = append(b.lower, values)
	debug.FreeOSMemory() // return the layer's scratch arrays before the next, larger one
	return info, nil
}

// solve computes layer n's values, choosing the method by the budget.
func (b *builder) solve(ctx context.Context, n int, size int64) ([]int8, string, error) {
	// The least any method needs: the lower layers, exit and count, and
	// two value arrays (the iteration's current and next sweep).
	base := b.lowerBytes() + 4*size
	if base > b.opts.MemBytes {
		return nil, "", fmt.Errorf("a memory budget of %d bytes is too small: this layer needs at least %d", b.opts.MemBytes, base)
	}
	s := &layerSolver{v: b.v, ix: b.ix, n: n, size: size, lower: b.lower,
		threads: b.opts.Threads, prog: newProgress(n, size, b.opts.Progress)}
	// The graph method's peak: the per-part counters with start and from
	// while reversing, then start, from and the propagation state.
	parts := int64(s.parts())
	var indeg [][]uint16
	if b.opts.Method != MethodIteration && base+2*parts*size <= b.opts.MemBytes {
		for range parts {
			indeg = append(indeg, make([]uint16, size))
		}
	}
	if err := s.scan(ctx, indeg); err != nil {
		return nil, "", err
	}
	graphBytes := base + 4*(size+1) + 4*s.edges + max(2*parts*size, 8*size)
	if indeg != nil && s.edges < 1<<32 && graphBytes <= b.opts.MemBytes {
		g, err := s.reverse(ctx, indeg)
		if err != nil {
			return nil, "", err
		}
		debug.FreeOSMemory() // the counters are dead now: collect them to keep the peak down
		values, err := s.propagate(ctx, g)
		b.edges = s.edges
		return values, "graph", err
	}
	if b.opts.Method == MethodGraph {
		return nil, "", fmt.Errorf("a memory budget of %d bytes is too small for the graph method: it needs %d", b.opts.MemBytes, graphBytes)
	}
	values, err := s.iterate(ctx)
	b.edges = s.edges
	return values, "iteration", err
}

// encode compresses a layer's values into blocks, in parallel, and
// returns them with their total size.
func (b *builder) encode(ctx context.Context, values []int8) ([][]byte, int64, error) {
	blocks := make([][]byte, (int64(len(values))+BlockSize-1)/BlockSize)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(b.opts.Threads)
	for i := range blocks {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			blocks[i] = b.s.encodeBlock(values[i*BlockSize : min((i+1)*BlockSize, len(values))])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	stored := int64(0)
	for _, blk := range blocks {
		stored += int64(len(blk))
	}
	return blocks, stored, nil
}
