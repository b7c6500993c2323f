package tablebase

import (
	"context"
	"fmt"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// A build across processes (issue 38; docs/distributed-build.md): P
// processes, the ranks of an MPI job, each run Build with the same
// options and a Cluster, the transport between them. Each layer is built
// in P parts (partsMethod), part t by rank t: it scans its own range
// (exits, counts) and propagates it, exchanging update batches with the
// other ranks every round (Cluster.Exchange, an all-to-all) and ending
// each level with a global sum. At the end of the layer the ranks share
// their ranges of the final state (Cluster.Share), so that every rank
// holds the whole layer, which the layers above read for their captures;
// each rank then encodes and writes its own range as a part file in the
// build's directory, and rank 0 writes the layer's metadata last, with
// the checksums of a one-machine build, chained over the parts
// (storeRange, parts_build.go). Import puts the parts into a tablebase,
// which every reader (stats, query, probe) uses. On a start, every rank
// loads the complete layers from the parts, and the build goes on at the
// first layer without metadata (resumeParts).
//
// What this does not do yet: lower layers held by range and looked up
// by message (every rank holds every lower layer: memory a rank is that
// of a one-machine build's lower layers, plus its range's working arrays
// and the layer's shared state). Methods without a propagation in parts
// (kalah's forward pass, value iteration) are computed whole by every
// rank.

// Cluster is the transport of a build across processes: this process's
// rank among Size processes, the per-round Exchange (called with part ==
// Rank()), and two collectives. Every rank makes the same calls in the
// same order; a rank that fails ends the job (the transport aborts every
// process), so no call needs to give up on the others.
type Cluster interface {
	Exchange
	// Rank is this process's rank, 0..Size()-1; rank 0 stores.
	Rank() int
	// Size is the number of ranks.
	Size() int
	// Share fills state[t*span : min((t+1)*span, len(state))] of every
	// rank t from rank t's own copy: on return every rank holds the
	// whole array.
	Share(ctx context.Context, state []uint32, span int64) error
	// Broadcast copies rank 0's values into every rank's values (of the
	// same length).
	Broadcast(ctx context.Context, values []int8) error
}

// propagateOwnPart is propagateParts for a build across processes: only
// this rank's part runs here, the others in their processes; the final
// state of every range is then shared (Cluster.Share). The moves inside
// the layer, counted by each rank over its own range when it scanned only
// that (un-sowing, ownScan), are summed over the ranks.
func (s *layerSolver) propagateOwnPart(ctx context.Context, g *graph, state []uint32, span int64) ([]uint32, error) {
	c, t := s.cluster, s.cluster.Rank()
	r := &rankPart{s: s, g: g, state: state, t: t, lo: min(int64(t)*span, s.size), hi: min(int64(t+1)*span, s.size),
		span: span, parts: s.partitions, ex: c}
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	if err := c.Share(ctx, state, span); err != nil {
		return nil, err
	}
	if s.ownScan {
		edges, err := c.Sum(ctx, t, s.edges)
		if err != nil {
			return nil, err
		}
		s.edges = edges
	}
	s.exit = nil
	freeLarge(s.size)
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
// included: it opens no store; it loads the complete layers from the
// build's parts at dir (resumeParts), then builds each missing layer's
// part with the other ranks, keeps the whole layer's values (shared at
// the layer's end) for the layers above, and stores its range as its
// part (storeRange). Its BuildStats count the layers it took part in;
// rank 0 calls LayerDone.
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
		layerBegan := time.Now()
		res, err := p.method.solve(ctx, b, p)
		if err != nil {
			return stats, fmt.Errorf("layer %d: %w", n, err)
		}
		res.arrays()
		lo, hi := b.ownRange(p.Positions)
		info, err := b.storeRange(ctx, b.partsInfo(p, res, layerBegan), lo, solved{values: res.values[lo:hi], dist: res.dist[lo:hi]})
		if err != nil {
			return stats, err
		}
		b.lower = append(b.lower, res.values)
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
	return stats, b.partsStats(&stats)
}
