package position

// Opponent returns the other player: 2 for 1 and 1 for 2.
func Opponent(player int) int { return 3 - player }

// MovesAgain reports whether move m, played from p, leaves the same player
// to move: kalah's extra move, whose last seed falls into the mover's store
// (m.Next then has p's Side and unswapped rows). In every other variant,
// and for a pass, the turn passes over. This is the one place the rule is
// written.
func (m Move) MovesAgain(p Position) bool { return m.Next.Side == p.Side }

// StartsLayer reports whether move m of v starts a new layer of the game:
// a line after which no earlier position can recur, so that the positions
// before it need not be remembered for the repetition rule (rules.md
// section 0). A capture starts one, since seeds only leave the board; in a
// variant where no position can recur (kalah, CanRepeat) every move does.
func (v *Variant) StartsLayer(m Move) bool { return m.Captured > 0 || !v.CanRepeat() }

// Value returns the value of move m, played from p, given next, the value of
// m.Next from its own side to move (both in seeds, rules.md section 6).
//
// A move is worth the seeds it captures (or banks) plus what follows it for
// the mover: when the turn passes over, that is minus the child's value;
// when the same player moves again (MovesAgain), it is the child's value
// itself. This is the one place that rule is written; the solver, the
// tablebase build and every command call it.
func (m Move) Value(p Position, next int) int {
	return SownValue(int(m.Captured), m.MovesAgain(p), next)
}

// SownValue is Move.Value for a move given by its captured (or banked)
// seeds and whether the mover moves again: captured + next after kalah's
// extra move, captured - next when the turn passes over.
func SownValue(captured int, again bool, next int) int {
	if again {
		return captured + next
	}
	return captured - next
}

// SeedParity reports whether the value of every position of v (rules.md
// section 6) has the parity of the seeds on its board: true when every end
// of a game gives each seed left on the board to one player or the other,
// as the end rules all do, and no repetition gives them to nobody (a
// variant whose positions cannot recur, CanRepeat: kalah; or one whose
// repetitions give each player their own row, RepetitionOwnRows). A
// value with S seeds on the board is then 2k-S, k being the seeds the
// mover takes from now on. This is the one place the rule is written; the
// solver rounds its horizon estimates to it.
//
// Proof, by induction on the plies left: a game end splits all S seeds,
// own+opp = S, so own-opp = S-2*opp. A move that banks or captures c seeds
// leaves S-c on the board, so its child's value t has the parity of S-c,
// and the move's value c-t or c+t (Move.Value) that of S; a pass keeps the
// seeds. The best move's value is one of these.
func (v *Variant) SeedParity() bool {
	return !v.CanRepeat() || v.Repetition == RepetitionOwnRows
}
