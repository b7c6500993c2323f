package oracle

import (
	"context"
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// Reply answers the position game g has reached, as an engine playing it
// would: valued after the game's line, so that a move back to a position
// of it is a repetition (scored as g's variant says), with opts' limits;
// Choice picks the move to play from the answer. A finished game is an
// error.
func (o *Oracle) Reply(ctx context.Context, g *position.Game, opts SolveOptions) (Answer, error) {
	if g.Over {
		return Answer{}, fmt.Errorf("the game is over (%s)", g.End)
	}
	opts.History = g.Layer(len(g.Line)) // the positions the next move could repeat
	return o.Solve(ctx, g.Setup, opts)
}

// Choice is the move to play from a: the principal variation's first
// move, else the first best move. It is false when a has neither (a
// finished game).
func (a Answer) Choice() (Move, bool) {
	switch {
	case len(a.PV) > 0:
		return a.PV[0], true
	case len(a.BestMoves) > 0:
		return a.BestMoves[0], true
	}
	return 0, false
}
