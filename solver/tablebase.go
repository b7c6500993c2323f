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
