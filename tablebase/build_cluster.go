package tablebase

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// A build across processes (issue 38; docs/distributed-build.md): P
// processes, the ranks of an MPI job, each run Build with the same
// options and a Cluster, the transport between them. Each layer is built
// by un-sowing in P parts (partsMethod), part t by rank t, which holds
// only range t (partRanges) of the layer and of every layer below it,
// as in Romein and Bal's distributed awari build: it scans its own range
// (exits, counts), asking the captures' values of the ranks that own the
// children (build_lookup.go: two Cluster.AllToAll a lookup round), and
// propagates it, exchanging update batches with the other ranks every
// round (Cluster.Exchange) and ending each level with a global sum. It
// then keeps its range's values for the layers above (b.own) and writes
// its range as its part file in the build's parts directory; rank 0
// writes the layer's metadata last, with the checksums of a one-machine
// build, chained over the ranks (storeRange, parts_build.go). Import puts
// the parts into a tablebase, which every reader (stats, query, probe)
// uses. On a start, rank 0 removes what a killed build left of the first
// incomplete layer, and every rank reads its own range of each complete
// layer from the parts (resumeParts). Memory a rank is about 1/P of a
// one-machine build's (heldBytes): no layer is gathered anywhere.
//
// A layer may pass 2^32 positions (awari's layers 32..48) as long as a
// rank's range of it is under 2^32 (clusterPlan refuses it otherwise,
// naming the ranks it needs): the ranks inside a range (frontiers,
// batches, lookups) are 32-bit and relative to its start, the layer's
// ranks (ranges, predecessors, part files) 64-bit.
//
// What this does not do yet: kalah's forward pass, value iteration and
// the graph are not split (such a build is refused, chooseMethod);
// nothing picks P; the tablebase is read only after an import (no
// prober over the parts).

// Cluster is the transport of a build across processes: this process's
// rank among Size processes, the per-round Exchange (called with part ==
// Rank()), and an all-to-all of bytes. Every rank makes the same calls in
// the same order; a rank that fails ends the job (the transport aborts
// every process), so no call needs to give up on the others.
type Cluster interface {
	Exchange
	// Rank is this process's rank, 0..Size()-1; rank 0 writes the
	// layers' metadata.
	Rank() int
	// Size is the number of ranks.
	Size() int
	// AllToAll sends out[to] to every rank to and returns in[from], the
	// bytes every rank from sent this one (the captures' lookups and
	// their answers). The slices sent must not change
	// until the next collective.
	AllToAll(ctx context.Context, out [][]byte) ([][]byte, error)
}

// ownRange returns this rank's range [lo, hi) of a layer of size
// positions.
func ownRange(size int64, c Cluster) (int64, int64) {
	span, t := partRanges(size, c.Size()), int64(c.Rank())
	return min(t*span, size), min((t+1)*span, size)
}

// propagateOwnPart is propagateParts for a build across processes: only
// this rank's part runs here, the others in their processes; state is
// the part's range. The moves inside the layer, counted by each rank over
// its own range, are summed over the ranks.
func (s *layerSolver) propagateOwnPart(ctx context.Context, g *graph, state []uint32, span int64) ([]uint32, error) {
	c, t := s.cluster, s.cluster.Rank()
	r := &rankPart{s: s, g: g, state: state, t: t, lo: s.lo, hi: s.hi, first: s.origin, span: span, parts: s.partitions, ex: c}
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	edges, err := c.Sum(ctx, t, s.edges)
	if err != nil {
		return nil, err
	}
	s.edges = edges
	s.exit = nil
	freeLarge(s.hi - s.lo)
	s.prog.reach(3 * s.size)
	return state, nil
}

// checkCluster checks the options of a build across processes.
func checkCluster(opts BuildOptions) error {
	c := opts.Cluster
	if c == nil {
		return nil
	}
	if c.Size() < 1 || c.Rank() < 0 || c.Rank() >= c.Size() {
		return fmt.Errorf("cluster: rank %d of %d", c.Rank(), c.Size())
	}
	if opts.Parts != c.Size() {
		return fmt.Errorf("cluster of %d ranks: parts %d, want %d", c.Size(), opts.Parts, c.Size())
	}
	if opts.Mapped {
		return errors.New("cluster: a build across processes writes parts, no mapped layers: map them after Import")
	}
	return nil
}

// sameMethod checks that every rank built layer n in parts, or none did:
// the ranks' collective calls must match, so a difference (plans made
// from different budgets) is an error on every rank rather than a hang.
func (b *builder) sameMethod(ctx context.Context, n int, p methodPlan) error {
	c := b.opts.Cluster
	parts := int64(0)
	if _, ok := p.method.(partsMethod); ok {
		parts = 1
	}
	got, err := c.Sum(ctx, c.Rank(), parts)
	if err != nil {
		return err
	}
	if got != 0 && got != int64(c.Size()) {
		return fmt.Errorf("layer %d: %d of %d ranks build it in parts (%s here): give every rank the same --mem", n, got, c.Size(), p.Method)
	}
	return nil
}

// buildRank is Build on a rank of a build across processes, rank 0
// included: it opens no store; it reads its ranges of the complete layers
// from the build's parts at dir (resumeParts), then builds each missing
// layer's part with the other ranks (clusterLayer). Its BuildStats count
// the layers it took part in; rank 0 calls LayerDone.
func buildRank(ctx context.Context, dir string, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1}
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: opts, movesPerPosition: 3.3}
	if err := b.checkLayers(0); err != nil {
		return stats, err
	}
	done, err := b.resumeParts(ctx, dir)
	if b.parts != nil {
		defer b.parts.close()
	}
	if err != nil {
		return stats, err
	}
	stats.Resumed, stats.MaxSeeds = done, done-1
	for n := done; n <= opts.MaxSeeds; n++ {
		p, err := b.choose(n, b.movesPerPosition)
		if err != nil {
			return stats, err
		}
		if err := b.sameMethod(ctx, n, p); err != nil {
			return stats, err
		}
		if opts.LayerStart != nil {
			opts.LayerStart(p.LayerPlan)
		}
		info, err := b.clusterLayer(ctx, p)
		if err != nil {
			return stats, err
		}
		b.movesPerPosition = float64(b.edges) / float64(p.Positions)
		b.storedBytes += info.StoredBytes + info.DistanceBytes
		if opts.LayerDone != nil && b.opts.Cluster.Rank() == 0 {
			opts.LayerDone(info)
		}
		stats.Layers = append(stats.Layers, info)
		stats.Positions += p.Positions
		stats.MaxSeeds = n
	}
	stats.Seconds = time.Since(began).Seconds()
	stats.heldBytes = b.heldBytes
	return stats, b.partsStats(&stats)
}

// clusterLayer solves layer p's range on this rank of a build across
// processes, stores it as this rank's part (storeRange) and keeps the
// range's values (b.own) for the layers above; it returns the layer's
// metadata (whole on rank 0).
func (b *builder) clusterLayer(ctx context.Context, p methodPlan) (LayerInfo, error) {
	began := time.Now()
	n := p.Seeds
	defer b.boundHeap(p.PeakBytes, gcPercent(p.method))()
	res, err := p.method.solve(ctx, b, p)
	if err != nil {
		return LayerInfo{}, fmt.Errorf("layer %d: %w", n, err)
	}
	lo, _ := ownRange(p.Positions, b.opts.Cluster)
	info, err := b.storeRange(ctx, b.partsInfo(p, res, began), lo, solved{state: res.state})
	if err != nil {
		return info, fmt.Errorf("layer %d: %w", n, err)
	}
	var values []int8
	if b.readsOwn(n) {
		values = stateValues(res.state)
	}
	b.keepOwn(values)
	debug.FreeOSMemory()
	return info, nil
}

// readsOwn says whether a layer above layer n in this build reads its
// values (a capture takes LeastCapture seeds or more).
func (b *builder) readsOwn(n int) bool {
	return n+b.v.LeastCapture() <= b.opts.MaxSeeds
}

// keepOwn keeps this rank's range of the next layer's values (nil when
// no layer of the build reads them), which answer the lookups of the
// layers above; lower holds a nil in its place.
func (b *builder) keepOwn(values []int8) {
	b.own = append(b.own, values)
	b.lower = append(b.lower, nil)
}

// noteHeld records the bytes of the layer's arrays and of the lower
// layers' values this process holds after s's scan (the peak of an
// un-sown layer: state, exits and lower layers together), as counted by
// the arrays' lengths: BuildStats.heldBytes, which shows that a rank of a
// build across processes holds about 1/P of a one-machine build's.
func (b *builder) noteHeld(s *layerSolver) {
	held := int64(len(s.exit)+len(s.count)) + 8*int64(len(s.terminal)) + 4*int64(len(s.state)) + 2*int64(len(s.state16))
	for _, values := range b.lower {
		held += int64(len(values))
	}
	for _, values := range b.own {
		held += int64(len(values))
	}
	b.heldBytes = max(b.heldBytes, held)
}

// rankOrigin is 0 but in tests: the first rank of every layer as a build
// across processes numbers the positions inside a layer (its ranges, its
// frontiers, the predecessors un-sown), so that a test of layers small
// enough to build here runs those paths on ranks past 2^32, as a layer
// of more than 2^32 positions would (cluster64_test.go). A multiple of
// BlockSize; the store, the parts and the lookups of the lower layers
// are given the layer's own ranks.
var rankOrigin uint64
