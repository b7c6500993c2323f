package uci

import (
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// NullMove is the bestmove of a position whose game is over.
const NullMove = "0000"

// The dialect's notation (fen, move letters) is package position's
// (position/dialect.go), shared with the commands that read it.

// Supported reports whether the dialect can carry v's positions and
// moves: a board of two rows of six pits (a letter a pit) and two stores.
// Akon's seven-pit rows have no letters.
func Supported(v *position.Variant) error { return position.CheckDialect(v) }

// line is the game the GUI set up: where it started and the moves played
// (position.Game, whose Line holds the positions a move may repeat).
type line struct {
	game *position.Game
}

func newLine(s position.Setup) *line { return &line{game: position.NewGame(s)} }

// play applies moves written together ("AfCb"; spaces between letters are
// allowed). An illegal move is an error naming it and its place; the line
// is then left part-way, so callers build a new line for each position
// command.
func (l *line) play(moves string) error {
	n := 0
	for i := 0; i < len(moves); i++ {
		c := moves[i]
		if c == ' ' || c == '\t' {
			continue
		}
		n++
		pit, err := l.game.Variant.LetterPit(l.game.Position, c)
		if err == nil {
			_, err = l.game.Play(pit)
		}
		if err != nil {
			return fmt.Errorf("the %s move: %w", position.Ordinal(n), err)
		}
	}
	return nil
}
