package position

// Perft counts the move sequences of exactly depth plies from p: the leaves
// of the game tree cut at that depth. Automatic passes are part of the move
// that forces them and do not count as plies; game ends stop a line early
// (such a line is not counted); repetition is ignored, as perft counts move
// generation, not play. The last ply is counted without being played where
// the rules allow (bulk counting: see CountMoves); PerftPlayed plays it.
func (v *Variant) Perft(p Position, depth int) uint64 { return v.perft(p, depth, false) }

// PerftPlayed is Perft with every move of the last ply played too, as
// perft programs without bulk counting do (Aalina's, for one): the count is
// Perft's, the work that of making every leaf's move.
func (v *Variant) PerftPlayed(p Position, depth int) uint64 { return v.perft(p, depth, true) }

func (v *Variant) perft(p Position, depth int, playLeaves bool) uint64 {
	if depth == 0 {
		return 1
	}
	if v.plainPerft {
		return v.perftPlain(p.Own, p.Opp, depth, playLeaves)
	}
	return v.perftMoves(p, depth, playLeaves)
}

// perftMoves is perft walked with Moves, for every variant: passes,
// relays and feeding when possible included.
func (v *Variant) perftMoves(p Position, depth int, playLeaves bool) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		return v.perftLeaves(p, playLeaves)
	}
	var buf [MaxPits]Move
	n := v.Moves(p, &buf)
	if n == 1 && buf[0].IsPass() {
		return v.perftMoves(buf[0].Next, depth, playLeaves)
	}
	var nodes uint64
	for _, m := range buf[:n] {
		nodes += v.perftMoves(m.Next, depth-1, playLeaves)
	}
	return nodes
}

// Divide returns the perft count below each legal move of p (keyed by
// pit), for finding where two move generators disagree. A forced pass at p
// is applied first, as Perft does, so the counts add up to Perft's.
func (v *Variant) Divide(p Position, depth int) map[int]uint64 { return v.divide(p, depth, false) }

// DividePlayed is Divide with the last ply played, as PerftPlayed.
func (v *Variant) DividePlayed(p Position, depth int) map[int]uint64 { return v.divide(p, depth, true) }

func (v *Variant) divide(p Position, depth int, playLeaves bool) map[int]uint64 {
	counts := map[int]uint64{}
	if depth == 0 {
		return counts
	}
	var buf [MaxPits]Move
	n := v.Moves(p, &buf)
	if n == 1 && buf[0].IsPass() {
		p = buf[0].Next
		n = v.Moves(p, &buf)
	}
	for _, m := range buf[:n] {
		counts[int(m.Pit)] = v.perft(m.Next, depth-1, playLeaves)
	}
	return counts
}

// perftLeaves is Perft at depth 1: the legal moves of p, or of the position
// after p's forced pass. With playLeaves every move is made (Moves plays
// each to find its child); without, CountMoves counts without playing
// where the rules let it.
func (v *Variant) perftLeaves(p Position, playLeaves bool) uint64 {
	if v.Pass != PassNever || playLeaves {
		var buf [MaxPits]Move
		n := v.Moves(p, &buf)
		if n == 1 && buf[0].IsPass() {
			n = v.Moves(buf[0].Next, &buf)
		}
		return uint64(n)
	}
	return uint64(v.CountMoves(p))
}

// plainPerftOK reports whether perftPlain counts v's tree: no passes, no
// relays, no fallback to every move when none feeds, and no end by the
// rows other than an empty opponent's row (awari, oware, kalah).
func plainPerftOK(v *Variant) bool {
	relays := v.Sow == SowRelay || v.Sow == SowRelayOriginFirst
	return v.Pass == PassNever && !relays && v.Feed != FeedIfPossible && !v.OneEachEnds
}

// perftPlain is perft for the variants of plainPerftOK on the bare rows:
// it makes each move as legalMoves does (the same sow, the same feeding
// test on the row the move leaves the opponent) without filling Move
// values, and it needs no side to move, as perft counts lines, not
// scores. depth must be at least 1; without playLeaves the last ply is
// bulk-counted by CountMoves where it counts without playing (awari's last
// ply is played either way).
func (v *Variant) perftPlain(own, opp uint64, depth int, playLeaves bool) uint64 {
	if depth == 1 && !playLeaves && v.countsWithoutPlaying() {
		return uint64(v.CountMoves(Position{Own: own, Opp: opp}))
	}
	var next [MaxPits]rowPair
	n := v.children(own, opp, &next)
	if depth == 1 {
		return uint64(n)
	}
	var nodes uint64
	for _, c := range next[:n] {
		nodes += v.perftPlain(c.own, c.opp, depth-1, playLeaves)
	}
	return nodes
}

// rowPair is a position's packed rows from its side to move.
type rowPair struct{ own, opp uint64 }

// children writes the position after each legal move of the rows own, opp
// into out, pit order, from the next mover's side, and returns how many
// there are: legalMoves for the variants of plainPerftOK, with the rows
// only. The next mover is the opponent, or the mover again after kalah's
// last seed in the store.
func (v *Variant) children(own, opp uint64, out *[MaxPits]rowPair) int {
	if v.EmptyRowEnds && opp == 0 {
		return 0
	}
	n := 0
	if v.twoThree && v.Feed == FeedAlways {
		for m := occupied(own); m != 0; m &= m - 1 {
			// sowTwoThree, with its lap inlined.
			o, p, lastBit := v.lapTwoThree(own, opp, trailingPit(m))
			if lastBit&twoOrThreeBytes(p) != 0 {
				p, _ = v.takeTwoThree(p, lastBit)
			}
			if p != 0 {
				out[n] = rowPair{own: p, opp: o}
				n++
			}
		}
		return n
	}
	feed := v.mustFeed(Position{Own: own, Opp: opp})
	for m := v.playable(own); m != 0; m &= m - 1 {
		s, _ := v.sow(own, opp, trailingPit(m))
		switch {
		case feed && s.opp == 0:
			continue
		case s.again:
			out[n] = rowPair{own: s.own, opp: s.opp}
		default:
			out[n] = rowPair{own: s.opp, opp: s.own}
		}
		n++
	}
	return n
}
