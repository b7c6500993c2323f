package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

// printResult prints the lines that tell an answer's value as the game's
// end (oracle.Result) and the known result of a start position, when the
// answer has them.
func printResult(out io.Writer, v *position.Variant, r *oracle.Result, known *oracle.KnownResult) {
	if r != nil {
		fmt.Fprintln(out, resultLine(v, r))
	}
	if known != nil {
		fmt.Fprintln(out, knownLine(known))
	}
}

// resultLine is "result: final score 22-26 with best play: player 2 wins
// by 4; ..." for r, the value told as the game's end.
func resultLine(v *position.Variant, r *oracle.Result) string {
	var b strings.Builder
	b.WriteString("result")
	if !r.Exact {
		b.WriteString(" (from the estimate)")
	}
	if r.CapturesKnown {
		fmt.Fprintf(&b, ": final score %d-%d with best play: %s", r.FinalScore[0], r.FinalScore[1], winnerText(r.Winner, r.Margin))
	} else {
		fmt.Fprintf(&b, ": the board's %s go %d-%d with best play (the captures before are unknown): %s",
			plural(r.FinalScore[0]+r.FinalScore[1]+r.Nobody, "seed"), r.FinalScore[0], r.FinalScore[1], winnerOfBoard(r.Winner, r.Margin))
	}
	if r.Nobody > 0 {
		verb := "count"
		if r.Nobody == 1 {
			verb = "counts"
		}
		fmt.Fprintf(&b, "; %s %s for nobody (repetition)", plural(r.Nobody, "seed"), verb)
	}
	if r.End != "" && r.Plies != nil {
		if *r.Plies == 0 {
			fmt.Fprintf(&b, "; the game is over (%s)", endProse(v, r.End))
		} else {
			fmt.Fprintf(&b, "; the principal variation ends the game at ply %d (%s)", *r.Plies, endProse(v, r.End))
		}
	}
	switch {
	case r.StopPly == nil:
	case *r.StopPly == 0:
		fmt.Fprintf(&b, "; the captures already reach the 25-seed stop: a game played out ends here at %d-%d, the same winner",
			r.StopScore[0], r.StopScore[1])
	default:
		fmt.Fprintf(&b, "; the 25-seed stop ends it at ply %d, at %d-%d, the same winner", *r.StopPly, r.StopScore[0], r.StopScore[1])
	}
	return b.String()
}

// knownLine names the known result of a start position.
func knownLine(k *oracle.KnownResult) string {
	return fmt.Sprintf("known result: %s from the start is %+d for player 1, final score %d-%d: %s (%s)",
		k.Game, k.Value, k.FinalScore[0], k.FinalScore[1], winnerText(k.Winner, k.Margin), k.Source)
}

// winnerText is "player 2 wins by 4" or "a draw".
func winnerText(winner, margin int) string {
	if winner == 0 {
		return "a draw"
	}
	return fmt.Sprintf("player %d wins by %s", winner, plural(margin, "seed"))
}

// winnerOfBoard is winnerText for the seeds on the board alone.
func winnerOfBoard(winner, margin int) string {
	if winner == 0 {
		return "an even split"
	}
	return fmt.Sprintf("player %d takes %d more", winner, margin)
}

// scoreCell is a ply's result in the analysis table: "22-26".
func scoreCell(r *oracle.Result) string {
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%d-%d", r.FinalScore[0], r.FinalScore[1])
}

// gameWinner words the winner of a game played out (oracle.Result of a
// game over).
func gameWinner(r *oracle.Result) string {
	if r == nil {
		return ""
	}
	w := winnerText(r.Winner, r.Margin)
	if r.Winner == 0 {
		w = "a draw"
	}
	if !r.CapturesKnown {
		w += " (captures before the start unknown, counted from 0-0)"
	}
	return w
}
