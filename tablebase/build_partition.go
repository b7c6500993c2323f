package tablebase

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Partitioned layers: the shape of a build spread over machines
// (docs/distributed-build.md). A layer's ranks are split into equal
// ranges, each owned by one part, which alone reads and writes the
// propagation state of its positions. Propagation runs in rounds, one a
// distance level of a threshold: each part expands its own frontier
// (the positions it resolved in the last round), sorting the resulting
// updates by the owner of each predecessor into one batch per owner;
// the batches are exchanged (the barrier of the round); then each part
// applies the batches it received to its own positions, which gives its
// next frontier. Only the exchange crosses parts, so it is the interface
// a multi-machine build implements; here the parts are goroutines and
// the exchange hands slices over in memory.

// Batch is what one part sends another in a round: the predecessors,
// all owned by the receiver, that a move into a resolved position wins
// (their move leads to a position lost for its mover) and those for which
// it is one more move known to lose. A predecessor appears once per move.
type Batch struct {
	Win, Lose []uint32
}

// Exchange delivers a round's batches: out[from][to] is what part from
// sends part to. It returns in[to], the batches each part received, and
// returns only when every part has sent (the round's barrier). An
// implementation across machines sends the batches over the network and
// waits for the others'.
type Exchange interface {
	Exchange(ctx context.Context, out [][]Batch) ([][]Batch, error)
}

// localExchange is the in-process Exchange: the parts are goroutines of
// one build, and a batch changes hands without a copy.
type localExchange struct{}

func (localExchange) Exchange(ctx context.Context, out [][]Batch) ([][]Batch, error) {
	in := make([][]Batch, len(out))
	for from := range out {
		for to, b := range out[from] {
			in[to] = append(in[to], b)
		}
	}
	return in, ctx.Err()
}

// partitioned runs propagation over parts rank ranges exchanging batches
// through ex. The result equals propagate's: rounds are the same
// distance levels, and within a round the order of updates does not
// matter.
type partitioned struct {
	s        *layerSolver
	g        *graph
	state    []uint32
	parts    int
	partSize int64
	ex       Exchange
}

// owner returns the part that owns rank p.
func (pp *partitioned) owner(p uint32) int { return int(int64(p) / pp.partSize) }

// bounds returns part t's ranks [lo, hi).
func (pp *partitioned) bounds(t int) (int64, int64) {
	return min(int64(t)*pp.partSize, pp.s.size), min(int64(t+1)*pp.partSize, pp.s.size)
}

// propagateLayer resolves the layer on its predecessor graph (nil: by
// un-sowing): with the state shared by the threads (propagate), or split
// into s.partitions rank ranges exchanging batches in memory when that is
// above 1.
func (s *layerSolver) propagateLayer(ctx context.Context, g *graph) ([]uint32, error) {
	if s.partitions > 1 {
		return s.propagateParts(ctx, g, s.partitions, localExchange{})
	}
	return s.propagate(ctx, g)
}

// propagateParts is propagate with the layer split into parts owned
// ranges (see above).
func (s *layerSolver) propagateParts(ctx context.Context, g *graph, parts int, ex Exchange) ([]uint32, error) {
	state := s.initState()
	pp := &partitioned{s: s, g: g, state: state, parts: parts, partSize: (s.size + int64(parts) - 1) / int64(parts), ex: ex}
	for k := int8(s.n); k >= 1; k-- {
		if err := pp.threshold(ctx, k); err != nil {
			return nil, err
		}
	}
	s.exit = nil
	freeLarge(s.size)
	s.prog.reach(3 * s.size)
	return state, nil
}

// threshold is one threshold's rounds, level by level as in
// layerSolver.threshold; each part seeds its own range.
func (pp *partitioned) threshold(ctx context.Context, k int8) error {
	now, later := make([]frontier, pp.parts), make([]frontier, pp.parts)
	pp.each(ctx, func(t int) {
		lo, hi := pp.bounds(t)
		now[t], later[t] = pp.s.seedRange(lo, hi, k, pp.state)
	})
	for level := 0; pending(now) || pending(later); level++ {
		if level >= MaxDistance {
			return errDistance
		}
		pp.s.rounds++
		out := make([][]Batch, pp.parts)
		pp.each(ctx, func(t int) { out[t] = pp.expand(now[t], k) })
		in, err := pp.ex.Exchange(ctx, out)
		if err != nil {
			return err
		}
		pp.each(ctx, func(t int) {
			now[t] = pp.apply(in[t], k, uint16(level+1))
			if level == 0 {
				now[t], later[t] = now[t].join(later[t]), frontier{}
			}
		})
	}
	return ctx.Err()
}

// pending reports whether any part has positions left to expand.
func pending(frontiers []frontier) bool {
	for _, f := range frontiers {
		if f.len() > 0 {
			return true
		}
	}
	return false
}

// each runs fn for every part on the build's threads.
func (pp *partitioned) each(ctx context.Context, fn func(t int)) {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(pp.s.threads)
	for t := range pp.parts {
		g.Go(func() error { fn(t); return nil })
	}
	_ = g.Wait()
}

// expand is one part's side of a round: the updates its frontier sends to
// the owners of the predecessors.
func (pp *partitioned) expand(now frontier, k int8) []Batch {
	out := make([]Batch, pp.parts)
	preds := pp.s.newPredLister(pp.g)
	for i := range int64(now.len()) {
		q, lost := now.at(i)
		ps, keeps := preds.list(q)
		for j, p := range ps {
			b := &out[pp.owner(p)]
			if lost != (keeps != nil && keeps[j]) {
				b.Win = append(b.Win, p)
			} else {
				b.Lose = append(b.Lose, p)
			}
		}
	}
	pp.s.prog.add(int64(now.len()))
	return out
}

// apply is the other side: a part applies the batches it received to its
// own positions and returns those newly resolved, at distance dist.
func (pp *partitioned) apply(in []Batch, k int8, dist uint16) frontier {
	var next frontier
	for _, b := range in {
		for _, p := range b.Win {
			if resolveAlone(&pp.state[p], true, k, dist) {
				next.won = append(next.won, p)
			}
		}
		for _, p := range b.Lose {
			if resolveAlone(&pp.state[p], false, k, dist) {
				next.lost = append(next.lost, p)
			}
		}
	}
	return next
}
