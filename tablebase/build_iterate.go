package tablebase

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

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
