package oracle

import (
	"context"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// LineValue is the value of one line: a turn of the side to move, its
// moves up to the one that hands the turn over or ends the game. A move
// after which the same player moves again (kalah's extra move,
// position.Move.MovesAgain) is followed by each continuation in turn, so
// that a position's lines are all its turns, as Rawlings (2015) values
// kalah's first moves ("3-6": pit 3, whose last seed falls into the store,
// then pit 6). Without extra moves a line is one move and its value that
// move's (MoveValue).
type LineValue struct {
	// Line is the moves, first to last, by the same player.
	Line []Move `json:"line"`
	// Value is the line's value to its mover: the seeds its moves capture
	// (or bank) plus what follows for the mover (position.Move.Value
	// applied along the line).
	Value int `json:"value"`
	// Captured is what the line's moves capture or bank, in all.
	Captured int  `json:"captured"`
	Exact    bool `json:"exact"`
	// Lower and Upper are proven bounds on Value (equal when exact).
	Lower int `json:"lower_bound"`
	Upper int `json:"upper_bound"`
}

// String writes the line as Rawlings does, its moves joined by "-": "3-6".
func (l LineValue) String() string {
	parts := make([]string, len(l.Line))
	for i, m := range l.Line {
		parts[i] = m.String()
	}
	return strings.Join(parts, "-")
}

// addLines fills a.Lines from a.Moves, the values of p's moves (a is p's
// answer, all moves valued): a move after which the mover moves again,
// in a position not yet over, is expanded by solving the position it
// leads to (every move valued, no principal variation) and prefixing the
// move to each of that position's lines, recursively. The sub-solves'
// nodes are added to a's. history is p's, as solve takes it.
func (o *Oracle) addLines(ctx context.Context, vs *variantState, p position.Position, history []position.Position, opts SolveOptions, a *Answer) error {
	moves := legalMoves(vs.v, p)
	for _, mv := range a.Moves {
		line := LineValue{Line: []Move{mv.Move}, Value: mv.Value, Captured: mv.Captured,
			Exact: mv.Exact, Lower: mv.Lower, Upper: mv.Upper}
		m, ok := legalMove(moves, mv.Move)
		if !ok || !m.MovesAgain(p) || len(legalMoves(vs.v, m.Next)) == 0 {
			a.Lines = append(a.Lines, line)
			continue
		}
		next := Answer{Player: a.Player, Threads: a.Threads}
		sub := opts
		sub.NoPV, sub.AllMoves = true, true
		nextHistory := layerOf(append(history, p), m.Next)
		if err := o.solve(ctx, vs, m.Next, nextHistory, sub, &next); err != nil {
			return err
		}
		if err := o.addLines(ctx, vs, m.Next, nextHistory, sub, &next); err != nil {
			return err
		}
		a.Nodes += next.Nodes
		a.TablebaseHits += next.TablebaseHits
		for _, l := range next.Lines {
			a.Lines = append(a.Lines, prefixLine(p, m, l))
		}
	}
	return nil
}

// prefixLine is line l of m.Next preceded by m, an extra move from p.
func prefixLine(p position.Position, m position.Move, l LineValue) LineValue {
	lo, hi := m.Value(p, l.Lower), m.Value(p, l.Upper)
	return LineValue{Line: append([]Move{Move(m.Pit)}, l.Line...), Value: m.Value(p, l.Value),
		Captured: int(m.Captured) + l.Captured, Exact: l.Exact, Lower: min(lo, hi), Upper: max(lo, hi)}
}

// legalMove finds the move of moves played from pit mv.
func legalMove(moves []position.Move, mv Move) (position.Move, bool) {
	for _, m := range moves {
		if Move(m.Pit) == mv {
			return m, true
		}
	}
	return position.Move{}, false
}
