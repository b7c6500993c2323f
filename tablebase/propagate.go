package tablebase

import (
	"context"
	"sync"
	"sync/atomic"
)

// During propagation each position's state is one uint32, changed only by
// compare-and-swap so that workers can resolve positions concurrently:
//
//	bits 0-7   moves not yet known to lose at the current threshold (count)
//	bits 8-15  the value, as uint8, once resolved
//	bit  16    resolved
//
// A resolved state never changes again.
const (
	resolved   = 1 << 16
	valueShift = 8
)

func stateValue(st uint32) int8 { return int8(uint8(st >> valueShift)) }

func resolvedAt(v int8) uint32 { return resolved | uint32(uint8(v))<<valueShift }

// frontierChunk is how many resolved positions a worker expands at a time.
const frontierChunk = 1 << 12

// propagate resolves the layer on its predecessor graph, one threshold at
// a time from k = n down to 1 (see doc.go): at threshold k a position is
// won (value k) when a capture or the game end gives it at least k, or a
// move reaches a position lost at k; it is lost (value -k) once every move
// gives at most -k. What no threshold resolves can be kept from every
// capture by either side: infinite play, value 0. Within a threshold the
// attractor is grown frontier by frontier, each frontier in parallel; the
// result does not depend on the order.
func (s *layerSolver) propagate(ctx context.Context, g *graph) ([]int8, error) {
	state := make([]uint32, s.size)
	hugePages(state)
	for i, c := range s.count {
		state[i] = uint32(c)
	}
	s.count = nil
	for k := int8(s.n); k >= 1; k-- {
		frontier, err := s.seed(ctx, k, state)
		for err == nil && len(frontier) > 0 {
			frontier, err = s.expand(ctx, k, g, state, frontier)
		}
		if err != nil {
			return nil, err
		}
	}
	values := make([]int8, s.size)
	hugePages(values)
	for i, st := range state {
		values[i] = stateValue(st) // unresolved states hold value 0
	}
	s.prog.reach(3 * s.size)
	return values, nil
}

// seed starts threshold k: positions whose best exit is exactly k are won
// at k (better exits were resolved at higher thresholds), and positions
// whose best exit is -k now know their whole exit group loses at least k.
// Each worker touches only its own ranks, so no atomics are needed.
func (s *layerSolver) seed(ctx context.Context, k int8, state []uint32) ([]uint32, error) {
	var mu sync.Mutex
	var frontier []uint32
	err := s.forChunks(ctx, func(lo, hi int64) error {
		var local []uint32
		for i := lo; i < hi; i++ {
			st := state[i]
			if st&resolved != 0 {
				continue
			}
			switch s.exit[i] {
			case k:
				state[i] = resolvedAt(k)
				local = append(local, uint32(i))
			case -k:
				if st--; st&0xff == 0 {
					st = resolvedAt(-k)
					local = append(local, uint32(i))
				}
				state[i] = st
			}
		}
		mu.Lock()
		frontier = append(frontier, local...)
		mu.Unlock()
		return nil
	})
	return frontier, err
}

// expand resolves the predecessors of the frontier's positions at
// threshold k and returns those newly resolved.
func (s *layerSolver) expand(ctx context.Context, k int8, g *graph, state []uint32, frontier []uint32) ([]uint32, error) {
	var mu sync.Mutex
	var next []uint32
	resolve := resolveFrom
	if s.threads == 1 {
		resolve = resolveAlone
	}
	err := parallel(ctx, s.threads, int64(len(frontier)), frontierChunk, func(lo, hi int64) error {
		var local []uint32
		for _, q := range frontier[lo:hi] {
			lost := stateValue(atomic.LoadUint32(&state[q])) < 0 // resolved: never changes
			for _, p := range g.from[g.start[q]:g.start[q+1]] {
				if resolve(&state[p], lost, k) {
					local = append(local, p)
				}
			}
		}
		mu.Lock()
		next = append(next, local...)
		mu.Unlock()
		s.prog.add(hi - lo)
		return nil
	})
	return next, err
}

// resolveFrom applies to an unresolved predecessor what its successor's
// resolution at threshold k means: a move to a lost position wins k; a
// move to a won one is one more move known to lose k, and the last such
// loses the predecessor. It reports whether it resolved the predecessor.
func resolveFrom(st *uint32, lost bool, k int8) bool {
	for {
		old := atomic.LoadUint32(st)
		if old&resolved != 0 {
			return false
		}
		nu := afterResolution(old, lost, k)
		if atomic.CompareAndSwapUint32(st, old, nu) {
			return nu&resolved != 0
		}
	}
}

// afterResolution is the state of an unresolved predecessor (state old)
// once one of its moves leads to a lost (or won) position at threshold k.
func afterResolution(old uint32, lost bool, k int8) uint32 {
	if lost {
		return resolvedAt(k)
	}
	if nu := old - 1; nu&0xff != 0 {
		return nu
	}
	return resolvedAt(-k)
}

// resolveAlone is resolveFrom for a single worker: plain loads and stores,
// which let the processor overlap the cache misses that locked
// instructions serialise.
func resolveAlone(st *uint32, lost bool, k int8) bool {
	old := *st
	if old&resolved != 0 {
		return false
	}
	nu := afterResolution(old, lost, k)
	*st = nu
	return nu&resolved != 0
}
