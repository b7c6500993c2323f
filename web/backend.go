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

// Variants describes the games of rules.md (position.Variants), then
// every kalah size under each rule set (position.KalahVariants).
func (a *Answers) Variants() []VariantInfo {
	var out []VariantInfo
	for _, v := range append(position.Variants(), position.KalahVariants()...) {
		start := position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true}
		out = append(out, VariantInfo{Name: v.Name, Pits: v.Pits, Seeds: v.Total(), PitSeeds: v.StartSeeds,
			Clockwise: v.Clockwise, Start: start.String(), Stores: v.HasStores(), Rules: rulesName(v)})
	}
	return out
}

// rulesName is v's name without the size notation.md appends to the
// sizes of a rule set other than the default one ("-MxN": kalah-3x4 is
// kalah's, kalah-std-3x4 kalah-std's).
func rulesName(v *position.Variant) string {
	return strings.TrimSuffix(v.Name, fmt.Sprintf("-%dx%d", v.Pits, v.StartSeeds))
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

// Lookup is oracle.Lookup: an answer from a tablebase ready now, or ok
// false.
func (a *Answers) Lookup(ctx context.Context, q SolveQuery) (any, bool, error) {
	s, err := parseSetup(q.Position)
	if err != nil {
		return nil, false, err
	}
	ans, ok, err := a.o.Lookup(ctx, s)
	if !ok || err != nil {
		return nil, ok, err
	}
	return ans, true, nil
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
	texts, err := moveList(moves)
	if err != nil {
		return nil, err
	}
	res, err := oracle.Play(s, texts, false)
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	return res, nil
}

// moveList splits a request's move list (position.SplitMoves); no moves
// is the position itself, a malformed list a BadRequest.
func moveList(moves string) ([]string, error) {
	if strings.TrimSpace(moves) == "" {
		return nil, nil
	}
	texts, err := position.SplitMoves([]string{moves})
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	return texts, nil
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
