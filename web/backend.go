package web

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

// Answers is the Oracle of `mancala serve`: solve, query, play and analyze
// are package oracle's answers (the same objects as `solve --json`,
// `query --json`, `play --json` and `analyze --json`). It is safe for
// concurrent use; the tablebases it opens are read-only and shared by
// every request. Which tablebase serves a variant is the oracle's choice.
type Answers struct {
	o *oracle.Oracle
}

// NewAnswers opens an oracle with cfg. A server plays every variant, so a
// tablebase directory (cfg.TBDir) that lacks a variant's layers serves the
// others and that variant is searched (oracle.Config.TBOptional). Close it
// when done.
func NewAnswers(cfg oracle.Config) (*Answers, error) {
	cfg.TBOptional = true
	o, err := oracle.Open(cfg)
	if err != nil {
		return nil, err
	}
	return &Answers{o: o}, nil
}

// Close releases the tablebases opened.
func (a *Answers) Close() error { return a.o.Close() }

// Variants describes every variant position knows.
func (a *Answers) Variants() []VariantInfo {
	var out []VariantInfo
	for _, v := range position.Variants() {
		start := position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true}
		out = append(out, VariantInfo{Name: v.Name, Pits: v.Pits, Seeds: v.Total(), Clockwise: v.Clockwise, Start: start.String()})
	}
	return out
}

// parseSetup reads a position string; a bad one is a BadRequest.
func parseSetup(pos string) (position.Setup, error) {
	s, err := position.Parse(pos)
	if err != nil {
		return s, &BadRequest{Err: err}
	}
	return s, nil
}

func (a *Answers) Solve(ctx context.Context, q SolveQuery) (any, error) {
	s, err := parseSetup(q.Position)
	if err != nil {
		return nil, err
	}
	return a.o.Solve(ctx, s, oracle.SolveOptions{AllMoves: q.All, Time: q.Time})
}

// Query answers from the tablebase on disk alone; a position it does not
// hold, or no tablebase, is a NotFound.
func (a *Answers) Query(ctx context.Context, pos string) (any, error) {
	s, err := parseSetup(pos)
	if err != nil {
		return nil, err
	}
	ans, err := a.o.Query(ctx, s)
	var nit *oracle.NotInTablebaseError
	if errors.As(err, &nit) || errors.Is(err, oracle.ErrNoTablebase) {
		return nil, &NotFound{Err: err}
	}
	return ans, err
}

// Play is oracle.Play: the same object as `play --json`. A bad position,
// move list or illegal move is a BadRequest.
func (a *Answers) Play(ctx context.Context, pos, moves string) (any, error) {
	s, err := parseSetup(pos)
	if err != nil {
		return nil, err
	}
	texts, err := position.SplitMoves([]string{moves})
	if strings.TrimSpace(moves) == "" { // no moves: the position itself
		texts, err = nil, nil
	}
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	res, err := oracle.Play(s, texts, false)
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	return res, nil
}

// Analyze reads the games (oracle.ParseGames: a bad record or an illegal
// move is a BadRequest naming its line and ply), then analyses each with
// q.PlyTime a ply. When ctx ends first, the game under way comes back with
// the plies done (its "complete" false) and the games after it are left
// out.
func (a *Answers) Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error) {
	games, err := oracle.ParseGames(strings.NewReader(q.Games))
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	out := []any{}
	for _, g := range games {
		an, err := a.o.Analyze(ctx, g, oracle.AnalyzeOptions{Time: q.PlyTime})
		if ctx.Err() != nil {
			return append(out, an), nil
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", g.Line, err)
		}
		out = append(out, an)
	}
	return out, nil
}

// Warm readies every variant's tablebases now (oracle.Oracle.Warm), one
// variant after the other, so that no request waits for an in-memory
// build (a request waits at most half its time, then answers without it).
// It stops when ctx ends.
func (a *Answers) Warm(ctx context.Context) error {
	for _, v := range position.Variants() {
		if err := a.o.Warm(ctx, v); err != nil {
			return err
		}
	}
	return nil
}
