package web

// This file is a temporary Oracle over position (play) and solver
// (search), used until the answering package (oracle) is merged. It knows
// no tablebase on disk and no game history; endgames get a small tablebase
// built in memory, once per variant, as cmd/solve does.

import (
	"context"
	"strings"
	"sync"
	"time"

	"mancala/position"
	"mancala/solver"
	"mancala/tablebase"
)

// Interim is a temporary Oracle over position and solver.
type Interim struct {
	threads, hashMiB, searches int

	mu    sync.Mutex
	pools map[string]chan *solver.Solver // per variant: idle Solvers (nil: not made yet)
	tbs   map[string]*interimTB
}

type interimTB struct {
	once sync.Once
	mem  *tablebase.Memory
	err  error
}

// NewInterim returns an Oracle that keeps at most searches Solvers a
// variant, of threads threads and hashMiB MiB each.
func NewInterim(searches, threads, hashMiB int) *Interim {
	return &Interim{threads: threads, hashMiB: hashMiB, searches: searches,
		pools: map[string]chan *solver.Solver{}, tbs: map[string]*interimTB{}}
}

// interimTBPositions bounds the in-memory tablebase, as cmd/solve does.
const interimTBPositions = 3_000_000

// tablebase returns v's in-memory tablebase, built on first use.
func (o *Interim) tablebase(v *position.Variant) (*tablebase.Memory, error) {
	o.mu.Lock()
	tb := o.tbs[v.Name]
	if tb == nil {
		tb = &interimTB{}
		o.tbs[v.Name] = tb
	}
	o.mu.Unlock()
	tb.once.Do(func() {
		seeds := 0
		for tablebase.MemoryPositions(v, seeds+1) <= interimTBPositions {
			seeds++
		}
		tb.mem, tb.err = tablebase.BuildMemory(context.Background(), v, seeds, o.threads)
	})
	return tb.mem, tb.err
}

// solver takes an idle Solver of v from its pool, making one if needed;
// put it back with release.
func (o *Interim) solver(v *position.Variant) (*solver.Solver, func(), error) {
	o.mu.Lock()
	pool := o.pools[v.Name]
	if pool == nil {
		pool = make(chan *solver.Solver, o.searches)
		for i := 0; i < o.searches; i++ {
			pool <- nil
		}
		o.pools[v.Name] = pool
	}
	o.mu.Unlock()
	s := <-pool
	release := func() { pool <- s }
	if s != nil {
		return s, release, nil
	}
	tb, err := o.tablebase(v)
	if err == nil {
		s, err = solver.New(solver.Options{Threads: o.threads, HashMiB: o.hashMiB, AllMoves: true, Tablebase: tb})
	}
	if err != nil {
		pool <- nil
		return nil, nil, err
	}
	return s, release, nil
}

type interimMove struct {
	Move     any  `json:"move"`
	Value    int  `json:"value"`
	Captured int  `json:"captured"`
	Exact    bool `json:"exact"`
}

type interimSolve struct {
	Position  string        `json:"position"`
	GameOver  bool          `json:"game_over"`
	Value     int           `json:"value"`
	Exact     bool          `json:"exact"`
	BestMoves []any         `json:"best_moves"`
	Moves     []interimMove `json:"moves,omitempty"`
	PV        []any         `json:"pv"`
	Depth     int           `json:"depth"`
	Nodes     uint64        `json:"nodes"`
	Seconds   float64       `json:"seconds"`
}

func moveJSON(pit int) any {
	if pit == position.PassPit {
		return "pass"
	}
	return pit
}

func (o *Interim) Variants() []VariantInfo {
	var out []VariantInfo
	for _, v := range position.Variants() {
		out = append(out, VariantInfo{Name: v.Name, Pits: v.Pits, Seeds: v.Total(), Clockwise: v.Clockwise,
			Start: position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true}.String()})
	}
	return out
}

func (o *Interim) Solve(ctx context.Context, q SolveQuery) (any, error) {
	setup, err := position.Parse(q.Position)
	if err != nil {
		return nil, &BadRequest{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, q.Time)
	defer cancel()
	return o.solve(ctx, setup, q.All)
}

func (o *Interim) solve(ctx context.Context, setup position.Setup, all bool) (interimSolve, error) {
	v, p := setup.Variant, setup.Position
	out := interimSolve{Position: setup.String(), BestMoves: []any{}, PV: []any{}}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	if n == 1 && buf[0].IsPass() {
		after := setup
		after.Position = buf[0].Next
		res, err := o.solve(ctx, after, false)
		out.Value, out.Exact, out.BestMoves = buf[0].Value(p, res.Value), res.Exact, []any{"pass"}
		out.PV = append([]any{"pass"}, res.PV...)
		out.Moves = []interimMove{{Move: "pass", Value: out.Value, Exact: res.Exact}}
		out.Depth, out.Nodes, out.Seconds = res.Depth, res.Nodes, res.Seconds
		return out, err
	}
	s, release, err := o.solver(v)
	if err != nil {
		return out, err
	}
	defer release()
	res, err := s.Search(ctx, v, p)
	if err != nil {
		return out, err
	}
	out.GameOver, out.Value, out.Exact = res.GameOver, res.Value, res.Exact
	out.Depth, out.Nodes, out.Seconds = res.Depth, res.Nodes, res.Elapsed.Seconds()
	for _, pit := range res.BestMoves {
		out.BestMoves = append(out.BestMoves, moveJSON(pit))
	}
	for _, pit := range res.PV {
		out.PV = append(out.PV, moveJSON(pit))
	}
	if all {
		for _, m := range res.Moves {
			out.Moves = append(out.Moves, interimMove{Move: moveJSON(m.Move), Value: m.Value, Captured: m.Captured, Exact: m.Exact})
		}
	}
	return out, nil
}

func (o *Interim) Query(ctx context.Context, pos string) (any, error) {
	if _, err := position.Parse(pos); err != nil {
		return nil, &BadRequest{Err: err}
	}
	return nil, BadRequestf("%s: not in the tablebase (this server has none)", pos)
}

type interimPlayed struct {
	Player   int  `json:"player"`
	Move     any  `json:"move"`
	Captured int  `json:"captured"`
	Passed   bool `json:"passed,omitempty"`
}

type interimPlay struct {
	Position   string          `json:"position"`
	Passed     bool            `json:"passed,omitempty"`
	Moves      []interimPlayed `json:"moves"`
	GameOver   bool            `json:"game_over"`
	FinalScore *[2]int         `json:"final_score,omitempty"`
	End        string          `json:"end,omitempty"`
}

func (o *Interim) Play(ctx context.Context, pos, moves string) (any, error) {
	g, played, err := interimGame(pos, moves)
	if err != nil {
		return nil, err
	}
	res := interimPlay{Position: g.Setup.String(), Passed: g.StartPassed, Moves: played, GameOver: g.Over, End: g.End}
	if g.Over {
		res.FinalScore = &g.Final
	}
	return res, nil
}

// interimGame plays moves from pos.
func interimGame(pos, moves string) (*position.Game, []interimPlayed, error) {
	setup, err := position.Parse(pos)
	if err != nil {
		return nil, nil, &BadRequest{Err: err}
	}
	pits, err := position.ParseMoves([]string{moves})
	if err != nil {
		return nil, nil, &BadRequest{Err: err}
	}
	g := position.NewGame(setup)
	played := []interimPlayed{}
	for _, pit := range pits {
		p, err := g.Play(pit)
		if err != nil {
			return nil, nil, &BadRequest{Err: err}
		}
		played = append(played, interimPlayed{Player: p.Player, Move: moveJSON(pit), Captured: p.Captured, Passed: p.Passed})
	}
	return g, played, nil
}

type interimPly struct {
	Ply       int    `json:"ply"`
	Player    int    `json:"player"`
	Position  string `json:"position"`
	Move      any    `json:"move"`
	Captured  int    `json:"captured"`
	Value     int    `json:"value"`
	MoveValue int    `json:"move_value"`
	Loss      int    `json:"loss"`
	Exact     bool   `json:"exact"`
	BestMoves []any  `json:"best_moves"`
	Class     string `json:"class"`
}

type interimPlayer struct {
	Player     int     `json:"player"`
	Loss       int     `json:"loss"`
	Accuracy   float64 `json:"accuracy"`
	Best       int     `json:"best"`
	Inaccuracy int     `json:"inaccuracy"`
	Mistake    int     `json:"mistake"`
	Blunder    int     `json:"blunder"`
}

type interimAnalysis struct {
	Position   string          `json:"position"`
	Plies      []interimPly    `json:"plies"`
	Players    []interimPlayer `json:"players"`
	GameOver   bool            `json:"game_over"`
	FinalScore *[2]int         `json:"final_score,omitempty"`
	End        string          `json:"end,omitempty"`
}

func (o *Interim) Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error) {
	var out []any
	for i, line := range strings.Split(q.Games, "\n") {
		text, _, _ := strings.Cut(line, "#")
		start, moves := gameFields(text)
		if start == "" {
			continue
		}
		a, err := o.analyzeGame(ctx, start, strings.Join(moves, " "), q.PlyTime)
		if err != nil {
			return nil, BadRequestf("line %d: %v", i+1, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func (o *Interim) analyzeGame(ctx context.Context, start, moves string, plyTime time.Duration) (interimAnalysis, error) {
	g, _, err := interimGame(start, "")
	if err != nil {
		return interimAnalysis{}, err
	}
	pits, _ := position.ParseMoves([]string{moves})
	a := interimAnalysis{Position: g.Setup.String(), Plies: []interimPly{},
		Players: []interimPlayer{{Player: 1}, {Player: 2}}}
	for i, pit := range pits {
		before := g.Setup
		pctx, cancel := context.WithTimeout(ctx, plyTime)
		res, err := o.solve(pctx, before, true)
		cancel()
		if err != nil {
			return a, err
		}
		p, err := g.Play(pit)
		if err != nil {
			return a, BadRequestf("ply %d: %v", i+1, err)
		}
		ply := interimPly{Ply: i + 1, Player: p.Player, Position: before.String(), Move: moveJSON(pit),
			Captured: p.Captured, Value: res.Value, MoveValue: res.Value, Exact: res.Exact, BestMoves: res.BestMoves}
		for _, m := range res.Moves {
			if m.Move == moveJSON(pit) {
				ply.MoveValue, ply.Exact = m.Value, res.Exact && m.Exact
			}
		}
		ply.Loss = max(ply.Value-ply.MoveValue, 0)
		ply.Class = interimClass(ply.Loss)
		tally(&a.Players[p.Player-1], ply)
		a.Plies = append(a.Plies, ply)
	}
	for i := range a.Players {
		pl := &a.Players[i]
		if n := pl.Best + pl.Inaccuracy + pl.Mistake + pl.Blunder; n > 0 {
			pl.Accuracy = 100 * float64(pl.Best) / float64(n)
		}
	}
	a.GameOver, a.End = g.Over, g.End
	if g.Over {
		a.FinalScore = &g.Final
	}
	return a, nil
}

func interimClass(loss int) string {
	switch {
	case loss == 0:
		return "best"
	case loss <= 2:
		return "inaccuracy"
	case loss <= 5:
		return "mistake"
	}
	return "blunder"
}

func tally(pl *interimPlayer, ply interimPly) {
	pl.Loss += ply.Loss
	switch ply.Class {
	case "best":
		pl.Best++
	case "inaccuracy":
		pl.Inaccuracy++
	case "mistake":
		pl.Mistake++
	default:
		pl.Blunder++
	}
}
