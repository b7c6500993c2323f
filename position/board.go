package position

// MaxPits is the largest number of pits in one row among the supported
// variants (akon's 7).
const MaxPits = 7

// lsb has the value 1 in every byte: multiplied by k it puts k seeds in
// every pit of a packed row.
const lsb = 0x0101010101010101

// Position is a packed board seen from the side to move, plus who that side
// is. It is a value type: copying it is cheap and moves never change it.
//
// Layout (8 bits a pit, pit i of a row in bits 8(i-1)..8(i-1)+7):
//
//	Own  (uint64, the side to move's row, in that player's sowing order)
//	  byte:  7    6    5    4    3    2    1    0
//	       [ 0 | p7 | p6 | p5 | p4 | p3 | p2 | p1 ]     (p7 only in akon)
//	Opp  (uint64, the opponent's row, same layout)
//	       [ 0 | q7 | q6 | q5 | q4 | q3 | q2 | q1 ]
//	Side (uint8): 0 when player 1 is to move, 1 when player 2 is.
//
// Sowing runs p1..pn, then q1..qn, then back to p1 (rules.md section 0), so
// the ring index of pit pi is i-1 and that of qi is n+i-1. A pit holds at most
// 255 seeds; no variant has more than 70. Bytes above pit n are always zero.
type Position struct {
	Own, Opp uint64
	Side     uint8
}

// Pit returns the seeds in pit i (0-based) of the packed row.
func Pit(row uint64, i int) int { return int(row >> (8 * uint(i)) & 0xff) }

// RowSeeds returns the total seeds in a packed row.
func RowSeeds(row uint64) int { return int((row * lsb) >> 56) }

// PackRow packs seed counts (pit 1 first) into a row word. Counts must be
// in 0..255 and len(pits) <= 8.
func PackRow(pits []int) uint64 {
	var row uint64
	for i, s := range pits {
		row |= uint64(s) << (8 * uint(i))
	}
	return row
}

// UnpackRow returns the n seed counts of a packed row, pit 1 first.
func UnpackRow(row uint64, n int) []int {
	pits := make([]int, n)
	for i := range pits {
		pits[i] = Pit(row, i)
	}
	return pits
}

// Seeds returns the seeds on the board.
func (p Position) Seeds() int { return RowSeeds(p.Own) + RowSeeds(p.Opp) }

// Swapped returns the same board with the other player to move: a pass.
func (p Position) Swapped() Position {
	return Position{Own: p.Opp, Opp: p.Own, Side: p.Side ^ 1}
}

// Rows returns the packed rows of player 1 and player 2, whoever is to move.
func (p Position) Rows() (row1, row2 uint64) {
	if p.Side == 0 {
		return p.Own, p.Opp
	}
	return p.Opp, p.Own
}

// FromRows builds a position from player 1's and player 2's packed rows and
// the player to move (1 or 2).
func FromRows(row1, row2 uint64, player int) Position {
	if player == 2 {
		return Position{Own: row2, Opp: row1, Side: 1}
	}
	return Position{Own: row1, Opp: row2}
}

// Player returns the player to move, 1 or 2.
func (p Position) Player() int { return int(p.Side) + 1 }

// occupied returns a mask with bit i set when pit i+1 of the row is non-empty.
func occupied(row uint64) uint32 {
	// Fold each byte onto its low bit: a byte is non-zero iff any bit is set.
	x := row | row>>4
	x |= x >> 2
	x |= x >> 1
	x &= lsb
	// Gather the low bit of every byte into bits 0..7.
	return uint32((x * 0x0102040810204080) >> 56)
}

// atLeast2 returns a mask with bit i set when pit i+1 of the row holds two
// or more seeds.
func atLeast2(row uint64) uint32 {
	x := (row >> 1) & 0x7f7f7f7f7f7f7f7f
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	x &= lsb
	return uint32((x * 0x0102040810204080) >> 56)
}
