package position

// Opponent returns the other player: 2 for 1 and 1 for 2.
func Opponent(player int) int { return 3 - player }

// Value returns the value of move m, played from p, given next, the value of
// m.Next from its own side to move (both in seeds, rules.md section 6).
//
// A move is worth the seeds it captures (or banks) plus what follows it for
// the mover: when the turn passes over, that is minus the child's value;
// when the same player moves again (kalah's extra move), it is the child's
// value itself. This is the one place that rule is written; the solver, the
// tablebase build and every command call it.
func (m Move) Value(p Position, next int) int {
	if m.Next.Side == p.Side {
		return int(m.Captured) + next
	}
	return int(m.Captured) - next
}
