package tablebase

import (
	"context"
	"errors"
	"fmt"
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
	v       *position.Variant
	ix      *Index
	n       int
	size    int64
	lower   lowerValues // values of layers 0..n-1
	threads int
	prog    *progress
	// spillPath is the temporary file for graph arrays that do not fit
	// in memory (spill.go); "" when there is no tablebase directory.
	spillPath string
	// partitions, when above 1, splits propagation into that many rank
	// ranges exchanging batched updates (partition.go).
	partitions int
	rounds     int // propagation rounds so far: one a distance level of a threshold

	// Filled by scan: the best value among the moves that capture (they
	// leave the layer) or the terminal value, else noExit; and the number
	// of moves that stay in the layer, plus one for the exit group.
	exit  []int8
	count []uint8
	// state, when allocated before scan (un-sowing), receives the counts
	// directly as the initial propagation state, and count stays nil.
	state    []uint32
	terminal []uint64 // bit i: position i has no moves (the game is over)
	edges    int64    // moves that stay in the layer, all positions together
	keeps    int64    // of those, moves after which the mover moves again
}

// isTerminal reports whether position i of the layer has no moves: its
// exit is the game end, reached in 0 plies rather than by a 1-ply capture.
func (s *layerSolver) isTerminal(i int64) bool { return s.terminal[i>>6]&(1<<(i&63)) != 0 }

// keepsMover reports whether move m, played from p, leaves the same player
// to move (kalah's extra move): its child's value is then the mover's own.
func keepsMover(p position.Position, m *position.Move) bool { return m.Next.Side == p.Side }

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

// errInDegree reports a position with more than 65535 predecessors,
// which no variant comes near (about pits x seeds + 1 at most).
var errInDegree = errors.New("a position has too many predecessors for the graph's counters")

// scan is the first pass over the layer: it fills exit and count, and,
// when indeg is not nil, counts each position's predecessors in the layer
// from part t into indeg[t].
func (s *layerSolver) scan(ctx context.Context, indeg [][]uint16) error {
	s.exit = make([]int8, s.size)
	if s.state == nil {
		s.count = make([]uint8, s.size)
	}
	s.terminal = make([]uint64, (s.size+63)/64)
	hugepage.Advise(s.exit)
	hugepage.Advise(s.count)
	for _, counts := range indeg {
		hugepage.Advise(counts)
	}
	var edges, keeps atomic.Int64
	var termMu sync.Mutex
	err := s.forParts(ctx, func(part int, lo, hi int64) error {
		var mine []uint16
		if indeg != nil {
			mine = indeg[part]
		}
		inner, keep, err := s.scanRange(lo, hi, mine, &termMu)
		edges.Add(inner)
		keeps.Add(keep)
		s.prog.add(hi - lo)
		return err
	})
	s.edges, s.keeps = edges.Load(), keeps.Load()
	return err
}

// scanRange is scan over ranks [lo, hi); it returns the moves that stay
// in the layer and how many of them keep the mover. termMu guards the
// terminal bitset's words shared with the neighbouring ranges.
func (s *layerSolver) scanRange(lo, hi int64, indeg []uint16, termMu *sync.Mutex) (int64, int64, error) {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	inner, keep, wrapped := int64(0), int64(0), false
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		p := c.position()
		nm := s.v.Moves(p, &buf)
		if nm == 0 {
			s.exit[i] = int8(s.v.TerminalValue(p))
			s.setCount(i, 1)
			s.markTerminal(i, lo, hi, termMu)
			continue
		}
		best, internal := int8(noExit), uint8(0)
		for j := range buf[:nm] {
			m := &buf[j]
			if m.Captured > 0 {
				best = max(best, s.exitValue(p, m))
				continue
			}
			internal++
			if keepsMover(p, m) {
				keep++
			}
			if indeg != nil {
				q := s.ix.Rank(m.Next)
				indeg[q]++
				wrapped = wrapped || indeg[q] == 0
			}
		}
		s.exit[i] = best
		count := internal
		if best != noExit {
			count++ // the exit group counts as one move
		}
		s.setCount(i, count)
		inner += int64(internal)
	}
	if wrapped {
		return inner, keep, errInDegree
	}
	return inner, keep, nil
}

// setCount records position i's count of moves not known to lose: in the
// propagation state when it is allocated already, else in count.
func (s *layerSolver) setCount(i int64, c uint8) {
	if s.state != nil {
		s.state[i] = uint32(c)
	} else {
		s.count[i] = c
	}
}

// markTerminal sets position i's terminal bit. Only the first and last
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

// graph is a layer's moves that stay in the layer, reversed, in
// compressed sparse rows: the predecessors of position q are
// from[start[q]:start[q+1]], once per move (a position with two moves to q
// appears twice). keep, when not nil, has bit e set when edge from[e] is
// a move after which the mover moves again (kalah's extra move): no
// current variant has one, so it is allocated only when the layer does.
// mapped, when not nil, is the memory-mapped temporary file that start
// or from (or both) live in (spill.go); release unmaps it.
type graph struct {
	start  []uint32
	from   []uint32
	keep   []uint64
	mapped []byte
}

// keepsMover reports whether edge e is a move that keeps the mover.
func (g *graph) keepsMover(e uint32) bool { return g.keep != nil && g.keep[e>>6]&(1<<(e&63)) != 0 }

// reverse fills g, allocated by newGraph, with the predecessor graph
// from the per-part in-degrees counted by scan. It generates the moves
// again rather than storing them: one more pass of move generation costs
// less than holding every move twice. Each part fills its own slice of
// each position's run, so the fill needs no atomics either.
func (s *layerSolver) reverse(ctx context.Context, g *graph, indeg [][]uint16) error {
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
			return errInDegree
		}
		sum += run
	}
	g.start[s.size] = sum
	return s.forParts(ctx, func(part int, lo, hi int64) error {
		s.fillRange(lo, hi, g, indeg[part])
		s.prog.add(hi - lo)
		return nil
	})
}

// fillRange writes the predecessor entries of the moves of ranks [lo, hi).
func (s *layerSolver) fillRange(lo, hi int64, g *graph, cursor []uint16) {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		p := c.position()
		nm := s.v.Moves(p, &buf)
		for j := range buf[:nm] {
			if buf[j].Captured == 0 {
				q := s.ix.Rank(buf[j].Next)
				e := g.start[q] + uint32(cursor[q])
				g.from[e] = uint32(i)
				cursor[q]++
				if g.keep != nil && keepsMover(p, &buf[j]) {
					atomic.OrUint64(&g.keep[e>>6], 1<<(e&63)) // words are shared between parts
				}
			}
		}
	}
}

// iterate resolves the layer by value iteration from 0 without a graph
// (the fallback when the graph does not fit in memory; see doc.go): sweep
// t computes the value of the game cut after t moves in the layer, cut
// play worth 0, and stops at the first sweep that changes nothing. The
// distances follow from the values by more sweeps (distanceSweeps).
func (s *layerSolver) iterate(ctx context.Context) ([]int8, []uint16, error) {
	cur, nxt := make([]int8, s.size), make([]int8, s.size)
	hugepage.Advise(cur)
	hugepage.Advise(nxt)
	for sweep := 1; ; sweep++ {
		var changed atomic.Bool
		err := s.forChunks(ctx, func(lo, hi int64) error {
			if s.sweep(lo, hi, cur, nxt) {
				changed.Store(true)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		cur, nxt = nxt, cur
		if !changed.Load() {
			break
		}
		// The number of sweeps is unknown: the second third of the
		// layer's progress creeps up by halves.
		s.prog.reach(2*s.size - s.size>>min(sweep, 62))
	}
	nxt = nil
	dist, err := s.distanceSweeps(ctx, cur)
	s.prog.reach(3 * s.size)
	return cur, dist, err
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
			p := c.position()
			nm := s.v.Moves(p, &buf)
			for j := range buf[:nm] {
				if m := &buf[j]; m.Captured == 0 {
					best = max(best, int8(m.Value(p, int(cur[s.ix.Rank(m.Next)]))))
				}
			}
		}
		nxt[i] = best
		changed = changed || best != cur[i]
	}
	return changed
}

// unassigned marks a distance not yet known in distanceSweeps.
const unassigned = math.MaxUint16

// distanceSweeps computes the distances (doc.go) of a layer whose values
// are known, without a graph: sweep t gives distance t to each position
// not yet assigned whose value is not 0 and that has a move keeping its
// value to an exit (t = 1) or to a position of distance < t, for the
// winner any such move and for the loser every such move. A sweep reads
// only distances of earlier sweeps: its own are written after it.
func (s *layerSolver) distanceSweeps(ctx context.Context, values []int8) ([]uint16, error) {
	dist := make([]uint16, s.size)
	hugepage.Advise(dist)
	var open atomic.Int64
	err := s.forChunks(ctx, func(lo, hi int64) error {
		n := int64(0)
		for i := lo; i < hi; i++ {
			if values[i] != 0 && !s.isTerminal(i) {
				dist[i] = unassigned
				n++
			}
		}
		open.Add(n)
		return nil
	})
	for t := 1; err == nil && open.Load() > 0; t++ {
		if t > MaxDistance {
			return nil, errDistance
		}
		var mu sync.Mutex
		var assigned []uint32
		err = s.forChunks(ctx, func(lo, hi int64) error {
			local := s.distanceSweep(lo, hi, values, dist, uint16(t))
			mu.Lock()
			assigned = append(assigned, local...)
			mu.Unlock()
			return nil
		})
		if err == nil && len(assigned) == 0 {
			return nil, fmt.Errorf("%d positions have a value but no distance (an inconsistent layer)", open.Load())
		}
		for _, i := range assigned {
			dist[i] = uint16(t)
		}
		open.Add(-int64(len(assigned)))
		s.prog.reach(3*s.size - s.size>>min(t, 62))
	}
	return dist, err
}

// distanceSweep is sweep t of distanceSweeps over ranks [lo, hi); it
// returns the positions that get distance t.
func (s *layerSolver) distanceSweep(lo, hi int64, values []int8, dist []uint16, t uint16) []uint32 {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	var assigned []uint32
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		if dist[i] != unassigned {
			continue
		}
		p := c.position()
		nm := s.v.Moves(p, &buf)
		v := values[i]
		won, lost := false, true // some keeping move is done; every one is
		for j := range buf[:nm] {
			m := &buf[j]
			var value int8
			done := true
			if m.Captured > 0 {
				value = s.exitValue(p, m)
			} else {
				q := s.ix.Rank(m.Next)
				value, done = int8(m.Value(p, int(values[q]))), dist[q] < t
			}
			if value == v {
				won = won || done
				lost = lost && done
			}
		}
		if (v > 0 && won) || (v < 0 && lost) {
			assigned = append(assigned, uint32(i))
		}
	}
	return assigned
}
