package position

// Result is how a game ends: each player's final score and who wins
// (rules.md section 0: final score = seeds captured + the seeds the end
// rule gives each player; more wins, equal is a draw).
type Result struct {
	// Final is player 1's and player 2's final score, in seeds.
	Final [2]int
	// Winner is 1 or 2, or 0 for a draw.
	Winner int
	// Margin is the winner's lead in seeds (Final's difference), 0 for a
	// draw.
	Margin int
	// Nobody is the seeds that count for nobody: the board's seeds when a
	// repetition ends the game under RepetitionNobody (rules.md section 0).
	Nobody int
	// CapturesKnown: the seeds captured before the position are known
	// (given, or none since the board holds the variant's every seed).
	// When false they count as 0-0, so Final splits the seeds on the
	// board only and Winner is who takes more of those.
	CapturesKnown bool
}

// ResultOf returns the result that value (rules.md section 6: the score
// difference from s's side to move, from s to the end of the game, in
// -S..S for the S seeds on the board) foretells for the game at s: each
// player's captures so far (Setup.Captured, 0-0 when unknown) plus their
// part of the board's seeds.
//
// A value only fixes the difference of the two parts, so the sum is
// taken as large as the value allows: every seed on the board is won by
// somebody, except one for nobody when the parity of S+value needs it
// (only a repetition under RepetitionNobody leaves seeds to nobody; a
// line played out, Game.Result, knows how many exactly). The winner and
// the margin follow from the value alone and are exact when it is.
// The 25-seed stop (Variant.StopAt) is not applied, as values do not
// apply it; it never changes the winner (rules.md section 1.4).
func (s Setup) ResultOf(value int) Result {
	seeds := s.Position.Seeds()
	value = max(-seeds, min(seeds, value))
	nobody := (seeds + value) & 1
	mover := (seeds - nobody + value) / 2
	other := seeds - nobody - mover
	var final [2]int
	if s.KnownCaptures() {
		final = s.Captured
	}
	me := s.Position.Player() - 1
	final[me] += mover
	final[1-me] += other
	return newResult(final, nobody, s.KnownCaptures())
}

// KnownCaptures reports whether the captures before s are known: given,
// or 0-0 because every seed of the variant is on the board.
func (s Setup) KnownCaptures() bool {
	return s.CapturesKnown || s.Position.Seeds() == s.Variant.Total()
}

// Result returns the game's result once it is Over: Final, the winner and
// the seeds that count for nobody (a repetition's board under
// RepetitionNobody). Unknown captures at the start counted as 0-0
// (CapturesKnown false). Before the end it is the zero Result.
func (g *Game) Result() Result {
	if !g.Over {
		return Result{}
	}
	nobody := 0
	if g.End == EndRepetition && g.Variant.Repetition == RepetitionNobody {
		nobody = g.Position.Seeds()
	}
	return newResult(g.Final, nobody, g.KnownCaptures())
}

// KnownCaptures reports whether the game's captures are known: its
// start's were (Setup.KnownCaptures), so every ply's are.
func (g *Game) KnownCaptures() bool { return g.startKnown }

// newResult fills in the winner and the margin of final.
func newResult(final [2]int, nobody int, known bool) Result {
	r := Result{Final: final, Nobody: nobody, CapturesKnown: known}
	switch d := final[0] - final[1]; {
	case d > 0:
		r.Winner, r.Margin = 1, d
	case d < 0:
		r.Winner, r.Margin = 2, -d
	}
	return r
}
