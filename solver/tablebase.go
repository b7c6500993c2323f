package solver

import "github.com/mancala-solver/mancala/position"

// Tablebase is all the search needs of an endgame database: exact values
// of the positions with few seeds. The tablebase package implements it; a
// nil Tablebase means none. Implementations must be safe for concurrent use
// by every search thread.
type Tablebase interface {
	// MaxSeeds returns the largest seed count whose positions are all
	// stored: every position with at most this many seeds on the board.
	MaxSeeds() int
	// Probe returns the exact value of p (rules.md section 6: score
	// difference in seeds, from the side to move, for the rest of the
	// game, -S..S) and ok=true, or ok=false when p is not stored.
	Probe(p position.Position) (value int, ok bool)
}

// tablebaseLocator is a Tablebase that can tell where a position's value
// is in memory (tablebase.Prober does): a node locates the values of its
// children and prefetches them, with their table buckets, so that their
// cache misses overlap, then reads them there, ranking each child once
// rather than once to prefetch and again to probe.
type tablebaseLocator interface {
	// Locate returns the address of p's value (Probe's) when p is
	// stored and its value is in memory, else nil; the value there
	// stays valid while the search runs. It waits for nothing.
	Locate(p position.Position) *int8
}
