package web

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

// Answers is the Oracle of `mancala serve`: solve, query and analyze are
// package oracle's answers (the same objects as `solve --json`, `query
// --json` and `analyze --json`), play is position.Game's, as `play --json`
// gives them. It is
// safe for concurrent use; the tablebases it opens are read-only and
// shared by every request.
type Answers struct {
	o *oracle.Oracle
	// A tablebase directory given explicitly (--tb) that holds no layers
	// of a variant is an error to oracle, as it is to `solve --tb`; a
	// server that plays every variant searches those variants instead,
	// with fallback, an oracle without that directory.
	fallback *oracle.Oracle
	mu       sync.Mutex
	noLayers map[string]bool // variants the tablebase directory lacks
}

// NewAnswers opens an oracle with cfg. Close it when done.
func NewAnswers(cfg oracle.Config) (*Answers, error) {
	o, err := oracle.Open(cfg)
	if err != nil {
		return nil, err
	}
	a := &Answers{o: o, fallback: o, noLayers: map[string]bool{}}
	if cfg.TBDir != "" {
		plain := cfg
		plain.TBDir = ""
		if a.fallback, err = oracle.Open(plain); err != nil {
			o.Close()
			return nil, err
		}
	}
	return a, nil
}

// Close releases the tablebases opened.
func (a *Answers) Close() error {
	err := a.o.Close()
	if a.fallback != a.o {
		err = errors.Join(err, a.fallback.Close())
	}
	return err
}

// oracleFor returns the oracle that serves v: the one with the tablebase
// directory, unless it lacks v's layers.
func (a *Answers) oracleFor(v *position.Variant) *oracle.Oracle {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.noLayers[v.Name] {
		return a.fallback
	}
	return a.o
}

// retryWithout reports whether err says the tablebase directory lacks v,
// and then sends v's later calls to the fallback oracle.
func (a *Answers) retryWithout(v *position.Variant, err error) bool {
	if a.fallback == a.o || !errors.Is(err, oracle.ErrNoTablebase) {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.noLayers[v.Name] = true
	return true
}

// solve is oracle.Solve by the oracle that serves s's variant.
func (a *Answers) solve(ctx context.Context, s position.Setup, opts oracle.SolveOptions) (oracle.Answer, error) {
	ans, err := a.oracleFor(s.Variant).Solve(ctx, s, opts)
	if a.retryWithout(s.Variant, err) {
		return a.fallback.Solve(ctx, s, opts)
	}
	return ans, err
}

// analyze is oracle.Analyze by the oracle that serves g's variant.
func (a *Answers) analyze(ctx context.Context, g oracle.Game, opts oracle.AnalyzeOptions) (oracle.Analysis, error) {
	an, err := a.oracleFor(g.Start.Variant).Analyze(ctx, g, opts)
	if a.retryWithout(g.Start.Variant, err) {
		return a.fallback.Analyze(ctx, g, opts)
	}
	return an, err
}

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
	return a.solve(ctx, s, oracle.SolveOptions{AllMoves: q.All, Time: q.Time})
}

// Lookup is oracle.Lookup by the oracle that serves the position's
// variant: an answer from a tablebase ready now, or ok false.
func (a *Answers) Lookup(ctx context.Context, q SolveQuery) (any, bool, error) {
	s, err := parseSetup(q.Position)
	if err != nil {
		return nil, false, err
	}
	ans, ok, err := a.oracleFor(s.Variant).Lookup(ctx, s)
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

// played is one move applied, as `play --json` writes it.
type played struct {
	Player   int         `json:"player"`
	Move     oracle.Move `json:"move"`
	Captured int         `json:"captured"`
	Passed   bool        `json:"passed,omitempty"` // the next player had to pass
}

// playAnswer is `play --json`'s object (notation.md).
type playAnswer struct {
	Position   string             `json:"position"`
	Passed     bool               `json:"passed,omitempty"` // the given position's player had to pass at once
	Moves      []played           `json:"moves"`
	GameOver   bool               `json:"game_over"`
	FinalScore *[2]int            `json:"final_score,omitempty"`
	End        position.EndReason `json:"end,omitempty"`
}

func (a *Answers) Play(ctx context.Context, pos, moves string) (any, error) {
	g, done, err := playGame(pos, moves)
	if err != nil {
		return nil, err
	}
	res := playAnswer{Position: g.Setup.String(), Passed: g.StartPassed, Moves: done, GameOver: g.Over, End: g.End}
	if g.Over {
		res.FinalScore = &g.Final
	}
	return res, nil
}

// playGame plays moves (notation.md) from pos with every end rule; a bad
// position, move list or illegal move is a BadRequest.
func playGame(pos, moves string) (*position.Game, []played, error) {
	s, err := parseSetup(pos)
	if err != nil {
		return nil, nil, err
	}
	var pits []int
	if strings.TrimSpace(moves) != "" { // no moves: the position itself
		if pits, err = s.Variant.ParseMoves([]string{moves}); err != nil {
			return nil, nil, &BadRequest{Err: err}
		}
	}
	g := position.NewGame(s)
	done := []played{}
	for _, pit := range pits {
		p, err := g.Play(pit)
		if err != nil {
			return nil, nil, &BadRequest{Err: err}
		}
		done = append(done, played{Player: p.Player, Move: oracle.Move(pit), Captured: p.Captured, Passed: p.Passed})
	}
	return g, done, nil
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
		an, err := a.analyze(ctx, g, oracle.AnalyzeOptions{Time: q.PlyTime})
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

// Warm builds every variant's in-memory endgame tablebase now, one variant
// after the other, so that no request waits for it (a request waits at
// most half its time, then answers without it). It solves an 8-seed
// endgame of each variant with a one-node search, which the oracle cannot
// settle without the tablebase, and no time limit; it stops when ctx ends.
func (a *Answers) Warm(ctx context.Context) error {
	for _, v := range position.Variants() {
		row1, row2 := make([]int, v.Pits), make([]int, v.Pits)
		copy(row1, []int{2, 1, 1})
		copy(row2, []int{1, 1, 1, 1})
		s := position.Setup{Variant: v, Position: position.FromRows(position.PackRow(row1), position.PackRow(row2), 1)}
		if _, err := a.solve(ctx, s, oracle.SolveOptions{AllMoves: true, Nodes: 1}); err != nil || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
	}
	return nil
}
