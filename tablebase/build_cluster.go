package tablebase

import (
	"context"
	"fmt"
	"math"
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
// rank 0 alone encodes and stores it in the normal store, layer metadata
// last, so its checksums and every reader (stats, query, probe) are those
// of a one-machine build. On a start, rank 0 resumes from its store at
// the first missing layer and sends the complete layers' values to the
// other ranks (Cluster.Broadcast).
//
// What this does not do yet: per-range storing (rank 0 writes the whole
// layer) and lower layers held by range and looked up by message (every
// rank holds every lower layer: memory a rank is that of a one-machine
// build's lower layers, plus its range's working arrays and the layer's
// shared state). Methods without a propagation in parts (kalah's forward
// pass, value iteration) are computed whole by every rank.

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
	// AllToAll sends out[to] to every rank to and returns in[from], the
	// bytes every rank from sent this one (the captures' lookups,
	// build_lookup.go). The slices sent must not change until the next
	// collective.
	AllToAll(ctx context.Context, out [][]byte) ([][]byte, error)
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

// sendResumed is rank 0's side of a start: it tells the other ranks how
// many layers are complete, the moves a position of the last of them
// (which plans the next layer alike everywhere), and sends their values.
func (b *builder) sendResumed(ctx context.Context) error {
	c := b.opts.Cluster
	if _, err := c.Sum(ctx, 0, int64(len(b.lower))); err != nil {
		return err
	}
	if _, err := c.Sum(ctx, 0, int64(math.Float64bits(b.movesPerPosition))); err != nil {
		return err
	}
	infos, err := b.s.layers()
	if err != nil {
		return err
	}
	for n := range b.lower {
		values := b.lower[n]
		if values == nil { // not held in memory on rank 0 (trimLower)
			if values, err = b.s.loadLayer(infos[n]); err != nil {
				return err
			}
		}
		if err := c.Broadcast(ctx, values); err != nil {
			return err
		}
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

// buildRank is Build on a rank other than 0 of a build across processes:
// it opens no store; it receives the complete layers from rank 0, then
// builds each missing layer's part with the other ranks and keeps the
// whole layer's values (shared at the layer's end) for the layers above.
// Its BuildStats count the layers it took part in.
func buildRank(ctx context.Context, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1}
	c := opts.Cluster
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: opts, movesPerPosition: 3.3}
	if err := b.checkLayers(0); err != nil {
		return stats, err
	}
	done, err := c.Sum(ctx, c.Rank(), 0)
	if err != nil {
		return stats, err
	}
	bits, err := c.Sum(ctx, c.Rank(), 0)
	if err != nil {
		return stats, err
	}
	if done > 0 {
		b.movesPerPosition = math.Float64frombits(uint64(bits))
	}
	for n := range int(done) {
		values := make([]int8, b.ix.Size(n))
		if err := c.Broadcast(ctx, values); err != nil {
			return stats, err
		}
		b.lower = append(b.lower, values)
	}
	stats.Resumed, stats.MaxSeeds = int(done), int(done)-1
	for n := int(done); n <= opts.MaxSeeds; n++ {
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
		res, err := p.method.solve(ctx, b, p)
		if err != nil {
			return stats, fmt.Errorf("layer %d: %w", n, err)
		}
		res.arrays()
		b.lower = append(b.lower, res.values)
		b.movesPerPosition = float64(b.edges) / float64(p.Positions)
		stats.Positions += p.Positions
		stats.MaxSeeds = n
	}
	stats.Seconds = time.Since(began).Seconds()
	return stats, nil
}
