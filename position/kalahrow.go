package position

// RowSowing is a kalah move (SowStore) as far as the mover's row alone
// decides it. Sowing pit o of a row puts the same seeds in the same places
// whatever the opponent's row holds: only a capture looks at that row, and
// only at the pit facing the last seed's. So a tablebase builder that
// meets one own row beside many opponent rows sows it once (SowRow) and
// finishes each move with the opponent's row (Finish); the two together
// are Variant.Moves' move of that pit (position/kalahrow_test.go checks it).
type RowSowing struct {
	Own    uint64 // the mover's row after sowing, before any capture
	OppAdd uint64 // the seeds sown into the opponent's row, as a packed row to add to it
	Banked int    // seeds sown into the mover's store
	Again  bool   // the last seed fell into the store: the mover moves again
	// Capture is the mover's pit (0-based) whose last seed fell into it
	// while it was empty, so that it captures the facing pit's seeds if
	// the rules let it (Variant.CapturesFacing); -1 when there is none.
	Capture int
}

// SowRow sows the mover's pit o (0-based, not empty) of own by kalah's
// rules (v.Sow must be SowStore): one seed a pit towards the store, into
// the store, then on into the opponent's row and round again, skipping
// the opponent's store.
func (v *Variant) SowRow(own uint64, o int) RowSowing {
	k := Pit(own, o)
	rows := [2]uint64{own, 0}
	last := v.lap(&rows, o, k)
	r := RowSowing{Own: rows[0], OppAdd: rows[1], Banked: int(v.laps[o*v.stride+k].banked),
		Again: last == v.storeRing(), Capture: -1}
	if v.landsEmpty(rows[0], last) {
		r.Capture = last
	}
	return r
}

// Finish completes r against the opponent's row opp as it was before the
// move: the rows after the move from the mover's point of view, and the
// seeds the mover banked and captured (Move.Captured). The next position
// is (own, opp) with the same player to move when r.Again, else (opp,
// own) with the other.
func (v *Variant) Finish(r RowSowing, opp uint64) (ownAfter, oppAfter uint64, captured int) {
	rows := [2]uint64{r.Own, opp + r.OppAdd}
	captured = r.Banked
	if r.Capture >= 0 {
		captured += v.captureOpposite(&rows, r.Capture)
	}
	return rows[0], rows[1], captured
}
