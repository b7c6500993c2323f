package position

// MoveFrom returns the move from the mover's pit (1..Pits, or PassPit) in
// p when it is one of Moves(p), and ok=false otherwise. It equals looking
// pit up in Moves(p), but sows only that pit where the rules let one
// move's legality be decided alone: every rule but FeedIfPossible (whose
// non-feeding moves are legal only when no move feeds, rules.md 3.4) and a
// pass (legal only when no pit move is). AppendUnsown checks an un-sown
// candidate with it where legality depends on the other moves.
func (v *Variant) MoveFrom(p Position, pit int) (m Move, ok bool) {
	if v.Feed == FeedIfPossible || pit == PassPit || pit < 1 || pit > v.Pits {
		return v.moveFromAll(p, pit)
	}
	if v.overByRows(p) {
		return Move{}, false // the game is over: Moves lists nothing
	}
	o := pit - 1
	if v.playable(p.Own)&(1<<uint(o)) == 0 {
		return Move{}, false
	}
	// As legalMoves: a pit move's legality is its sowing and, where the
	// mover must feed, that it leaves the opponent seeds. A pass happens
	// only when no pit move is legal, so it never displaces this one.
	s, legal := v.sow(p.Own, p.Opp, o)
	if !legal || v.mustFeed(p) && s.opp == 0 {
		return Move{}, false
	}
	return Move{Pit: int8(pit), Captured: int8(s.captured), Next: s.next(p.Side)}, true
}

// moveFromAll is MoveFrom by the whole move generation.
func (v *Variant) moveFromAll(p Position, pit int) (Move, bool) {
	var buf [MaxPits]Move
	n := v.Moves(p, &buf)
	for _, m := range buf[:n] {
		if int(m.Pit) == pit {
			return m, true
		}
	}
	return Move{}, false
}

// overByRows reports whether the game is over in p by a rule that reads
// only the rows, before any move is tried: djenon's one seed each
// (rules.md 4.5) and kalah's empty row (docs/kalah.md).
func (v *Variant) overByRows(p Position) bool {
	return v.OneEachEnds && RowSeeds(p.Own) == 1 && RowSeeds(p.Opp) == 1 || v.EmptyRowEnds && p.Opp == 0
}
