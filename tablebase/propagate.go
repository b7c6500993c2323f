package tablebase

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// During propagation each position's state is one uint32, changed only by
// compare-and-swap so that workers can resolve positions concurrently:
//
//	bits 0-7   moves not yet known to lose at the current threshold (count)
//	bits 8-15  the value, as uint8, once resolved
//	bit  16    resolved
//	bits 17-31 the distance in plies (doc.go), once resolved
//
// A resolved state never changes again.
const (
	resolved      = 1 << 16
	valueShift    = 8
	distanceShift = 17
)

// MaxDistance is the largest distance the build stores (15 bits of the
// propagation state); a layer needing more fails with errDistance.
const MaxDistance = 1<<15 - 1

var errDistance = errors.New("a forced line is longer than the distance can hold (32767 plies)")

func stateValue(st uint32) int8 { return int8(uint8(st >> valueShift)) }

func stateDistance(st uint32) uint16 { return uint16(st >> distanceShift) }

func resolvedAt(v int8, dist uint16) uint32 {
	return resolved | uint32(uint8(v))<<valueShift | uint32(dist)<<distanceShift
}

// frontierChunk is how many resolved positions a worker expands at a time.
const frontierChunk = 1 << 12

// propagate resolves the layer on its predecessor graph, one threshold at
// a time from k = n down to 1 (see doc.go): at threshold k a position is
// won (value k) when a capture or the game end gives it at least k, or a
// move reaches a position lost at k; it is lost (value -k) once every move
// gives at most -k. What no threshold resolves can be kept from every
// capture by either side: infinite play, value 0. Within a threshold the
// attractor is grown frontier by frontier, each frontier in parallel; the
// result does not depend on the order. The frontiers are taken level by
// level, level d holding the positions resolved at distance d, so that a
// position is resolved from the level that sets its distance: a winner
// from its first (shortest) winning move, a loser by its last (longest)
// losing one.
func (s *layerSolver) propagate(ctx context.Context, g *graph) ([]int8, []uint16, error) {
	state := make([]uint32, s.size)
	hugePages(state)
	for i, c := range s.count {
		state[i] = uint32(c)
	}
	s.count = nil
	for k := int8(s.n); k >= 1; k-- {
		if err := s.threshold(ctx, k, g, state); err != nil {
			return nil, nil, err
		}
	}
	values := make([]int8, s.size)
	dist := make([]uint16, s.size)
	hugePages(values)
	hugePages(dist)
	for i, st := range state {
		values[i] = stateValue(st) // unresolved states hold value 0, distance 0
		dist[i] = stateDistance(st)
	}
	s.prog.reach(3 * s.size)
	return values, dist, nil
}

// threshold grows the attractors of threshold k, one distance level at a
// time: level 0 is the game ends that seed resolves, level 1 its captures
// and the expansion of level 0, level d+1 the expansion of level d.
func (s *layerSolver) threshold(ctx context.Context, k int8, g *graph, state []uint32) error {
	now, later, err := s.seed(ctx, k, state)
	for level := 0; err == nil && len(now)+len(later) > 0; level++ {
		if level >= MaxDistance {
			return errDistance
		}
		var next []uint32
		next, err = s.expand(ctx, k, g, state, now, uint16(level+1))
		if level == 0 {
			next, later = append(next, later...), nil
		}
		now = next
	}
	return err
}

// seed starts threshold k: positions whose best exit is exactly k are won
// at k (better exits were resolved at higher thresholds), and positions
// whose best exit is -k now know their whole exit group loses at least k.
// It returns the positions resolved at distance 0 (game ends) and at
// distance 1 (by a capture). Each worker touches only its own ranks, so
// no atomics are needed.
func (s *layerSolver) seed(ctx context.Context, k int8, state []uint32) ([]uint32, []uint32, error) {
	var mu sync.Mutex
	var ends, captures []uint32
	err := s.forChunks(ctx, func(lo, hi int64) error {
		var localEnds, localCaptures []uint32
		for i := lo; i < hi; i++ {
			st := state[i]
			if st&resolved != 0 || (s.exit[i] != k && s.exit[i] != -k) {
				continue
			}
			dist := uint16(1)
			if s.isTerminal(i) {
				dist = 0
			}
			if s.exit[i] == k {
				st = resolvedAt(k, dist)
			} else if st--; st&0xff == 0 {
				st = resolvedAt(-k, dist)
			}
			state[i] = st
			switch {
			case st&resolved == 0:
			case dist == 0:
				localEnds = append(localEnds, uint32(i))
			default:
				localCaptures = append(localCaptures, uint32(i))
			}
		}
		mu.Lock()
		ends = append(ends, localEnds...)
		captures = append(captures, localCaptures...)
		mu.Unlock()
		return nil
	})
	return ends, captures, err
}

// expand resolves the predecessors of the frontier's positions at
// threshold k, at distance dist, and returns those newly resolved. A
// move that keeps the mover (graph.keepsMover) hands the predecessor its
// child's result as its own: a won child wins it at once, a lost one is
// one more move known to lose.
func (s *layerSolver) expand(ctx context.Context, k int8, g *graph, state []uint32, frontier []uint32, dist uint16) ([]uint32, error) {
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
			for e := g.start[q]; e < g.start[q+1]; e++ {
				p := g.from[e]
				if resolve(&state[p], lost != g.keepsMover(e), k, dist) {
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
func resolveFrom(st *uint32, lost bool, k int8, dist uint16) bool {
	for {
		old := atomic.LoadUint32(st)
		if old&resolved != 0 {
			return false
		}
		nu := afterResolution(old, lost, k, dist)
		if atomic.CompareAndSwapUint32(st, old, nu) {
			return nu&resolved != 0
		}
	}
}

// afterResolution is the state of an unresolved predecessor (state old)
// once one of its moves leads to a lost (or won) position at threshold k;
// a resolution is at distance dist.
func afterResolution(old uint32, lost bool, k int8, dist uint16) uint32 {
	if lost {
		return resolvedAt(k, dist)
	}
	if nu := old - 1; nu&0xff != 0 {
		return nu
	}
	return resolvedAt(-k, dist)
}

// resolveAlone is resolveFrom for a single worker: plain loads and stores,
// which let the processor overlap the cache misses that locked
// instructions serialise.
func resolveAlone(st *uint32, lost bool, k int8, dist uint16) bool {
	old := *st
	if old&resolved != 0 {
		return false
	}
	nu := afterResolution(old, lost, k, dist)
	*st = nu
	return nu&resolved != 0
}
