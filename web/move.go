package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/mancala-solver/mancala/oracle"
)

// Mover is an Oracle that also plays: the board page's opponent. It is
// optional; an Oracle without it has no /api/move.
type Mover interface {
	// Move answers the position a game reaches (Position, then Moves as
	// for Play) and picks the move to play there, searching for Time:
	// the same object as solve's, with "move" added. A finished game, a
	// bad position or an illegal move is a BadRequest.
	Move(ctx context.Context, q MoveQuery) (any, error)
}

// MoveQuery is a move request.
type MoveQuery struct {
	Position string
	Moves    string
	// Time bounds the search; the server has capped it already.
	Time time.Duration
	// Depth and Nodes, when not 0, bound the search too: the engine's
	// strength levels (solver.Request's MaxDepth and MaxNodes).
	Depth int
	Nodes int64
}

// Bounds of /api/move's strength levels.
const (
	MaxMoveDepth = 100
	MaxMoveNodes = 1_000_000_000
)

// DefaultMoveTime is an engine move's time when the request names none.
const DefaultMoveTime = time.Second

// EngineMove is /api/move's answer: the answer for the game's position
// and the move the engine plays.
type EngineMove struct {
	oracle.Answer
	Move oracle.Move `json:"move"`
}

// move serves GET /api/move?position=POS&moves=3,5,1&time=500ms, with
// depth=N (plies) or nodes=N to play weaker than the time allows.
func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	m, ok := s.oracle.(Mover)
	if !ok {
		writeError(w, http.StatusNotFound, "no such API route: "+r.Method+" "+r.URL.Path)
		return
	}
	pos, err := s.positionParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q := MoveQuery{Position: pos, Moves: r.URL.Query().Get("moves"), Time: min(DefaultMoveTime, s.cfg.Time)}
	if n := len(moveFields(q.Moves)); n > s.cfg.Limits.Moves {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("moves: %d moves, at most %d", n, s.cfg.Limits.Moves))
		return
	}
	if t := r.URL.Query().Get("time"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("time %q is not a positive duration such as 1s or 500ms", t))
			return
		}
		q.Time = min(d, s.cfg.Time)
	}
	if q.Depth, err = intParam(r, "depth", MaxMoveDepth); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	nodes, err := intParam(r, "nodes", MaxMoveNodes)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q.Nodes = int64(nodes)
	s.search(w, r, q.Time, func(ctx context.Context) (any, error) { return m.Move(ctx, q) })
}

// Move replays the game and answers its position as an engine would
// (oracle.Reply: valued after the game's line, so that repetitions count
// as its variant scores them), with the move it plays.
func (a *Answers) Move(ctx context.Context, q MoveQuery) (any, error) {
	s, err := parseSetup(q.Position)
	if err != nil {
		return nil, err
	}
	texts, err := moveList(q.Moves)
	if err != nil {
		return nil, err
	}
	g, err := oracle.Replay(s, texts, false)
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	if g.Over {
		return nil, BadRequestf("the game is over (%s)", g.End)
	}
	ans, err := a.o.Reply(ctx, g, oracle.SolveOptions{Time: q.Time, Depth: q.Depth, Nodes: q.Nodes})
	if err != nil {
		return nil, err
	}
	m, ok := ans.Choice()
	if !ok {
		return nil, errors.New("the search gave no move")
	}
	return EngineMove{Answer: ans, Move: m}, nil
}

// intParam reads the optional query parameter name, a whole number
// 1..most; absent is 0.
func intParam(r *http.Request, name string, most int) (int, error) {
	text := r.URL.Query().Get(name)
	if text == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > most {
		return 0, fmt.Errorf("%s %q is not a whole number from 1 to %d", name, text, most)
	}
	return n, nil
}
