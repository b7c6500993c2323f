package reference

import "fmt"

// GameOver reports whether the game is over in s at the start of ToMove's turn, WITHOUT
// considering repetition or the 25-seed stop (those need history and are left to the caller that
// plays the game out). It assumes any automatic pass has already been applied (see Normalize); on
// a state where the player to move must pass it reports false. When over, shares[0], shares[1] are
// the seeds that players 1 and 2 receive from the board by the variant's end rule. It panics on a
// malformed state.
//
// The game is over (rules.md):
//   - awari, oware (1.4): when the player to move has no legal move; each takes their own row.
//   - akon (3.5): when the player to move has no seeds; the other player takes every seed.
//   - djenon-abe (4.5, 4.6): when each row holds exactly one seed, however that came about, or when
//     the player to move has no legal move and does not pass; each takes their own row, except
//     that when only one row holds seeds its owner gives one of them to the opponent.
//   - djenon-aboure (5.4, 5.5): when neither player has a legal move; each takes their own row.
//   - kalah (docs/kalah.md): as soon as either row is empty; each takes their own row, so the
//     other player takes what is left.
func GameOver(s State) (over bool, shares [2]int) {
	mustBeValid(s)
	if !isOver(s) {
		return false, [2]int{}
	}
	return true, endShares(s)
}

// MustPass reports whether the player to move must pass (rules.md: djenon-abe rule 5, djenon-aboure
// rule 4) and the game is not over. Only the Djenon games have passes. It panics on a malformed
// state.
func MustPass(s State) bool {
	mustBeValid(s)
	return mustPass(s)
}

// Normalize applies an automatic pass if the player to move must pass (returns the new state, a
// copy with the other player to move, and true), else returns s unchanged and false.
// It panics on a malformed state.
func Normalize(s State) (State, bool) {
	mustBeValid(s)
	if !mustPass(s) {
		return s, false
	}
	passed := s.Clone()
	passed.ToMove = other(s.ToMove)
	return passed, true
}

// LegalMoves returns the legal pit numbers (1..n, ascending) for the player to move in a
// normalized, not-over state. It is empty when the game is over, and when the player to move must
// pass. It panics on a malformed state.
func LegalMoves(s State) []int {
	mustBeValid(s)
	if over, _ := GameOver(s); over {
		return []int{}
	}
	return legalMoves(s)
}

// Apply plays pit move (1..n) for the player to move. It returns the state after the move, with
// ToMove set to the player who moves next AFTER any automatic pass (passed reports that a pass
// happened), the seeds captured by the move (for the mover), and an error if the move is illegal
// (error text names the move and the reason). Apply never modifies s; next shares no memory with
// s. It does not apply the 25-seed stop or repetition. On error, next is the zero State.
//
// A move is illegal when s is malformed, the game is over in s, the player to move must pass (call
// Normalize first), or the pit is not one of LegalMoves(s).
func Apply(s State, move int) (next State, captured int, passed bool, err error) {
	if reason := whyIllegal(s, move); reason != "" {
		return State{}, 0, false, fmt.Errorf("reference: %s: move %d by player %d is illegal: %s",
			s.Variant, move, s.ToMove, reason)
	}
	o := simulate(s, move)
	next = State{Variant: s.Variant, Rows: o.board.rows(), ToMove: other(s.ToMove)}
	if o.again {
		next.ToMove = s.ToMove // kalah's extra move
	}
	next, passed = Normalize(next)
	return next, o.captured, passed, nil
}

// whyIllegal returns why move is not legal in s, or "" if it is.
func whyIllegal(s State, move int) string {
	if err := validate(s); err != nil {
		return "malformed state: " + err.Error()
	}
	if n := Pits(s.Variant); move < 1 || move > n {
		return fmt.Sprintf("no such pit (pits are 1..%d)", n)
	}
	if over, _ := GameOver(s); over {
		return "the game is over"
	}
	if mustPass(s) {
		return fmt.Sprintf("player %d must pass (see Normalize)", s.ToMove)
	}
	return pitRule(s, move)
}

// legalMoves returns the pits of the player to move that pitRule allows, ascending, without asking
// whether the game is over.
func legalMoves(s State) []int {
	moves := []int{}
	for pit := 1; pit <= Pits(s.Variant); pit++ {
		if pitRule(s, pit) == "" {
			moves = append(moves, pit)
		}
	}
	return moves
}

// hasMove reports whether the player to move has a move that pitRule allows.
func hasMove(s State) bool {
	return len(legalMoves(s)) > 0
}

// pitRule returns which rule forbids the player to move from sowing pit (1..n), or "" if none
// does. It does not ask whether the game is over or the player must pass.
func pitRule(s State, pit int) string {
	seeds := s.Rows[s.ToMove-1][pit-1]
	if seeds == 0 {
		return "the pit is empty"
	}
	if s.Variant == djenonAboure && seeds < 2 {
		return "the pit holds 1 seed and a move needs at least 2 (rules.md 5.1)"
	}
	o := simulate(s, pit)
	if o.endless {
		return "its relays never end (rules.md 4.4)"
	}
	return feedingRule(s, o)
}

// feedingRule returns which feeding rule forbids a move with outcome o in s, or "" if none does.
func feedingRule(s State, o outcome) string {
	opp := other(s.ToMove)
	if o.board.seedsOf(opp) > 0 {
		return ""
	}
	switch s.Variant {
	case awari, oware:
		return "it leaves the opponent's row empty (rules.md 1.3)"
	case akon:
		if someMoveFeeds(s) {
			return "it leaves the opponent's row empty and another move does not (rules.md 3.4)"
		}
	case djenonAbe:
		if seedsOf(s, opp) == 0 {
			return "the opponent has no seeds and it gives them none (rules.md 4.5)"
		}
	}
	return ""
}

// someMoveFeeds reports whether, in akon, the player to move has a move after which the
// opponent's row is not empty (rules.md 3.4).
func someMoveFeeds(s State) bool {
	for pit, seeds := range s.Rows[s.ToMove-1] {
		if seeds > 0 && simulate(s, pit+1).board.seedsOf(other(s.ToMove)) > 0 {
			return true
		}
	}
	return false
}

// mustPass reports whether the player to move must pass.
// Djenon-abe (rules.md 4.5): they have no seeds and the opponent has a move that feeds them.
// Djenon-aboure (rules.md 5.4): they have no legal move and the opponent has one.
func mustPass(s State) bool {
	opponentMoves := s.Clone()
	opponentMoves.ToMove = other(s.ToMove)
	switch s.Variant {
	case djenonAbe:
		return seedsOf(s, s.ToMove) == 0 && hasMove(opponentMoves)
	case djenonAboure:
		return !hasMove(s) && hasMove(opponentMoves)
	}
	return false
}

// isOver reports whether the game is over at the start of the turn (see GameOver).
func isOver(s State) bool {
	switch s.Variant {
	case awari, oware:
		return !hasMove(s)
	case akon:
		return seedsOf(s, s.ToMove) == 0
	case djenonAbe:
		return oneSeedEach(s) || (!hasMove(s) && !mustPass(s))
	case djenonAboure:
		return !hasMove(s) && !mustPass(s)
	}
	if isKalah(s.Variant) { // either row is empty
		return seedsOf(s, 1) == 0 || seedsOf(s, 2) == 0
	}
	panic(fmt.Sprintf("reference: unknown variant %q", s.Variant))
}

// oneSeedEach reports whether each row holds exactly one seed (djenon-abe's end, rules.md 4.6).
func oneSeedEach(s State) bool {
	return seedsOf(s, 1) == 1 && seedsOf(s, 2) == 1
}

// endShares returns the seeds players 1 and 2 receive from the board when the game ends in s.
func endShares(s State) [2]int {
	own := [2]int{seedsOf(s, 1), seedsOf(s, 2)}
	switch s.Variant {
	case akon: // rules.md 3.5: the other player takes every seed
		var shares [2]int
		shares[other(s.ToMove)-1] = own[0] + own[1]
		return shares
	case djenonAbe: // rules.md 4.6: a lone row's owner gives one seed to the opponent
		if own[0] == 0 && own[1] > 0 {
			return [2]int{1, own[1] - 1}
		}
		if own[1] == 0 && own[0] > 0 {
			return [2]int{own[0] - 1, 1}
		}
	}
	return own
}
