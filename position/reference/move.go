package reference

import "fmt"

// outcome is what one move does to the board, before its legality is judged.
type outcome struct {
	board    ring // the board after sowing, relays and captures
	captured int  // the seeds the mover captured
	endless  bool // the relays never end (rules.md 4.4); board and captured are then unset
	again    bool // kalah: the last seed fell into the mover's store, the mover moves again
}

// simulate plays pit (1..n) for s.ToMove on a copy of s's board, legal or not. The pit must hold
// at least one seed.
func simulate(s State, pit int) outcome {
	if isKalah(s.Variant) {
		return kalahMove(s, pit)
	}
	b := toRing(s)
	mover := s.ToMove
	origin := b.pit1(mover) + pit - 1
	switch s.Variant {
	case awari, oware:
		return awariMove(b, origin, mover, s.Variant)
	case akon:
		return akonMove(b, origin, mover)
	case djenonAbe:
		return djenonMove(b, origin, false)
	case djenonAboure:
		return djenonMove(b, origin, true)
	}
	panic(fmt.Sprintf("reference: unknown variant %q", s.Variant))
}

// --- awari and oware (rules.md sections 1 and 2) ---

// awariMove sows from origin (rules.md 1.1) and captures (1.2 for awari; 2.1 and 2.2 for oware).
func awariMove(b ring, origin, mover int, variant string) outcome {
	last := sowSkippingOrigin(b, origin)
	pits := awariCapturePits(b, last, mover, variant == awari)
	if variant == oware && sumAt(b, pits) == b.seedsOf(other(mover)) {
		pits = nil // oware grand slam: the move is played but captures nothing (rules.md 2.2)
	}
	return outcome{board: b, captured: b.take(pits)}
}

// sowSkippingOrigin lifts the seeds of origin and sows them one a pit from the next pit on. With
// 12 or more seeds the origin is skipped each time sowing comes round to it (rules.md 1.1); with
// fewer, sowing never reaches it. It returns the index of the pit that got the last seed.
func sowSkippingOrigin(b ring, origin int) int {
	seeds := b[origin]
	b[origin] = 0
	skip := seeds >= 12
	i := origin
	for seeds > 0 {
		i = b.next(i)
		if i == origin && skip {
			continue
		}
		b[i]++
		seeds--
	}
	return i
}

// awariCapturePits returns the pits captured when the last seed lands in last (rules.md 1.2): none
// unless last is in the opponent's row and holds 2 or 3; else last, then the run of opponent pits
// holding 2 or 3 going backward from it and, when bothWays (awari, not oware), forward from it.
// Runs stop at the first pit that does not hold 2 or 3 and at the ends of the opponent's row.
func awariCapturePits(b ring, last, mover int, bothWays bool) []int {
	opp := other(mover)
	if b.owner(last) != opp || !twoOrThree(b[last]) {
		return nil
	}
	first, end := b.pit1(opp), b.pit1(opp)+b.n()-1
	pits := []int{last}
	for i := last - 1; i >= first && twoOrThree(b[i]); i-- {
		pits = append(pits, i)
	}
	for i := last + 1; bothWays && i <= end && twoOrThree(b[i]); i++ {
		pits = append(pits, i)
	}
	return pits
}

// twoOrThree reports whether a pit holding seeds is capturable in awari and oware.
func twoOrThree(seeds int) bool {
	return seeds == 2 || seeds == 3
}

// sumAt returns the seeds in the pits at the given indexes.
func sumAt(b ring, pits []int) int {
	total := 0
	for _, i := range pits {
		total += b[i]
	}
	return total
}

// --- akon (rules.md section 3) ---

// akonMove sows from origin (rules.md 3.1) and captures (3.2, 3.3).
func akonMove(b ring, origin, mover int) outcome {
	last := sowAkon(b, origin, mover)
	return outcome{board: b, captured: akonCapture(b, last, mover)}
}

// sowAkon lifts the seeds of origin and sows them (rules.md 3.1): the first 14 (at most) one a pit
// around the whole ring from the next pit on, so that a 14th seed lands in the origin; any further
// seeds only into the opponent's pits 1, 2, ..., 7, 1, 2, ... . It returns the index of the pit
// that got the last seed.
func sowAkon(b ring, origin, mover int) int {
	seeds := b[origin]
	b[origin] = 0
	i := origin
	for k := 0; k < len(b) && seeds > 0; k++ {
		i = b.next(i)
		b[i]++
		seeds--
	}
	oppPit1 := b.pit1(other(mover))
	for k := 0; seeds > 0; k = (k + 1) % b.n() {
		i = oppPit1 + k
		b[i]++
		seeds--
	}
	return i
}

// akonCapture captures after the last seed landed in last and returns the seeds taken. In the
// opponent's pit 1 the mover takes that one seed (rules.md 3.2). In the opponent's pit L (2..7)
// holding 2, 3 or 4, the mover takes it and then pits L-1, L-2, ... while they hold 2, 3 or 4,
// never pit 1 (rules.md 3.3). In the mover's own row nothing is taken.
func akonCapture(b ring, last, mover int) int {
	opp := other(mover)
	if b.owner(last) != opp {
		return 0
	}
	pit1 := b.pit1(opp)
	if last == pit1 {
		b[last]--
		return 1
	}
	captured := 0
	for i := last; i > pit1 && b[i] >= 2 && b[i] <= 4; i-- {
		captured += b[i]
		b[i] = 0
	}
	return captured
}

// --- djenon-abe and djenon-aboure (rules.md sections 4 and 5) ---

// djenonMove plays a relay move from origin (rules.md 4.1-4.4; with originFirst, 5.2-5.3).
func djenonMove(b ring, origin int, originFirst bool) outcome {
	last, endless := relay(b, origin, originFirst)
	if endless {
		return outcome{endless: true}
	}
	if c := b[last]; c == 2 || c == 4 {
		return outcome{board: b, captured: djenonCapture(b, last)}
	}
	return outcome{board: b}
}

// relay sows laps from start until a lap ends in a pit holding 1, 2 or 4 (rules.md 4.2), and
// returns that pit's index. A pit holding 3 or 5+ starts the next lap. If a lap would start from
// the same pit with the same board as an earlier lap of this move, the move never ends
// (rules.md 4.4): relay returns endless = true.
func relay(b ring, start int, originFirst bool) (last int, endless bool) {
	seen := map[lapStart]bool{}
	for {
		lap := lapStart{start: start}
		copy(lap.board[:], b)
		if seen[lap] {
			return 0, true
		}
		seen[lap] = true
		last = sowLap(b, start, originFirst)
		if c := b[last]; c == 1 || c == 2 || c == 4 {
			return last, false
		}
		start = last
	}
}

// lapStart is the state at the start of a lap: its start pit and the board
// (at most 14 pits).
type lapStart struct {
	start int
	board [14]int
}

// sowLap lifts all k seeds of start and sows one lap; it returns the index of the pit that got the
// last seed. Djenon-abe (rules.md 4.1): one a pit into the next k pits, nothing skipped.
// Djenon-aboure, originFirst (rules.md 5.2): the first seed back into start, then one a pit into
// the next k-1 pits.
func sowLap(b ring, start int, originFirst bool) int {
	seeds := b[start]
	b[start] = 0
	if originFirst {
		b[start]++
		seeds--
	}
	i := start
	for ; seeds > 0; seeds-- {
		i = b.next(i)
		b[i]++
	}
	return i
}

// djenonCapture takes the pit last, then walks backward around the whole ring, both rows, taking
// each pit holding exactly 2 or 4 and stopping at the first that does not (rules.md 4.3). It
// returns the seeds taken. The walk always stops: the emptied pit last holds 0.
func djenonCapture(b ring, last int) int {
	captured := 0
	for i := last; b[i] == 2 || b[i] == 4; i = b.prev(i) {
		captured += b[i]
		b[i] = 0
	}
	return captured
}
