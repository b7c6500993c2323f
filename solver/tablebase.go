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

// tablebasePrefetcher is a Tablebase that can start reading a position's
// value ahead of its Probe (tablebase.Prober does): a node prefetches the
// values of its children with their table buckets, so that their cache
// misses overlap.
type tablebasePrefetcher interface {
	// Prefetch starts bringing p's value into the caches, if p is
	// stored and its value is in memory; it waits for nothing.
	Prefetch(p position.Position)
}
