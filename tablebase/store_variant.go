package tablebase

import "github.com/mancala-solver/mancala/position"

// VariantOf returns the variant whose tablebase holds v's positions: the
// one place that choice is made, called by every function of this package
// that takes a variant (Build, Verify, OpenProber, Stats, DiskBytes) and by
// anyone who reports it.
//
// Every kalah size with m pits a row shares Kalah(m,4)'s tablebase (kalah's,
// for six pits): the rules never look at the seeds a game started with, so
// a position of Kalah(6,5) with 20 seeds on the board is the same position,
// with the same value, as one of Kalah(6,4) (docs/kalah.md). Any other
// variant is its own.
func VariantOf(v *position.Variant) *position.Variant {
	if v.Sow == position.SowStore && v.StartSeeds != 4 {
		return position.Kalah(v.Pits, 4)
	}
	return v
}
