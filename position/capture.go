package position

// capture applies the variant's capture rule after a move whose last seed
// landed in ring pit last, and returns the seeds captured for the mover.
func (v *Variant) capture(rows *[2]uint64, last int) int {
	switch v.Capture {
	case CaptureBothWays, CaptureBackward:
		return v.captureTwoThree(rows, last)
	case CaptureAkon:
		return v.captureAkon(rows, last)
	case CaptureOpposite:
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
	if j < 0 || !twoOrThree(Pit(rows[1], j)) {
		return 0
	}
	before := rows[1]
	captured := 0
	for i := j; i >= 0 && twoOrThree(Pit(rows[1], i)); i-- {
		captured += takePit(&rows[1], i)
	}
	if v.Capture == CaptureBothWays {
		for i := j + 1; i < v.Pits && twoOrThree(Pit(rows[1], i)); i++ {
			captured += takePit(&rows[1], i)
		}
	}
	if rows[1] == 0 && v.GrandSlam == GrandSlamCapturesNothing {
		rows[1] = before
		return 0
	}
	return captured
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

func twoOrThree(c int) bool { return c == 2 || c == 3 }

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
