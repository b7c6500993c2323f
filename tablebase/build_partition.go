package tablebase

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Partitioned layers: the shape of a build spread over machines
// (docs/distributed-build.md). A layer's ranks are split into ranges
// aligned to blocks (BlockSize), range t owned by part (rank) t, which
// alone scans, seeds, reads and writes the positions of its range: their
// exits, counts and propagation state. Each part runs the same loop on
// its own (as an MPI rank would): propagation goes in rounds, one a
// distance level of a threshold, and in each the part expands its own
// frontier (the positions it resolved in the last round), sorting the
// updates by the owner of each predecessor into one batch per owner,
// hands its batches to the Exchange (the round's barrier), and applies
// the batches it received, which gives its next frontier; a global sum of
// the frontiers' sizes (Exchange.Sum) tells every part together whether
// the threshold goes on. Only the Exchange crosses parts: it is the
// interface a multi-machine build implements; here the parts are
// goroutines (localRanks) and a batch changes hands without a copy.
//
// In one process the parts share the lower layers' values and one state
// array, which the layer's encoding and storing read whole; across
// processes (build_cluster.go) each rank holds its range of every layer
// and asks the owners for the captures' values (build_lookup.go).

// Batch is what one part sends another in a round: the predecessors, all
// owned by the receiver and given relative to the start of its range (so
// that they stay 32-bit while a range is under 2^32 ranks, whatever the
// layer's size), that a move into a resolved position wins (their move
// leads to a position lost for its mover) and those for which it is one
// more move known to lose. A predecessor appears once per move.
type Batch struct {
	Win, Lose []uint32
}

// Exchange is the transport between the parts of a layer. Every part
// calls each method once a round, with its own part number; a call
// returns only when every part has made it (the round's barrier), or with
// ctx's error (or the transport's) when one never will.
type Exchange interface {
	// Exchange sends out[to] to part to, for every part, and returns
	// in[from], what part received from each.
	Exchange(ctx context.Context, part int, out []Batch) ([]Batch, error)
	// Sum returns the sum of x over every part.
	Sum(ctx context.Context, part int, x int64) (int64, error)
}

// localRanks is the in-process Exchange of parts that are goroutines of
// one build: the batches are handed over in memory.
type localRanks struct {
	parts int
	out   [][]Batch  // out[from], the round's batches
	bytes [][][]byte // bytes[from], AllToAll's messages
	sums  []int64
	bar   *barrier
}

func newLocalRanks(parts int) *localRanks {
	return &localRanks{parts: parts, out: make([][]Batch, parts), bytes: make([][][]byte, parts), sums: make([]int64, parts), bar: newBarrier(parts)}
}

func (l *localRanks) Exchange(ctx context.Context, part int, out []Batch) ([]Batch, error) {
	l.out[part] = out
	if err := l.bar.wait(ctx); err != nil { // every part has sent
		return nil, err
	}
	in := make([]Batch, l.parts)
	for from := range in {
		in[from] = l.out[from][part]
	}
	// The slots are written again next round only after every part has
	// read its batches.
	return in, l.bar.wait(ctx)
}

// AllToAll hands out[to] to part to, for every part, and returns what
// part received: the in-process Cluster.AllToAll.
func (l *localRanks) AllToAll(ctx context.Context, part int, out [][]byte) ([][]byte, error) {
	l.bytes[part] = out
	if err := l.bar.wait(ctx); err != nil {
		return nil, err
	}
	in := make([][]byte, l.parts)
	for from := range in {
		in[from] = l.bytes[from][part]
	}
	return in, l.bar.wait(ctx)
}

func (l *localRanks) Sum(ctx context.Context, part int, x int64) (int64, error) {
	l.sums[part] = x
	if err := l.bar.wait(ctx); err != nil {
		return 0, err
	}
	total := int64(0)
	for _, s := range l.sums {
		total += s
	}
	return total, l.bar.wait(ctx)
}

// barrier makes parts goroutines wait for each other, round after round;
// a wait ends early with ctx's error (a part that failed cancels the
// others' context, so none waits forever for it).
type barrier struct {
	mu      sync.Mutex
	parts   int
	arrived int
	gen     chan struct{} // closed when the current round is complete
}

func newBarrier(parts int) *barrier { return &barrier{parts: parts, gen: make(chan struct{})} }

func (b *barrier) wait(ctx context.Context) error {
	b.mu.Lock()
	gen := b.gen
	if b.arrived++; b.arrived == b.parts {
		b.arrived, b.gen = 0, make(chan struct{})
		close(gen)
	}
	b.mu.Unlock()
	select {
	case <-gen:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// partRanges returns the size of each part's range of a layer of size
// positions in parts parts: the least multiple of BlockSize that covers
// the layer in parts ranges, so that no block straddles two parts (the
// last range is shorter, and parts beyond the layer's end are empty).
func partRanges(size int64, parts int) int64 {
	per := (size + int64(parts) - 1) / int64(parts)
	return (per + BlockSize - 1) / BlockSize * BlockSize
}

// rankPart is one part of a partitioned layer: its range [lo, hi).
// Its frontiers hold ranks relative to lo (32-bit: a range is under 2^32
// positions, clusterPlan), and a predecessor's rank is 64-bit until
// owner makes it relative to its owner's range, so that a layer past
// 2^32 positions is built across processes (on one machine a layer is
// under 2^32: MaxLayerPositions).
type rankPart struct {
	s      *layerSolver
	g      *graph
	state  []uint32 // the solver's state array; the part touches only [lo, hi)
	t      int
	lo, hi int64  // the range, as ranks of the layer (first on)
	first  uint64 // the layer's first rank: 0, but for tests (rankOrigin)
	span   int64  // every part's range size (partRanges)
	parts  int
	ex     Exchange
}

// owner returns the part that owns rank p of the layer, and p relative
// to that part's range.
func (r *rankPart) owner(p uint64) (int, uint32) {
	q := p - r.first
	t := q / uint64(r.span)
	return int(t), uint32(q - t*uint64(r.span))
}

// propagateLayer resolves the layer on its predecessor graph (nil: by
// un-sowing): with the state shared by the threads (propagate), or split
// into s.partitions parts exchanging batches in memory when that is above
// 1 (propagateParts).
func (s *layerSolver) propagateLayer(ctx context.Context, g *graph) ([]uint32, error) {
	if s.cluster != nil {
		return s.propagateParts(ctx, g, s.partitions, s.cluster)
	}
	if s.partitions > 1 {
		return s.propagateParts(ctx, g, s.partitions, newLocalRanks(s.partitions))
	}
	return s.propagate(ctx, g)
}

// propagateParts is propagate with the layer split into parts ranges,
// each part a goroutine running its own rounds through ex. The result
// equals propagate's: the rounds are the same distance levels, and within
// a round the order of the updates does not matter.
func (s *layerSolver) propagateParts(ctx context.Context, g *graph, parts int, ex Exchange) ([]uint32, error) {
	state := s.initState()
	span := partRanges(s.size, parts)
	if s.cluster != nil {
		return s.propagateOwnPart(ctx, g, state, span)
	}
	eg, ctx := errgroup.WithContext(ctx)
	for t := range parts {
		lo, hi := min(int64(t)*span, s.size), min(int64(t+1)*span, s.size)
		r := &rankPart{s: s, g: g, state: state, t: t, lo: lo, hi: hi, span: span, parts: parts, ex: ex}
		eg.Go(func() error { return r.run(ctx) })
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	s.exit = nil
	freeLarge(s.size)
	s.prog.reach(3 * s.size)
	return state, nil
}

// run is a part's whole propagation: thresholds k = n down to 1.
func (r *rankPart) run(ctx context.Context) error {
	for k := int8(r.s.n); k >= 1; k-- {
		if err := r.threshold(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// threshold is one threshold's rounds for this part, level by level as in
// layerSolver.threshold: the part seeds its own range, then expands,
// exchanges and applies until no part has anything left.
func (r *rankPart) threshold(ctx context.Context, k int8) error {
	now, later := seedRange(r.s, r.lo-r.s.lo, r.hi-r.s.lo, k, r.state, r.lo)
	for level := 0; ; level++ {
		left, err := r.ex.Sum(ctx, r.t, int64(now.len()+later.len()))
		if err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
		if level >= MaxDistance {
			return errDistance
		}
		if r.t == 0 {
			r.s.rounds++
		}
		in, err := r.ex.Exchange(ctx, r.t, r.expand(now))
		if err != nil {
			return err
		}
		now = r.apply(in, k, uint16(level+1))
		if level == 0 {
			now, later = now.join(later), frontier{}
		}
	}
}

// expand is the part's side of a round: the updates its frontier (ranks
// relative to its range) sends to the owners of the predecessors,
// relative to their ranges.
func (r *rankPart) expand(now frontier) []Batch {
	out := make([]Batch, r.parts)
	preds := r.newPartLister()
	for i := range int64(now.len()) {
		q, lost := now.at(i)
		ps, keeps := preds.list(uint64(r.lo) + uint64(q))
		for j, p := range ps {
			to, rel := r.owner(p)
			b := &out[to]
			if lost != (keeps != nil && keeps[j]) {
				b.Win = append(b.Win, rel)
			} else {
				b.Lose = append(b.Lose, rel)
			}
		}
	}
	r.s.prog.add(int64(now.len()))
	return out
}

// apply is the other side: the part applies the batches it received to
// its own positions and returns those newly resolved, at distance dist,
// relative to its range.
func (r *rankPart) apply(in []Batch, k int8, dist uint16) frontier {
	var next frontier
	own := r.state[r.lo-r.s.lo : r.hi-r.s.lo] // the solver's arrays start at rank s.lo
	for _, b := range in {
		for _, p := range b.Win {
			if resolveAlone(&own[p], true, k, dist) {
				next.won = append(next.won, p)
			}
		}
		for _, p := range b.Lose {
			if resolveAlone(&own[p], false, k, dist) {
				next.lost = append(next.lost, p)
			}
		}
	}
	return next
}

// partLister lists the in-layer predecessors of a part's positions as
// 64-bit ranks of the layer: by un-sowing (the ranks counted from the
// layer's first, rankPart.first), or from the one-machine graph, whose
// ranks are 32-bit.
type partLister struct {
	u     *unsower
	first uint64
	graph *predLister
	preds []uint64
}

func (r *rankPart) newPartLister() *partLister {
	if r.g != nil {
		return &partLister{graph: r.s.newPredLister(r.g)}
	}
	return &partLister{u: newUnsower(r.s), first: r.first}
}

// list returns the ranks of the in-layer predecessors of the position of
// rank q, once per move, and for each whether its move keeps the mover
// (as predLister.list). Both slices are valid until the next call.
func (l *partLister) list(q uint64) ([]uint64, []bool) {
	if l.graph == nil {
		l.preds = l.u.appendPredecessorRanks(q-l.first, l.first, l.preds[:0])
		return l.preds, nil
	}
	ps, keeps := l.graph.list(uint32(q)) // a graph is one machine's: its layer is under 2^32
	l.preds = l.preds[:0]
	for _, p := range ps {
		l.preds = append(l.preds, uint64(p))
	}
	return l.preds, keeps
}
