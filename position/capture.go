package position

import "math/bits"

// capture applies the variant's capture rule after a move whose last seed
// landed in ring pit last, and returns the seeds captured for the mover.
func (v *Variant) capture(rows *[2]uint64, last int) int {
	switch v.Capture {
	case CaptureBothWays, CaptureBackward:
		return v.captureTwoThree(rows, last)
	case CaptureAkon:
		return v.captureAkon(rows, last)
	case CaptureOpposite:
		if !v.landsEmpty(rows[0], last) {
			return 0
		}
		return v.captureOpposite(rows, last)
	default:
		return v.captureTwoFour(rows, last)
	}
}

// captureTwoThree: the last pit in the opponent's row holding 2 or 3 is
// taken, then the previous pits while they hold 2 or 3; awari also walks
// forward (rules.md 1.2, 2.1). Oware's grand slam captures nothing (2.2).
func (v *Variant) captureTwoThree(rows *[2]uint64, last int) int {
	j := last - v.Pits
	if j < 0 {
		return 0
	}
	opp, captured := v.takeTwoThree(rows[1], 0x80<<(8*uint(j)))
	rows[1] = opp
	return captured
}

// byteFlags has bit 7 of every byte set.
const byteFlags = 0x8080808080808080

// twoOrThreeBytes returns bit 7 of each byte of the packed row that holds 2
// or 3 seeds. Clearing bit 0 and xoring 2 leaves exactly those bytes zero;
// the zero-byte test below is exact because no byte of y is 1, so a borrow
// out of a zero byte never flags the byte above it.
func twoOrThreeBytes(row uint64) uint64 {
	y := (row ^ 0x0202020202020202) & 0xfefefefefefefefe
	return (y - lsb) &^ y & byteFlags
}

// takeTwoThree is captureTwoThree on the opponent's packed row, with the
// pit of the last seed given as bit 7 of its byte (lastBit): the chain of
// pits holding 2 or 3 that ends (awari: that runs through) the last pit,
// found with word operations rather than a walk. It returns the row left
// and the seeds taken.
func (v *Variant) takeTwoThree(opp, lastBit uint64) (uint64, int) {
	z := twoOrThreeBytes(opp)
	if z&lastBit == 0 {
		return opp, 0
	}
	upTo := lastBit<<1 - 1               // the pits from the first to the last pit
	gaps := ^z & byteFlags & (upTo >> 8) // pits below the last one that stop the chain
	top := upTo
	if v.Capture == CaptureBothWays {
		// Bytes above the row's pits hold 0, so a gap above always exists.
		above := ^z & byteFlags &^ upTo
		top = 1<<(bits.TrailingZeros64(above)-7) - 1
	}
	chain := top &^ (1<<bits.Len64(gaps) - 1) // from just above the highest gap below to top
	left := opp &^ chain
	if left == 0 && v.GrandSlam == GrandSlamCapturesNothing {
		return opp, 0
	}
	return left, int((opp & chain) * lsb >> 56)
}

// captureAkon: a last seed in the opponent's pit 1 is taken alone; in pits
// 2..7 a count of 2, 3 or 4 is taken, then the previous pits down to pit 2
// while they hold 2, 3 or 4 (rules.md 3.2, 3.3).
func (v *Variant) captureAkon(rows *[2]uint64, last int) int {
	j := last - v.Pits
	switch {
	case j < 0:
		return 0
	case j == 0:
		rows[1]--
		return 1
	}
	captured := 0
	for i := j; i >= 1; i-- {
		c := Pit(rows[1], i)
		if c < 2 || c > 4 {
			break
		}
		captured += takePit(&rows[1], i)
	}
	return captured
}

// captureTwoFour: the last pit holding 2 or 4 is taken, then the previous
// pits around the whole ring, both rows, while they hold 2 or 4 (rules.md
// 4.3). The walk stops at the latest when it comes back to the emptied last
// pit.
func (v *Variant) captureTwoFour(rows *[2]uint64, last int) int {
	ring := 2 * v.Pits
	captured := 0
	for i := last; ; {
		c := v.ringPit(rows, i)
		if c != 2 && c != 4 {
			return captured
		}
		captured += v.takeRingPit(rows, i)
		if i--; i < 0 {
			i = ring - 1
		}
	}
}

// takePit empties pit i of a packed row and returns its seeds.
func takePit(row *uint64, i int) int {
	shift := 8 * uint(i)
	c := int(*row >> shift & 0xff)
	*row &^= 0xff << shift
	return c
}

// LeastCapture returns the fewest seeds a move can take off the board
// when it takes any: a move of a position of n seeds on the board leads to
// n seeds or to at most n-LeastCapture. Awari and oware capture pits of 2
// or 3 (rules.md 1.2, 2.1), the djenon games pits of 2 or 4 (4.3): 2.
// Akon takes a lone seed from pit 1 (3.2), and a kalah move banks a single
// sown seed or a capture of one (docs/kalah.md): 1. A tablebase layer
// reads only the layers a move can reach (tablebase's build).
func (v *Variant) LeastCapture() int {
	if v.Sow == SowStore {
		return 1
	}
	switch v.Capture {
	case CaptureBothWays, CaptureBackward, CaptureTwoFour:
		return 2
	}
	return 1
}
