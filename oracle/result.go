package oracle

import (
	"github.com/mancala-solver/mancala/position"
)

// Result is an answer's value told as the game's end (notation.md
// "Results"): each player's final score with best play from the position,
// who wins, and, where the principal variation shows it, how and when the
// game ends, the 25-seed stop included. The arithmetic is
// position.Setup.ResultOf's; a principal variation played out
// (position.Game) refines it.
type Result struct {
	// FinalScore is player 1's and player 2's final score, in seeds:
	// their captures before the position (0-0 when unknown) plus what
	// best play gives each from it, played to the natural end as values
	// are (rules.md section 6).
	FinalScore [2]int `json:"final_score"`
	// Winner is 1 or 2, 0 for a draw; Margin the winner's lead in seeds.
	Winner int `json:"winner"`
	Margin int `json:"margin"`
	// Exact: the value is proven, so the winner and margin are.
	Exact bool `json:"exact"`
	// CapturesKnown: the captures before the position are known. When
	// false FinalScore splits the seeds on the board only, and Winner is
	// who takes more of them.
	CapturesKnown bool `json:"captures_known"`
	// Nobody is the seeds that count for nobody (a repetition, rules.md
	// section 0): from the principal variation played out, else the
	// fewest the value's parity allows (0 or 1).
	Nobody int `json:"nobody,omitempty"`
	// End and Plies: the principal variation, complete and exact, played
	// out without the 25-seed stop ends the game after Plies plies (each
	// forced pass one) for the reason End (the "end" of play --json).
	End   position.EndReason `json:"end,omitempty"`
	Plies *int               `json:"plies,omitempty"`
	// StopPly and StopScore: awari's and oware's 25-seed stop ends the
	// game StopPly plies along the exact principal variation (0: the
	// captures given reach it already), at StopScore, each player having
	// taken their own row; the winner is the same (rules.md 1.4).
	StopPly   *int    `json:"stop_ply,omitempty"`
	StopScore *[2]int `json:"stop_score,omitempty"`
}

// resultOf is s's result with a's value: the value's arithmetic
// (position.Setup.ResultOf), refined by playing a's principal variation
// out when a is exact: without the stop, a complete one gives the
// end, its ply and the seeds for nobody (kept only when its score agrees
// with the value, as it does without a history before s); with the stop
// (captures known), the ply at which the 25-seed stop ends the game.
func resultOf(s position.Setup, a *Answer) *Result {
	pr := s.ResultOf(a.Value)
	r := fromPositionResult(pr, a.Exact)
	if !a.Exact {
		return r
	}
	pv := make([]int, len(a.PV))
	for i, m := range a.PV {
		pv[i] = int(m)
	}
	if a.PVComplete {
		g := position.NewGameNoStopAt(s)
		if playLine(g, pv) && g.Over {
			if gr := g.Result(); gr.Final[0]-gr.Final[1] == pr.Final[0]-pr.Final[1] {
				r = fromPositionResult(gr, true)
				plies := len(g.Line)
				r.End, r.Plies = g.End, &plies
			}
		}
	}
	if s.Variant.StopAt > 0 && pr.CapturesKnown {
		g := position.NewGame(s)
		if playLine(g, pv) && g.End == position.EndStopAt {
			plies, score := len(g.Line), g.Final
			r.StopPly, r.StopScore = &plies, &score
		}
	}
	return r
}

// playLine plays moves in g until the game is over, and reports whether
// every move it tried was legal.
func playLine(g *position.Game, moves []int) bool {
	for _, m := range moves {
		if g.Over {
			return true
		}
		if _, err := g.Play(m); err != nil {
			return false
		}
	}
	return true
}

func fromPositionResult(pr position.Result, exact bool) *Result {
	return &Result{FinalScore: pr.Final, Winner: pr.Winner, Margin: pr.Margin, Exact: exact,
		CapturesKnown: pr.CapturesKnown, Nobody: pr.Nobody}
}

// addResult attaches s's result, the known result of s when s is a
// start position with one (KnownResultOf), and each move's class, to a.
func addResult(s position.Setup, a *Answer) {
	a.Result = resultOf(s, a)
	a.KnownResult = KnownResultOf(s)
	for i := range a.Moves {
		a.Moves[i].Class = Classify(max(0, a.Value-a.Moves[i].Value))
	}
}

// gameResult is the result of g, a game played out, once it is over
// (nil before): its final score, winner and end, Plies the plies of its
// line.
func gameResult(g *position.Game) *Result {
	if !g.Over {
		return nil
	}
	r := fromPositionResult(g.Result(), true)
	plies := len(g.Line)
	r.End, r.Plies = g.End, &plies
	return r
}
