package oracle

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mancala-solver/mancala/internal/lines"
	"github.com/mancala-solver/mancala/position"
)

// Game is a game record: a start position and the moves played, as `play`
// takes them (notation.md): pit numbers on the mover's row, and "pass"
// where the rules force one (forced passes may also be left out).
type Game struct {
	Start position.Setup
	Moves []int // pits, position.PassPit for a pass
	// Line is the record's line in its file (1-based), 0 when not read
	// from one.
	Line int
}

// ErrEmptyGame: a game record line holds no position.
var ErrEmptyGame = errors.New("empty game record")

// ParseGame reads one game record: a position string, then the moves,
// space- or comma-separated; "#" starts a comment. The error names the bad
// part; pit numbers are checked against the variant's row here, legality
// when the game is replayed.
func ParseGame(line string) (Game, error) {
	text, _, _ := strings.Cut(line, "#")
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Game{}, ErrEmptyGame
	}
	start, err := position.Parse(fields[0])
	if err != nil {
		return Game{}, err
	}
	moves, err := start.Variant.ParseMoves(fields[1:])
	if err != nil {
		return Game{}, err
	}
	return Game{Start: start, Moves: moves}, nil
}

// ParseGames reads game records one a line (each at most lines.MaxBytes
// long); blank lines and "#" comments are skipped. An error names the
// line ("line 3: ..."). Every game is also replayed, so
// that an illegal move is reported (with its line and ply) before any
// game is analysed.
func ParseGames(r io.Reader) ([]Game, error) {
	var games []Game
	err := lines.Each(r, func(n int, text string) error {
		g, err := ParseGame(text)
		if errors.Is(err, ErrEmptyGame) {
			return nil
		}
		if err == nil {
			_, _, err = g.replay()
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		g.Line = n
		games = append(games, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// ply is one ply of a replayed game: who moved, from where, after which
// positions of its layer, and what it captured.
type ply struct {
	setup    position.Setup      // the position before the move, with the captures so far when known
	history  []position.Position // the positions of its layer before it on the game's line
	move     position.Move
	captured int
}

// replay plays the game out with every end rule (position.Game) and
// returns its plies, forced passes included as plies of their own, and
// the game as it ended. An error names the ply and the move.
func (g Game) replay() ([]ply, *position.Game, error) {
	pg := position.NewGame(g.Start)
	var plies []ply
	var layer []position.Position
	add := func(s position.Setup, m position.Move) {
		plies = append(plies, ply{setup: s, history: slices.Clone(layer), move: m, captured: int(m.Captured)})
		if m.Captured > 0 {
			layer = layer[:0]
		} else {
			layer = append(layer, s.Position)
		}
	}
	pending := pg.StartPassed // a forced pass was applied and may be named
	if pending {
		add(g.Start, passMove(g.Start.Position))
	}
	for i, pit := range g.Moves {
		before := pg.Setup
		if pit == position.PassPit && pending {
			pending = false
			if _, err := pg.Play(pit); err != nil { // names the pass already applied
				return nil, nil, fmt.Errorf("ply %d (move %d of the record, pass): %w", len(plies)+1, i+1, err)
			}
			continue
		}
		played, err := pg.Play(pit)
		if err != nil {
			return nil, nil, fmt.Errorf("ply %d (move %d of the record, %s): %w", len(plies)+1, i+1, position.MoveString(pit), err)
		}
		m, _ := g.Start.Variant.MakeMove(before.Position, pit) // legal: Play took it
		add(before, m)
		pending = played.Passed
		if pending {
			s := pg.Setup
			s.Position = m.Next // the opponent to move, who must pass
			add(s, passMove(m.Next))
		}
	}
	return plies, pg, nil
}

// passMove is the forced pass of p.
func passMove(p position.Position) position.Move {
	return position.Move{Pit: position.PassPit, Next: p.Swapped()}
}
