package tablebase

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

// noExit marks a position with neither a capture nor a game end among its
// moves. Values never come near it (|value| <= 70).
const noExit = math.MinInt8

// chunkSize is the number of consecutive ranks a worker takes at a time:
// big enough to amortise one Unrank, small enough to balance two cores.
const chunkSize = 1 << 14

// layerSolver computes the values of layer n from the finished layers
// below it. Fields set once are read by every worker; the arrays are
// written position by position, each position by one worker.
type layerSolver struct {
	v     *position.Variant
	ix    *Index
	n     int
	size  int64
	lower lowerValues // values of layers 0..n-1
	// packed holds the lower layers the forward pass kept packed
	// (packValues; lower has nil for them); it may be shorter than n.
	packed []packedValues
	// exitsDone, when not nil, is called by the forward pass once its
	// exit pass has read the lower layers for the last time, with lower
	// and packed let go: no layer above needs them (dropLower).
	exitsDone func()
	threads   int
	prog      *progress
	// spillPath is the temporary file for graph arrays that do not fit
	// in memory (build_graph.go, build_spill_linux.go); "" when there is no tablebase directory.
	spillPath string
	// partitions, when above 1, splits propagation into that many rank
	// ranges exchanging batched updates (build_partition.go).
	partitions int
	// cluster, when not nil, is the transport of a build across
	// processes (BuildOptions.Cluster): this process propagates only its
	// own part, cluster.Rank(), of the partitions (and scans only that
	// part when ownScan).
	cluster Cluster
	ownScan bool // with cluster: the scan covers this process's part only
	// With ownScan: the range size of each lower layer split in parts
	// (lowerSpans), and this rank's value of rank rel of its range of
	// lower layer m, which answers the other ranks' lookups
	// (build_lookup.go).
	lowerSpans []int64
	ownLower   func(m int, rel uint32) int8
	// The layer's arrays (exit, terminal, state, count) hold the
	// positions of ranks [lo, hi): the whole layer on one machine, this
	// rank's range across processes, where the ranks are counted from
	// origin (0, but for tests: rankOrigin).
	lo, hi int64
	origin uint64
	rounds int // propagation rounds so far: one a distance level of a threshold

	// unranker is the layer's table-assisted Unrank for un-sowing, made
	// once (its table is at most 16 MB) and read by every worker.
	unranker     *layerUnranker
	unrankerOnce sync.Once

	// Filled by scan: the best value among the moves that capture (they
	// leave the layer) or the terminal value, else noExit; and the number
	// of moves that stay in the layer, plus one for the exit group.
	exit  []int8
	count []uint8
	// state, when allocated before scan (un-sowing), receives the counts
	// directly as the initial propagation state, and count stays nil.
	state    []uint32
	state16  []uint16 // instead of state, narrow (build_state.go)
	terminal []uint64 // bit i: position i has no moves (the game is over)
	edges    int64    // moves that stay in the layer, all positions together
	keeps    int64    // of those, moves after which the mover moves again
	pass     scanPass // what the next scan computes
}

// scanPass is what a scan computes: the exits and the counts together
// (the zero value), or one of them, for an un-sowing layer whose scan is
// split in two so that the lower layers, which only the exits read, are
// in memory without the propagation state beside them (splitScan).
type scanPass uint8

const (
	scanBoth   scanPass = iota
	scanExits           // exit and terminal only; no counts
	scanCounts          // the counts only, exit and terminal already filled
)

// layerUnranker returns the layer's unranker, making it on first use.
func (s *layerSolver) layerUnranker() *layerUnranker {
	s.unrankerOnce.Do(func() { s.unranker = s.ix.newLayerUnranker(s.n) })
	return s.unranker
}

// isTerminal reports whether the position at index i of the arrays (rank
// s.lo+i) has no moves: its
// exit is the game end, reached in 0 plies rather than by a 1-ply capture.
func (s *layerSolver) isTerminal(i int64) bool { return s.terminal[i>>6]&(1<<(i&63)) != 0 }

// forChunks runs fn over the layer's ranks [0, size) in chunks on
// s.threads workers, stopping at the first error or when ctx is cancelled.
func (s *layerSolver) forChunks(ctx context.Context, fn func(lo, hi int64) error) error {
	return parallel(ctx, s.threads, s.size, chunkSize, fn)
}

// parallel runs fn over [0, n) in chunks of chunk on threads workers,
// stopping at the first error or when ctx is cancelled: parallelGuided
// with chunks of one size, so every chunk but the last starts at a
// multiple of chunk (the encoder's blocks rely on it).
func parallel(ctx context.Context, threads int, n, chunk int64, fn func(lo, hi int64) error) error {
	return parallelGuided(ctx, threads, n, chunk, chunk, fn)
}

// parallelGuided runs fn over [0, n) on threads workers, stopping at the
// first error or when ctx is cancelled, in chunks that shrink as the work
// runs out: a worker takes a 1/(4*threads) share of what is left, at least
// minChunk and at most maxChunk positions. A frontier is expanded by
// every thread and then waited for, thousands of times a layer, and in
// chunks of a fixed size the last one left the other cores idle for up
// to a chunk's time at each of those barriers; here the last chunks are
// small, so the workers end close together.
func parallelGuided(ctx context.Context, threads int, n, minChunk, maxChunk int64, fn func(lo, hi int64) error) error {
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for w := 0; w < threads; w++ {
		g.Go(func() error {
			for {
				lo := next.Load()
				if lo >= n {
					return nil
				}
				hi := min(n, lo+min(maxChunk, max(minChunk, (n-lo)/int64(4*threads))))
				if !next.CompareAndSwap(lo, hi) {
					continue
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := fn(lo, hi); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}

// exitValue returns the value to the mover of a move that captures (or
// banks) seeds, from p: m.Value of the child's value in its (lower,
// finished) layer.
func (s *layerSolver) exitValue(p position.Position, m *position.Move) int8 {
	c := int(m.Captured)
	return int8(m.Value(p, int(s.lower.value(s.n-c, s.ix.Rank(m.Next)))))
}

// maxParts caps the static partition of scan and reverse: each part has
// its own in-degree counters, 2 bytes a position.
const maxParts = 16

// parts returns how many contiguous parts scan and reverse split the
// layer into.
func (s *layerSolver) parts() int { return min(s.threads, maxParts) }

// forParts runs fn over the layer split into parts() contiguous ranges,
// one worker each, in chunks (for cancellation and progress). Unlike
// forChunks the split is fixed, so a part's counters are touched by one
// worker only and need no atomics: a random atomic increment costs
// several plain ones (measured: the atomic fill was 25% of a build).
func (s *layerSolver) forParts(ctx context.Context, fn func(part int, lo, hi int64) error) error {
	g, ctx := errgroup.WithContext(ctx)
	n := int64(s.parts())
	for t := range n {
		lo, hi := s.size*t/n, s.size*(t+1)/n
		g.Go(func() error {
			for c := lo; c < hi; c += chunkSize {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := fn(int(t), c, min(c+chunkSize, hi)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// forRanges runs fn over the layer split into s.partitions part ranges
// (partRanges), one goroutine a part, each over its own range in chunks.
func (s *layerSolver) forRanges(ctx context.Context, fn func(lo, hi int64) error) error {
	g, ctx := errgroup.WithContext(ctx)
	span := partRanges(s.size, s.partitions)
	type part struct{ lo, hi int64 }
	var todo []part
	for t := range int64(s.partitions) {
		todo = append(todo, part{min(t*span, s.size), min((t+1)*span, s.size)})
	}
	for _, pt := range todo {
		lo, hi := pt.lo, pt.hi
		g.Go(func() error {
			for c := lo; c < hi; c += chunkSize {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := fn(c, min(c+chunkSize, hi)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// errInDegree reports a position with more than 65535 predecessors,
// which no variant comes near (about pits x seeds + 1 at most).
var errInDegree = errors.New("a position has too many predecessors for the graph's counters")

// scan is the first pass over the layer: it fills exit and count, and,
// when indeg is not nil, counts each position's predecessors in the layer
// from part t into indeg[t].
func (s *layerSolver) scan(ctx context.Context, indeg [][]uint16) error {
	held := s.hi - s.lo
	if s.pass != scanCounts {
		s.exit = make([]int8, held)
		s.terminal = make([]uint64, (held+63)/64)
	}
	if s.state == nil && s.state16 == nil && s.pass != scanExits {
		s.count = make([]uint8, held)
	}
	hugepage.Advise(s.exit)
	hugepage.Advise(s.count)
	for _, counts := range indeg {
		hugepage.Advise(counts)
	}
	var edges, keeps atomic.Int64
	var termMu sync.Mutex
	scanChunk := func(lo, hi int64, mine []uint16) error {
		inner, keep, err := s.scanRange(lo, hi, mine, &termMu, nil)
		edges.Add(inner)
		keeps.Add(keep)
		s.prog.add(hi - lo)
		return err
	}
	var err error
	if s.ownScan {
		// One rank of a build across processes: its own range, the
		// captures' values asked of their owners.
		e, k, err := s.scanOwn(ctx)
		s.edges, s.keeps = e, k
		return err
	}
	if indeg == nil && s.partitions > 1 {
		// A layer built in parts: each part scans its own range.
		err = s.forRanges(ctx, func(lo, hi int64) error { return scanChunk(lo, hi, nil) })
	} else if indeg == nil {
		// No counters to keep apart: the workers take chunks as they
		// go, so both stay busy to the end (a fixed split in halves left
		// one idle while the other finished the costlier half).
		err = s.forChunks(ctx, func(lo, hi int64) error { return scanChunk(lo, hi, nil) })
	} else {
		err = s.forParts(ctx, func(part int, lo, hi int64) error { return scanChunk(lo, hi, indeg[part]) })
	}
	s.edges, s.keeps = edges.Load(), keeps.Load()
	return err
}

// scanRange is scan over ranks [lo, hi); it returns the moves that stay
// in the layer and how many of them keep the mover. termMu guards the
// terminal bitset's words shared with the neighbouring ranges. When q is
// not nil the captures' values are looked up later (scanOwn): their
// queries go to q.
func (s *layerSolver) scanRange(lo, hi int64, indeg []uint16, termMu *sync.Mutex, q *captureQueries) (int64, int64, error) {
	var buf [position.MaxPits]position.Move
	var exits exitBatch
	c := s.ix.newCursor(s.n, uint64(lo)-s.origin)
	inner, keep, wrapped := int64(0), int64(0), false
	fillExits, fillCounts := s.pass != scanCounts, s.pass != scanExits
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		j := i - s.lo // in the arrays
		p := c.position()
		nm := s.v.Moves(p, &buf)
		if nm == 0 {
			if fillExits {
				s.exit[j] = int8(s.v.TerminalValue(p))
				s.markTerminal(j, lo-s.lo, hi-s.lo, termMu)
			}
			if fillCounts {
				s.setCount(j, 1)
			}
			continue
		}
		if fillExits {
			s.exit[j] = noExit
		}
		captures, internal := false, uint8(0)
		for j := range buf[:nm] {
			m := &buf[j]
			if m.Captured > 0 {
				if fillExits {
					exits.add(i, p, m, s)
				}
				captures = true
				continue
			}
			if !fillCounts {
				continue
			}
			internal++
			if m.MovesAgain(p) {
				keep++
			}
			if indeg != nil {
				q := s.ix.Rank(m.Next)
				indeg[q]++
				wrapped = wrapped || indeg[q] == 0
			}
		}
		if exits.full() {
			exits.flush(s, q)
		}
		if !fillCounts {
			continue
		}
		count := internal
		if captures {
			count++ // the exit group counts as one move
		}
		s.setCount(j, count)
		inner += int64(internal)
	}
	exits.flush(s, q)
	if wrapped {
		return inner, keep, errInDegree
	}
	return inner, keep, nil
}

// exitBatchSize is how many captures scan gathers before it reads the
// values of their children.
const exitBatchSize = 512

// exitBatch gathers the captures of a run of positions so that the
// values of their children, in the lower layers and nearly all cache
// misses, are read in one tight loop whose loads the processor overlaps;
// read as each move was generated, about one miss at a time was in
// flight.
type exitBatch struct {
	n     int
	moves [exitBatchSize]exitMove
}

// exitMove is one capture: its parent and the parent's rank, the move,
// and where its child lies in the lower layers.
type exitMove struct {
	rank   int64
	parent position.Position
	move   position.Move
	layer  int
	child  uint64
}

func (b *exitBatch) full() bool { return b.n > exitBatchSize-position.MaxPits }

// add records capture m from p, the position of rank i.
func (b *exitBatch) add(i int64, p position.Position, m *position.Move, s *layerSolver) {
	b.moves[b.n] = exitMove{rank: i, parent: p, move: *m, layer: s.n - int(m.Captured), child: s.ix.Rank(m.Next)}
	b.n++
}

// flush sets each parent's exit to its best capture (apply), or, when q
// is not nil, records the captures as q's queries; it empties the batch.
func (b *exitBatch) flush(s *layerSolver, q *captureQueries) {
	if q != nil {
		q.add(s, b)
		b.n = 0
		return
	}
	b.apply(s)
}

// apply sets each parent's exit to its best capture, and empties the
// batch.
func (b *exitBatch) apply(s *layerSolver) {
	var values [exitBatchSize]int8
	for j := range b.moves[:b.n] {
		values[j] = s.lower.value(b.moves[j].layer, b.moves[j].child)
	}
	for j := range b.moves[:b.n] {
		e := &b.moves[j]
		v := int8(e.move.Value(e.parent, int(values[j])))
		s.exit[e.rank-s.lo] = max(s.exit[e.rank-s.lo], v)
	}
	b.n = 0
}

// setCount records the count of moves not known to lose of the
// position at index i of the arrays: in the
// propagation state when it is allocated already, else in count.
func (s *layerSolver) setCount(i int64, c uint8) {
	switch {
	case s.state16 != nil:
		s.state16[i] = uint16(c)
	case s.state != nil:
		s.state[i] = uint32(c)
	default:
		s.count[i] = c
	}
}

// markTerminal sets the terminal bit of the position at index i of the
// arrays, in a worker's range [lo, hi) of them. Only the first and last
// words of a range can be shared with another worker's range, so only
// those take the lock.
func (s *layerSolver) markTerminal(i, lo, hi int64, mu *sync.Mutex) {
	w := i >> 6
	if w == lo>>6 || w == (hi-1)>>6 {
		mu.Lock()
		defer mu.Unlock()
	}
	s.terminal[w] |= 1 << (i & 63)
}
