package solver

import (
	"math/bits"

	"github.com/mancala-solver/mancala/position"
)

// mix64 is the SplitMix64 finalizer (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014): a bijection on
// 64-bit words whose every output bit depends on every input bit. It maps
// 0 to 0, which keyFor relies on.
func mix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// sideKey is XORed into a position's hash where the player to move matters
// (repetition is of board and player, rules.md section 0).
const sideKey = 0x9e3779b97f4a7c15

// boardHash hashes a board seen from the side to move, without the player:
// the rules never name a player, so both players' copies of a board have
// the same history-free value and share table entries. salt keeps the
// variants apart in a table that several searches share.
func boardHash(p position.Position, salt uint64) uint64 {
	hi, lo := bits.Mul64(p.Own^0xa0761d6478bd642f, p.Opp^0xe7037ed1a0b428db)
	return mix64(hi ^ lo ^ salt)
}

// pathHash is the hash a position contributes to the set hash of a search
// path: its board hash plus the player to move.
func pathHash(p position.Position, board uint64) uint64 {
	return board ^ sideKey*uint64(p.Side)
}

// keyFor returns the table key of a node: the board hash alone at a
// history-free node (the first of its layer), or mixed with the set hash of
// the layer's earlier positions and the node's player otherwise. See doc.go,
// "Repetitions and the transposition table".
func keyFor(p position.Position, board uint64, historyFree bool, history uint64) uint64 {
	if historyFree {
		return board
	}
	return board ^ mix64(history^sideKey*uint64(p.Side+1))
}

// childKey is the table key of the node that move m leads to, whose line
// hash is childHistory unless the move starts a layer (keyFor).
func childKey(v *position.Variant, m *position.Move, salt, childHistory uint64) uint64 {
	board := boardHash(m.Next, salt)
	if v.StartsLayer(*m) {
		return board
	}
	return keyFor(m.Next, board, false, childHistory)
}

// variantSalt gives each variant its own hash space.
func variantSalt(v *position.Variant) uint64 { return mix64(uint64(v.ID) + 1) }
