package position

// Un-sowing: the positions from which one quiet move (a legal move that
// captures nothing) leads to a given position, for the variants that sow
// one seed a pit skipping the origin (awari and oware, rules.md 1.1 and
// 2.1). The tablebase's retrograde analysis walks a layer backwards this
// way instead of storing its predecessor graph.
//
// A move from origin o with s seeds adds the lap table's entry for (o, s)
// to the rows and empties o, which the lap never refills. So the mover's
// rows before the move are the rows after it minus that entry, with s
// seeds put back in o: one subtraction a row for each candidate s. When a
// pit would go below zero no larger s can work either, since a lap of s+1
// seeds fills every pit one of s does. Each candidate is then held to the
// same rules as a move played forward: the pit must be playable, the
// capture rule applied to the rows after the lap must take nothing (an
// oware grand slam, which captures nothing, is quiet), and where the mover
// must feed the opponent's row must not be left empty.

// CanUnsow reports whether AppendUnsown applies to v: sowing skips the
// origin and no move relays, banks or keeps the mover.
func (v *Variant) CanUnsow() bool { return v.Sow == SowSkipOrigin }

// AppendUnsown appends to out every position from which a quiet move
// leads to child, once per such move (two moves of one position to child
// append it twice), and returns the extended slice. Each appended position
// holds child's seeds, with the other side to move (Side = child.Side^1).
// It panics unless v.CanUnsow().
func (v *Variant) AppendUnsown(child Position, out []Position) []Position {
	if !v.CanUnsow() {
		panic("position: AppendUnsown: " + v.Name + " does not sow skipping the origin")
	}
	// The mover's rows after his move: his own, then his opponent's.
	own, opp := child.Opp, child.Own
	const high = 0x8080808080808080 // every pit holds far fewer than 128 seeds
	for o := 0; o < v.Pits; o++ {
		if Pit(own, o) != 0 {
			continue // the origin is empty after the move
		}
		laps := v.laps[o*v.stride : (o+1)*v.stride]
		for s := 1; s < len(laps); s++ {
			d := &laps[s]
			// A byte that goes below zero clears its high bit.
			bOwn, bOpp := (own|high)-d.own, (opp|high)-d.opp
			if bOwn&bOpp&high != high {
				break
			}
			p := Position{Own: bOwn&^high | uint64(s)<<(8*uint(o)), Opp: bOpp &^ high, Side: child.Side ^ 1}
			if v.quietTo(p, o, own, opp, int(d.last)) {
				out = append(out, p)
			}
		}
	}
	return out
}

// quietTo reports whether the move from pit o of p, whose lap leaves the
// mover's rows own and opp with its last seed in ring pit last, is legal
// and captures nothing. The sowing itself is known to be the lap's, so
// only the rules that decide legality and capture are applied.
func (v *Variant) quietTo(p Position, o int, own, opp uint64, last int) bool {
	if v.Feed == FeedIfPossible {
		// Legality depends on the other moves (rules.md 3.4).
		m, ok := v.MoveFrom(p, o+1)
		return ok && m.Captured == 0
	}
	if v.overByRows(p) || v.playable(p.Own)&(1<<uint(o)) == 0 {
		return false
	}
	if v.mustFeed(p) && opp == 0 {
		return false
	}
	rows := [2]uint64{own, opp}
	return v.capture(&rows, last) == 0
}
