package oracle

import (
	"bufio"
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
	// Tags are an Aualé file's tags, when the game came from one.
	Tags []position.OGNTag
}

// ErrEmptyGame: a game record line holds no position.
var ErrEmptyGame = errors.New("empty game record")

// ParseGame reads one game record: a position string, then the moves,
// space- or comma-separated; "#" starts a comment. The error names the bad
// part; pit numbers are checked against the variant's row here, legality
// when the game is replayed. A record in the engine dialect (a fen, then
// letters together: `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S AfCb`) or with
// PlayStrategy's moves (`oware d1e2 c2b1`, or the moves alone for
// position.DialectVariant's start: `d1e2 c2b1`) is read too: letters and
// squares name the side that moves, so such a record is replayed here, and
// an illegal move is an error naming its ply as replay's are.
func ParseGame(line string) (Game, error) {
	text, _, _ := strings.Cut(line, "#")
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Game{}, ErrEmptyGame
	}
	start, err := position.Parse(fields[0])
	if position.IsSquareMove(fields[0]) {
		// PlayStrategy's move list on its own: from the start of the
		// rules PlayStrategy plays.
		start, err = position.Parse(position.DialectVariant)
		fields = append([]string{""}, fields...)
	}
	if err != nil {
		return Game{}, err
	}
	words, err := position.SplitMoves(fields[1:])
	if err != nil {
		return Game{}, err
	}
	if !slices.ContainsFunc(words, position.NamesSide) {
		moves, err := start.Variant.ParseMoves(words)
		if err != nil {
			return Game{}, err
		}
		return Game{Start: start, Moves: moves}, nil
	}
	pg := position.NewGame(start)
	moves := make([]int, len(words))
	for i, w := range words {
		pit, err := pg.Variant.ParseMoveAt(pg.Position, w)
		if err == nil {
			_, err = pg.Play(pit)
		} else if pg.Over {
			err = fmt.Errorf("move %s: the game is over (%s)", w, pg.End)
		}
		if err != nil {
			return Game{}, fmt.Errorf("ply %d (move %d of the record, %s): %w", len(pg.Line)+1, i+1, w, err)
		}
		moves[i] = pit
	}
	return Game{Start: start, Moves: moves}, nil
}

// ParseGames reads game records one a line (each at most lines.MaxBytes
// long); blank lines and "#" comments are skipped. An error names the
// line ("line 3: ..."). Every game is also replayed, so
// that an illegal move is reported (with its line and ply) before any
// game is analysed.
//
// An Aualé file (position.LooksLikeOGN: it starts with a tag line) is read
// whole instead, up to lines.MaxBytes, as one game (position.ParseOGN).
func ParseGames(r io.Reader) ([]Game, error) {
	br := bufio.NewReader(r)
	if startsWithTag(br) {
		text, err := io.ReadAll(io.LimitReader(br, lines.MaxBytes+1))
		switch {
		case err != nil:
			return nil, err
		case len(text) > lines.MaxBytes:
			return nil, fmt.Errorf("an Aualé file longer than %d MiB", lines.MaxBytes>>20)
		}
		rec, err := position.ParseOGN(string(text))
		if err != nil {
			return nil, err
		}
		return []Game{{Start: rec.Start, Moves: rec.Moves, Tags: rec.Tags}}, nil
	}
	r = br
	var games []Game
	err := lines.Each(r, func(n int, text string) error {
		g, err := ParseGame(text)
		if errors.Is(err, ErrEmptyGame) {
			return nil
		}
		if err == nil {
			_, err = g.replay()
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

// startsWithTag reports whether the first byte of r after blank space is
// "[", an Aualé file's first tag, without consuming anything.
func startsWithTag(br *bufio.Reader) bool {
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if err != nil {
			return false
		}
		switch b[i-1] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b[i-1] == '['
	}
}

// replay plays the game out with every end rule (position.Game) and
// returns it: its Line holds every ply, forced passes included as plies
// of their own. An error names the ply and the move.
func (g Game) replay() (*position.Game, error) {
	pg := position.NewGame(g.Start)
	for i, pit := range g.Moves {
		if _, err := pg.Play(pit); err != nil {
			return nil, fmt.Errorf("ply %d (move %d of the record, %s): %w", len(pg.Line)+1, i+1, position.MoveString(pit), err)
		}
	}
	return pg, nil
}
