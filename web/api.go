package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"
	"golang.org/x/sync/semaphore"
)

func (s *Server) variants(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.oracle.Variants())
}

func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	pos, err := s.positionParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q := SolveQuery{Position: pos, Time: s.cfg.Time}
	if t := r.URL.Query().Get("time"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("time %q is not a positive duration such as 1s or 500ms", t))
			return
		}
		q.Time = min(d, s.cfg.Time)
	}
	if q.All, err = boolParam(r, "all"); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if s.lookup(w, r, func(ctx context.Context) (any, bool, error) { return s.oracle.Lookup(ctx, q) }) {
		return
	}
	s.search(w, r, q.Time, func(ctx context.Context) (any, error) { return s.oracle.Solve(ctx, q) })
}

func (s *Server) query(w http.ResponseWriter, r *http.Request) {
	pos, err := s.positionParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.lookup(w, r, func(ctx context.Context) (any, bool, error) {
		res, err := s.oracle.Query(ctx, pos)
		return res, true, err
	})
}

func (s *Server) play(w http.ResponseWriter, r *http.Request) {
	pos, err := s.positionParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	moves := r.URL.Query().Get("moves")
	if n := len(moveFields(moves)); n > s.cfg.Limits.Moves {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("moves: %d moves, at most %d", n, s.cfg.Limits.Moves))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Time)
	defer cancel()
	res, err := s.oracle.Play(ctx, pos, moves)
	s.answer(w, r, res, err)
}

func (s *Server) analyze(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.Limits.Body))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body: more than %d bytes", tooBig.Limit))
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "body: "+err.Error())
		return
	}
	plies, err := s.checkGames(string(body))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q := AnalyzeQuery{Games: string(body), PlyTime: max(s.cfg.Time/time.Duration(max(plies, 1)), minPlyTime)}
	s.search(w, r, s.cfg.Time, func(ctx context.Context) (any, error) {
		games, err := s.oracle.Analyze(ctx, q)
		return games, err
	})
}

// checkGames bounds an analyze body: at least one game, at most
// Limits.Games games of at most Limits.Plies moves and a position string
// of at most Limits.Position bytes. It returns the plies of all games.
// The games' content is the Oracle's to check.
func (s *Server) checkGames(body string) (plies int, err error) {
	games := 0
	for i, line := range strings.Split(body, "\n") {
		text, _, _ := strings.Cut(line, "#")
		start, moves := gameFields(strings.ReplaceAll(text, "\t", " "))
		if start == "" {
			continue
		}
		games++
		switch {
		case games > s.cfg.Limits.Games:
			return 0, fmt.Errorf("line %d: more than %s", i+1, english.Plural(s.cfg.Limits.Games, "game", ""))
		case len(start) > s.cfg.Limits.Position:
			return 0, fmt.Errorf("line %d: position longer than %d bytes", i+1, s.cfg.Limits.Position)
		case len(moves) > s.cfg.Limits.Plies:
			return 0, fmt.Errorf("line %d: %d moves, at most %d", i+1, len(moves), s.cfg.Limits.Plies)
		}
		plies += len(moves)
	}
	if games == 0 {
		return 0, errors.New("body: no game (want a start position then its moves, one game a line)")
	}
	return plies, nil
}

// moveFields splits a move list as notation.md writes it: space- or
// comma-separated.
func moveFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })
}

// gameFields splits a game line into its start position (the first
// space-separated field) and its moves.
func gameFields(line string) (start string, moves []string) {
	start, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	return start, moveFields(rest)
}

// search runs one search under a slot of the search semaphore (see
// acquire), with a context that ends searchTime plus a grace from now.
func (s *Server) search(w http.ResponseWriter, r *http.Request, searchTime time.Duration, run func(context.Context) (any, error)) {
	if !s.acquire(w, r, s.searches, english.Plural(s.cfg.Searches, "search", "")+" running") {
		return
	}
	defer s.searches.Release(1)
	ctx, cancel := context.WithTimeout(r.Context(), searchTime+grace)
	defer cancel()
	res, err := run(ctx)
	s.answer(w, r, res, err)
}

// lookup runs a look-up under a slot of the look-up semaphore, apart from
// the searches so that it never waits behind one, and reports whether it
// answered: run's ok false (and no error) means the Oracle needs a
// search instead, and nothing is written.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request, run func(context.Context) (any, bool, error)) bool {
	if !s.acquire(w, r, s.lookups, english.Plural(s.cfg.Lookups, "look-up", "")+" running") {
		return true
	}
	defer s.lookups.Release(1)
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Time+grace)
	defer cancel()
	res, ok, err := run(ctx)
	if err == nil && !ok {
		return false
	}
	s.answer(w, r, res, err)
	return true
}

// acquire takes a slot of sem, waiting at most QueueWait; when none comes
// free it answers 503 saying what is running, and returns false.
func (s *Server) acquire(w http.ResponseWriter, r *http.Request, sem *semaphore.Weighted, running string) bool {
	wait, cancelWait := context.WithTimeout(r.Context(), s.cfg.QueueWait)
	defer cancelWait()
	if err := sem.Acquire(wait, 1); err != nil {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "server busy: "+running+"; try again shortly")
		return false
	}
	return true
}

// answer writes an Oracle's result, or its error: 400 for a BadRequest, 404
// for a NotFound, 503 for the context's error, 500 for anything else. Several analysed games are written as JSON Lines, as
// `analyze --json` writes them; every answer is one line of JSON a value.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, res any, err error) {
	var notFound *NotFound
	switch {
	case isBadRequest(err):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case errors.As(err, &notFound):
		writeError(w, http.StatusNotFound, err.Error())
		return
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// The request ended before it got an answer: its time ran out
		// while another search of its variant held the solver (the Oracle
		// answers a search cut by a limit, so only a wait ends so), the
		// server is shutting down, or the client left and reads nothing.
		// The server is busy, not broken, so not a 500.
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "server busy: "+err.Error()+"; try again shortly")
		return
	case err != nil:
		if s.cfg.Logf != nil {
			s.cfg.Logf("%s %s: %v", r.Method, r.URL.Path, err)
		}
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if games, ok := res.([]any); ok && len(games) != 1 {
		writeJSONLines(w, games)
		return
	} else if ok {
		res = games[0]
	}
	writeJSON(w, http.StatusOK, res)
}

// positionParam returns the position parameter, checked for presence and
// length.
func (s *Server) positionParam(r *http.Request) (string, error) {
	q := r.URL.Query()
	if !q.Has("position") {
		return "", errors.New("position: missing (want ?position=POS, e.g. ?position=awari)")
	}
	pos := q.Get("position")
	if len(pos) > s.cfg.Limits.Position {
		return "", fmt.Errorf("position: %d bytes, at most %d", len(pos), s.cfg.Limits.Position)
	}
	return pos, nil
}

// boolParam reads a flag parameter: absent, "", "1", "true", "0", "false".
func boolParam(r *http.Request, name string) (bool, error) {
	switch v := r.URL.Query().Get(name); strings.ToLower(v) {
	case "", "0", "false":
		return r.URL.Query().Has(name) && v == "", nil
	case "1", "true":
		return true, nil
	default:
		return false, fmt.Errorf("%s %q: want 1 or 0", name, v)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeJSONLines writes one JSON object a line (JSON Lines).
func writeJSONLines(w http.ResponseWriter, vs []any) {
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	for _, v := range vs {
		_ = enc.Encode(v)
	}
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
