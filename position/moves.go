package position

import (
	"fmt"
	"math/bits"
)

// PassPit is the Pit of a pass in a Move.
const PassPit = 0

// Move is one legal move and the position it leads to.
type Move struct {
	Pit      int8     // 1..Pits on the mover's row, or PassPit
	Captured int8     // seeds the move captured (or banked in kalah's store) for the mover
	Next     Position // the position after the move: the other player to move, or the mover again (kalah)
}

// IsPass reports whether the move is a pass (rules.md 4.5, 5.4).
func (m Move) IsPass() bool { return m.Pit == PassPit }

// Moves writes the legal moves of p into out, pit order, and returns how
// many there are. A position whose mover must pass has exactly one move, the
// pass. Zero moves means the game is over (see Shares); repetition is not
// considered here, since it depends on history.
func (v *Variant) Moves(p Position, out *[MaxPits]Move) int {
	if v.Sow == SowStore {
		return v.storeMoves(p, out)
	}
	if v.overByRows(p) {
		return 0
	}
	if n := v.legalMoves(p, out); n > 0 {
		return n
	}
	if v.mustPass(p) {
		out[0] = Move{Pit: PassPit, Next: p.Swapped()}
		return 1
	}
	return 0
}

// CountMoves returns how many moves Moves would list, without making them
// where the rules allow: without feeding (kalah) every playable pit is a
// move; when captures can never empty the opponent's row (oware's grand
// slam captures nothing) and sowing has no relays, a move is illegal only
// if the opponent's row is empty and the move does not reach it. This is
// perft's bulk count at the last ply.
func (v *Variant) CountMoves(p Position) int {
	if v.EmptyRowEnds && p.Opp == 0 {
		return 0
	}
	if !v.countsWithoutPlaying() {
		var buf [MaxPits]Move
		return v.Moves(p, &buf)
	}
	playable := v.playable(p.Own)
	if p.Opp != 0 || v.Feed == FeedNever {
		return bits.OnesCount32(playable)
	}
	n := 0
	for m := playable; m != 0; m &= m - 1 {
		o := trailingPit(m)
		if v.laps[o*v.stride+Pit(p.Own, o)].opp != 0 {
			n++
		}
	}
	return n
}

// countsWithoutPlaying reports whether CountMoves counts v's moves without
// making them: no grand slam that a feeding rule forbids, no passes, no
// relays.
func (v *Variant) countsWithoutPlaying() bool {
	relays := v.Sow == SowRelay || v.Sow == SowRelayOriginFirst
	return !(v.GrandSlam != GrandSlamCapturesNothing && v.Feed != FeedNever) && v.Pass == PassNever && !relays
}

// mustPass reports whether the mover, having no legal move, passes rather
// than ending the game.
func (v *Variant) mustPass(p Position) bool {
	var tmp [MaxPits]Move
	switch v.Pass {
	case PassWhenEmptyAndFed:
		// With the mover empty, the opponent's legal moves are exactly
		// those that feed (FeedWhenStarved).
		return p.Own == 0 && p.Opp != 0 && v.legalMoves(p.Swapped(), &tmp) > 0
	case PassWhenStuck:
		return v.legalMoves(p.Swapped(), &tmp) > 0
	}
	return false
}

// playable returns the mask of the mover's pits that hold enough seeds to
// be played (bit i for pit i+1).
func (v *Variant) playable(own uint64) uint32 {
	if v.MinSow >= 2 {
		return atLeast2(own)
	}
	return occupied(own)
}

// mustFeed reports whether, in p, a move must leave the opponent seeds.
func (v *Variant) mustFeed(p Position) bool {
	switch v.Feed {
	case FeedAlways, FeedIfPossible:
		return true
	case FeedWhenStarved:
		return p.Opp == 0
	}
	return false
}

// legalMoves lists the moves that the sowing, feeding and endless-move rules
// allow, without considering passes.
func (v *Variant) legalMoves(p Position, out *[MaxPits]Move) int {
	feed := v.mustFeed(p)
	n := 0
	for m := v.playable(p.Own); m != 0; m &= m - 1 {
		o := trailingPit(m)
		s, ok := v.sow(p.Own, p.Opp, o)
		if !ok || (feed && s.opp == 0) {
			continue
		}
		out[n] = Move{Pit: int8(o + 1), Captured: int8(s.captured), Next: s.next(p.Side)}
		n++
	}
	if n == 0 && v.Feed == FeedIfPossible {
		// rules.md 3.4: when no move feeds, every move is legal.
		for m := v.playable(p.Own); m != 0; m &= m - 1 {
			o := trailingPit(m)
			s, _ := v.sow(p.Own, p.Opp, o)
			out[n] = Move{Pit: int8(o + 1), Captured: int8(s.captured), Next: s.next(p.Side)}
			n++
		}
	}
	return n
}

// Play makes the move from the mover's pit (1..Pits) without checking that
// it is legal, and returns the next position (the other player to move,
// or the same after kalah's extra move) and the seeds captured. It is the
// raw make-move that benchmarks measure; use MakeMove for checked play. The
// result is meaningless for an empty pit or an endless relay.
func (v *Variant) Play(p Position, pit int) (Position, int) {
	if v.twoThree { // sow's first case, one call fewer
		own, opp, c := v.sowTwoThree(p.Own, p.Opp, pit-1)
		return Position{Own: opp, Opp: own, Side: p.Side ^ 1}, c
	}
	s, _ := v.sow(p.Own, p.Opp, pit-1)
	return s.next(p.Side), s.captured
}

// MakeMove plays pit (1..Pits, or PassPit where the mover must pass) in p.
// It returns the move with the next position, or an error that names the
// move and why it is illegal.
func (v *Variant) MakeMove(p Position, pit int) (Move, error) {
	var buf [MaxPits]Move
	n := v.Moves(p, &buf)
	for _, m := range buf[:n] {
		if int(m.Pit) == pit {
			return m, nil
		}
	}
	return Move{}, v.whyIllegal(p, pit, buf[:n])
}

// whyIllegal explains why pit is not among the legal moves.
func (v *Variant) whyIllegal(p Position, pit int, legal []Move) error {
	name := MoveString(pit)
	switch {
	case len(legal) == 0:
		return fmt.Errorf("move %s: the game is over", name)
	case legal[0].IsPass():
		return fmt.Errorf("move %s: player %d has no legal move and must pass", name, p.Player())
	case pit == PassPit:
		return fmt.Errorf("move pass: player %d has a legal move and may not pass", p.Player())
	case pit < 1 || pit > v.Pits:
		return fmt.Errorf("move %s: no such pit, want 1..%d", name, v.Pits)
	}
	seeds := Pit(p.Own, pit-1)
	if seeds < v.MinSow {
		if seeds == 0 {
			return fmt.Errorf("move %s: pit %d is empty", name, pit)
		}
		return fmt.Errorf("move %s: pit %d holds %d seed, %s plays only pits with %d or more", name, pit, seeds, v.Name, v.MinSow)
	}
	if s, ok := v.sow(p.Own, p.Opp, pit-1); !ok {
		return fmt.Errorf("move %s: its relay sowing never ends", name)
	} else if s.opp == 0 && p.Opp != 0 && v.Feed != FeedWhenStarved {
		return fmt.Errorf("move %s: it would capture all the opponent's seeds (grand slam)", name)
	}
	return fmt.Errorf("move %s: it leaves the opponent no seeds, and a move that feeds them exists", name)
}

// Shares returns the seeds that the side to move and the opponent take from
// the board when the game ends in p by the variant's end rule (not by
// repetition, see RepetitionShares; not for a position that has moves).
func (v *Variant) Shares(p Position) (own, opp int) {
	own, opp = RowSeeds(p.Own), RowSeeds(p.Opp)
	switch v.End {
	case EndOtherTakesAll:
		// The game ends only when the mover has no seeds (rules.md 3.5).
		return 0, own + opp
	case EndOwnRowsWithGift:
		if own == 0 && opp > 0 {
			return 1, opp - 1
		}
		if opp == 0 && own > 0 {
			return own - 1, 1
		}
	}
	return own, opp
}

// RepetitionShares returns the seeds that the side to move and the
// opponent take when the game ends in p because p occurred before:
// nobody's (rules.md section 0), or each their own row under
// RepetitionOwnRows.
func (v *Variant) RepetitionShares(p Position) (own, opp int) {
	if v.Repetition == RepetitionOwnRows {
		return RowSeeds(p.Own), RowSeeds(p.Opp)
	}
	return 0, 0
}

// RepetitionValue is the value of p reached again, from its side to move:
// the difference of RepetitionShares (0 unless RepetitionOwnRows).
func (v *Variant) RepetitionValue(p Position) int {
	own, opp := v.RepetitionShares(p)
	return own - opp
}

// TerminalValue returns the value of a position with no moves: the share
// difference from the side to move (rules.md 6).
func (v *Variant) TerminalValue(p Position) int {
	own, opp := v.Shares(p)
	return own - opp
}

// trailingPit returns the index of the lowest set bit of a non-zero mask.
func trailingPit(m uint32) int { return bits.TrailingZeros32(m) }

// MoveString writes a move as notation.md does: the pit number, or "pass".
func MoveString(pit int) string {
	if pit == PassPit {
		return "pass"
	}
	return fmt.Sprint(pit)
}
