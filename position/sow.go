package position

// lapDelta is one precomputed lap: the seeds that a lap of k seeds from a
// given start pit adds to each packed row, and where its last seed lands.
// With it a whole lap, however many times it goes round, is two additions.
type lapDelta struct {
	own, opp uint64 // seeds added to the mover's row and the opponent's
	oppLast  uint64 // bit 7 of the opponent's pit that received the last seed; 0 when it fell elsewhere
	last     int8   // ring index of the pit that received the last seed (storeRing: the store)
	banked   int8   // seeds sown into the mover's store (SowStore only)
}

// lapTargets lists, in order, the ring indexes that receive the k seeds of
// a lap starting at ring index start. It is the plain statement of each
// sowing rule, used only to fill the lap tables.
func lapTargets(v *Variant, start, k int) []int {
	ring := 2 * v.Pits
	targets := make([]int, 0, k)
	next := start
	switch v.Sow {
	case SowSkipOrigin: // rules.md 1.1: the origin is skipped on every lap
		for len(targets) < k {
			if next = (next + 1) % ring; next != start {
				targets = append(targets, next)
			}
		}
	case SowAkon: // rules.md 3.1: one lap ending in the origin, then the opponent's row only
		for len(targets) < k && len(targets) < ring {
			next = (next + 1) % ring
			targets = append(targets, next)
		}
		oppFirst := v.Pits * (1 - start/v.Pits)
		for i := 0; len(targets) < k; i++ {
			targets = append(targets, oppFirst+i%v.Pits)
		}
	case SowRelay: // rules.md 4.1: nothing skipped
		for len(targets) < k {
			next = (next + 1) % ring
			targets = append(targets, next)
		}
	case SowRelayOriginFirst: // rules.md 5.2: the first seed back into the start pit
		for i := 0; i < k; i++ {
			targets = append(targets, (start+i)%ring)
		}
	case SowStore: // kalah: the mover's store between the mover's last pit and the opponent's first
		store := v.storeRing()
		for len(targets) < k {
			switch next {
			case v.Pits - 1:
				next = store
			case store:
				next = v.Pits
			default:
				next = (next + 1) % ring
			}
			targets = append(targets, next)
		}
	}
	return targets
}

// buildLapTable precomputes every lap of 0..Total seeds from every pit.
func buildLapTable(v *Variant) []lapDelta {
	ring := 2 * v.Pits
	stride := v.Total() + 1
	table := make([]lapDelta, ring*stride)
	for start := 0; start < ring; start++ {
		for k := 1; k < stride; k++ {
			d := &table[start*stride+k]
			for _, t := range lapTargets(v, start, k) {
				if t == v.storeRing() {
					d.banked++
				} else if t < v.Pits {
					d.own += 1 << (8 * uint(t))
				} else {
					d.opp += 1 << (8 * uint(t-v.Pits))
				}
				d.last = int8(t)
			}
			if d.oppLast = 0; int(d.last) >= v.Pits && int(d.last) < ring {
				d.oppLast = 0x80 << (8 * uint(int(d.last)-v.Pits))
			}
		}
	}
	return table
}

// lap lifts the seeds of ring pit start (which must hold k > 0 seeds) and
// sows them by the variant's lap rule. It returns the ring index of the last
// pit.
func (v *Variant) lap(rows *[2]uint64, start, k int) int {
	rows[v.ringWord[start]] &^= 0xff << v.ringShift[start]
	d := &v.laps[start*v.stride+k]
	rows[0] += d.own
	rows[1] += d.opp
	return int(d.last)
}

// ringPit returns the seeds in ring pit i.
func (v *Variant) ringPit(rows *[2]uint64, i int) int {
	return int(rows[v.ringWord[i]] >> v.ringShift[i] & 0xff)
}

// takeRingPit empties ring pit i and returns the seeds it held.
func (v *Variant) takeRingPit(rows *[2]uint64, i int) int {
	w, shift := v.ringWord[i], v.ringShift[i]
	c := int(rows[w] >> shift & 0xff)
	rows[w] &^= 0xff << shift
	return c
}

// sown is the outcome of one move on the packed rows.
type sown struct {
	own, opp uint64 // the rows from the mover's point of view
	captured int    // seeds captured, or banked in the mover's store
	again    bool   // the last seed fell into the mover's store: the mover moves again
}

// next returns the position after the move from a position with side to
// move: the rows swapped and the other side to move, unless the mover moves
// again.
func (s sown) next(side uint8) Position {
	if s.again {
		return Position{Own: s.own, Opp: s.opp, Side: side}
	}
	return Position{Own: s.opp, Opp: s.own, Side: side ^ 1}
}

// sow plays the mover's pit o (0-based), which must be non-empty: the whole
// move, relays, seeds banked in the store and capture included, on the
// packed rows. ok is false when the move never ends (rules.md 4.4).
func (v *Variant) sow(own, opp uint64, o int) (s sown, ok bool) {
	switch {
	case v.twoThree:
		s.own, s.opp, s.captured = v.sowTwoThree(own, opp, o)
		return s, true
	case v.Sow == SowStore:
		return v.sowStore(own, opp, o), true
	}
	rows := [2]uint64{own, opp}
	k := int(own >> (8 * uint(o)) & 0xff)
	last := v.lap(&rows, o, k)
	if v.Sow == SowRelay || v.Sow == SowRelayOriginFirst {
		if last, ok = v.relay(&rows, last); !ok {
			return sown{own: own, opp: opp}, false
		}
	}
	s.captured += v.capture(&rows, last)
	s.own, s.opp = rows[0], rows[1]
	return s, true
}

// relay continues a relay sowing (rules.md 4.2) from the lap that ended in
// ring pit last, until a lap ends in a pit holding 1, 2 or 4. It returns the
// final last pit, or ok=false when the laps cycle forever. Cycles are found
// with Brent's algorithm on the state (board, start pit) at each lap start,
// so the check costs one comparison a lap and no memory.
func (v *Variant) relay(rows *[2]uint64, last int) (int, bool) {
	saved, savedStart := *rows, last
	power, steps := 1, 0
	for {
		c := v.ringPit(rows, last)
		if c == 1 || c == 2 || c == 4 {
			return last, true
		}
		start := last
		last = v.lap(rows, start, c)
		if *rows == saved && last == savedStart {
			return 0, false
		}
		if steps++; steps == power {
			saved, savedStart = *rows, last
			power, steps = power*2, 0
		}
	}
}

// sowTwoThree is sow for the variants of twoThree (awari, oware): one lap
// that skips the origin (lapTwoThree), then captureTwoThree. It returns the
// mover's row, the opponent's and the seeds captured.
func (v *Variant) sowTwoThree(own, opp uint64, o int) (uint64, uint64, int) {
	own, opp, lastBit := v.lapTwoThree(own, opp, o)
	c := 0
	if lastBit&twoOrThreeBytes(opp) != 0 {
		opp, c = v.takeTwoThree(opp, lastBit)
	}
	return own, opp, c
}

// lapTwoThree lifts the seeds of the mover's pit o (0-based, non-empty)
// and sows them by the lap table. It returns both rows and, when the last
// seed fell in the opponent's row, bit 7 of that pit's byte (else 0): with
// twoOrThreeBytes it says whether takeTwoThree has anything to take, so
// the capture is called only then. It is small enough to be inlined.
func (v *Variant) lapTwoThree(own, opp uint64, o int) (uint64, uint64, uint64) {
	shift := 8 * uint(o) & 63
	d := &v.laps[o*v.stride+int(own>>shift&0xff)]
	return own&^(0xff<<shift) + d.own, opp + d.opp, d.oppLast
}
