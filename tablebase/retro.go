package tablebase

import (
	"context"
	"errors"
	"math"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"mancala/position"
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
	v       *position.Variant
	ix      *Index
	n       int
	size    int64
	lower   [][]int8 // values of layers 0..n-1
	threads int
	prog    *progress

	// Filled by scan: the best value among the moves that capture (they
	// leave the layer) or the terminal value, else noExit; and the number
	// of moves that stay in the layer, plus one for the exit group.
	exit  []int8
	count []uint8
	edges int64 // moves that stay in the layer, all positions together
}

// forChunks runs fn over the layer's ranks [0, size) in chunks on
// s.threads workers, stopping at the first error or when ctx is cancelled.
func (s *layerSolver) forChunks(ctx context.Context, fn func(lo, hi int64) error) error {
	return parallel(ctx, s.threads, s.size, chunkSize, fn)
}

// parallel runs fn over [0, n) in chunks of chunk on threads workers,
// stopping at the first error or when ctx is cancelled.
func parallel(ctx context.Context, threads int, n, chunk int64, fn func(lo, hi int64) error) error {
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for w := 0; w < threads; w++ {
		g.Go(func() error {
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := fn(lo, min(lo+chunk, n)); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}

// exitValue returns the value to the mover of a move that captures: the
// seeds taken minus the child's value in its (lower, finished) layer.
func (s *layerSolver) exitValue(m *position.Move) int8 {
	c := int(m.Captured)
	return int8(c - int(s.lower[s.n-c][s.ix.Rank(m.Next)]))
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

// errInDegree reports a position with more than 65535 predecessors,
// which no variant comes near (about pits x seeds + 1 at most).
var errInDegree = errors.New("a position has too many predecessors for the graph's counters")

// scan is the first pass over the layer: it fills exit and count, and,
// when indeg is not nil, counts each position's predecessors in the layer
// from part t into indeg[t].
func (s *layerSolver) scan(ctx context.Context, indeg [][]uint16) error {
	s.exit = make([]int8, s.size)
	s.count = make([]uint8, s.size)
	hugePages(s.exit)
	hugePages(s.count)
	for _, counts := range indeg {
		hugePages(counts)
	}
	var edges atomic.Int64
	err := s.forParts(ctx, func(part int, lo, hi int64) error {
		var mine []uint16
		if indeg != nil {
			mine = indeg[part]
		}
		inner, err := s.scanRange(lo, hi, mine)
		edges.Add(inner)
		s.prog.add(hi - lo)
		return err
	})
	s.edges = edges.Load()
	return err
}

// scanRange is scan over ranks [lo, hi); it returns the moves that stay
// in the layer.
func (s *layerSolver) scanRange(lo, hi int64, indeg []uint16) (int64, error) {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	inner, wrapped := int64(0), false
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		p := c.position()
		nm := s.v.Moves(p, &buf)
		if nm == 0 {
			s.exit[i], s.count[i] = int8(s.v.TerminalValue(p)), 1
			continue
		}
		best, internal := int8(noExit), uint8(0)
		for j := range buf[:nm] {
			m := &buf[j]
			if m.Captured > 0 {
				best = max(best, s.exitValue(m))
				continue
			}
			internal++
			if indeg != nil {
				q := s.ix.Rank(m.Next)
				indeg[q]++
				wrapped = wrapped || indeg[q] == 0
			}
		}
		s.exit[i], s.count[i] = best, internal
		if best != noExit {
			s.count[i]++ // the exit group counts as one move
		}
		inner += int64(internal)
	}
	if wrapped {
		return inner, errInDegree
	}
	return inner, nil
}

// graph is a layer's moves that stay in the layer, reversed, in
// compressed sparse rows: the predecessors of position q are
// from[start[q]:start[q+1]], once per move (a position with two moves to q
// appears twice).
type graph struct {
	start []uint32
	from  []uint32
}

// reverse builds the predecessor graph from the per-part in-degrees
// counted by scan. It generates the moves again rather than storing them:
// one more pass of move generation costs less than holding every move
// twice. Each part fills its own slice of each position's run, so the
// fill needs no atomics either.
func (s *layerSolver) reverse(ctx context.Context, indeg [][]uint16) (*graph, error) {
	g := &graph{start: make([]uint32, s.size+1), from: make([]uint32, s.edges)}
	hugePages(g.start)
	hugePages(g.from)
	// start[q] is where q's run begins; indeg[t][q] becomes where part t's
	// slice of it begins, relative to start[q], and then its fill cursor.
	sum := uint32(0)
	for q := range s.size {
		g.start[q] = sum
		run := uint32(0)
		for _, counts := range indeg {
			counts[q], run = uint16(run), run+uint32(counts[q])
		}
		if run > 0xffff {
			return nil, errInDegree
		}
		sum += run
	}
	g.start[s.size] = sum
	err := s.forParts(ctx, func(part int, lo, hi int64) error {
		s.fillRange(lo, hi, g, indeg[part])
		s.prog.add(hi - lo)
		return nil
	})
	return g, err
}

// fillRange writes the predecessor entries of the moves of ranks [lo, hi).
func (s *layerSolver) fillRange(lo, hi int64, g *graph, cursor []uint16) {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		nm := s.v.Moves(c.position(), &buf)
		for j := range buf[:nm] {
			if buf[j].Captured == 0 {
				q := s.ix.Rank(buf[j].Next)
				g.from[g.start[q]+uint32(cursor[q])] = uint32(i)
				cursor[q]++
			}
		}
	}
}

// iterate resolves the layer by value iteration from 0 without a graph
// (the fallback when the graph does not fit in memory; see doc.go): sweep
// t computes the value of the game cut after t moves in the layer, cut
// play worth 0, and stops at the first sweep that changes nothing.
func (s *layerSolver) iterate(ctx context.Context) ([]int8, error) {
	cur, nxt := make([]int8, s.size), make([]int8, s.size)
	hugePages(cur)
	hugePages(nxt)
	for sweep := 1; ; sweep++ {
		var changed atomic.Bool
		err := s.forChunks(ctx, func(lo, hi int64) error {
			if s.sweep(lo, hi, cur, nxt) {
				changed.Store(true)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		cur, nxt = nxt, cur
		if !changed.Load() {
			s.prog.reach(3 * s.size)
			return cur, nil
		}
		// The number of sweeps is unknown: the last two thirds of the
		// layer's progress creep up by halves.
		s.prog.reach(3*s.size - 2*s.size>>min(sweep, 62))
	}
}

// sweep computes nxt from cur over ranks [lo, hi), reporting any change.
func (s *layerSolver) sweep(lo, hi int64, cur, nxt []int8) bool {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	changed := false
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		best, internal := s.exit[i], s.count[i]
		if best != noExit {
			internal--
		}
		if internal > 0 {
			nm := s.v.Moves(c.position(), &buf)
			for j := range buf[:nm] {
				if buf[j].Captured == 0 {
					best = max(best, -cur[s.ix.Rank(buf[j].Next)])
				}
			}
		}
		nxt[i] = best
		changed = changed || best != cur[i]
	}
	return changed
}
