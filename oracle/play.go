package oracle

import (
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// PlayedMove is one ply of a played line (notation.md): who made it, the
// move (a pit, or "pass" where the rules forced one), the seeds it
// captured (in kalah, every seed it put into the mover's store) and
// whether the same player moves again after it (kalah's extra move:
// position.Move.MovesAgain).
type PlayedMove struct {
	Player   int  `json:"player"`
	Move     Move `json:"move"`
	Captured int  `json:"captured"`
	Again    bool `json:"again,omitempty"`
}

// Played is the object of `play --json` and /api/play (notation.md): the
// position reached, every ply of the line in order (each forced pass one of
// its own, whether or not it was typed) and, once the game has ended, the
// final score and the end's short reason.
type Played struct {
	Position   string             `json:"position"`
	Moves      []PlayedMove       `json:"moves"`
	GameOver   bool               `json:"game_over"`
	FinalScore *[2]int            `json:"final_score,omitempty"`
	End        position.EndReason `json:"end,omitempty"`
	// Result, once the game has ended, is its result: the final score
	// again, who won and by how much (Result; plies counts the line).
	Result *Result `json:"result,omitempty"`
}

// newPlayed reports game g as played so far.
func newPlayed(g *position.Game) Played {
	res := Played{Position: g.Setup.String(), Moves: make([]PlayedMove, len(g.Line)), GameOver: g.Over, End: g.End}
	for i, ply := range g.Line {
		res.Moves[i] = PlayedMove{Player: ply.Player(), Move: Move(ply.Move.Pit), Captured: int(ply.Move.Captured),
			Again: ply.Move.MovesAgain(ply.Before.Position)}
	}
	if g.Over {
		final := g.Final
		res.FinalScore = &final
	}
	res.Result = gameResult(g)
	return res
}

// MoveError is Play's error for a move that does not parse or is not
// legal. Errors.As finds it under the message.
type MoveError struct {
	N    int            // the move's place in the list, from 1
	Text string         // the move as given
	Err  error          // why, naming the move (position.Game.Play, Variant.ParseMoveAt)
	Game *position.Game // the game before the move, to list its legal moves
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("%v (the %s move in the list)", e.Err, position.Ordinal(e.N))
}

func (e *MoveError) Unwrap() error { return e.Err }

// Play plays moves (one a string, as position.SplitMoves gives them: pit
// numbers, "pass", the engine dialect's letters or PlayStrategy's squares:
// position.Variant.ParseMoveAt) from s with every end rule (position.Game), without
// the 25-seed stop when noStopAt, and reports the line. A bad or illegal
// move is a *MoveError and nothing is reported.
func Play(s position.Setup, moves []string, noStopAt bool) (Played, error) {
	g, err := Replay(s, moves, noStopAt)
	if err != nil {
		return Played{}, err
	}
	return newPlayed(g), nil
}

// Replay is Play's game: moves played from s with every end rule, without
// the 25-seed stop when noStopAt. A bad or illegal move is a *MoveError.
func Replay(s position.Setup, moves []string, noStopAt bool) (*position.Game, error) {
	g := position.NewGame(s)
	if noStopAt {
		g = position.NewGameNoStopAt(s)
	}
	for i, text := range moves {
		pit, err := g.Variant.ParseMoveAt(g.Position, text)
		if err != nil && g.Over {
			pit, err = position.PassPit, nil // Play words it: the game is over
		}
		if err == nil {
			_, err = g.Play(pit)
		}
		if err != nil {
			return nil, &MoveError{N: i + 1, Text: text, Err: err, Game: g}
		}
	}
	return g, nil
}
