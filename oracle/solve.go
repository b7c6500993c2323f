package oracle

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// SolveOptions are one Solve call's settings.
type SolveOptions struct {
	// AllMoves asks for every legal move's value when a search runs (an
	// answer from the tablebase always has them).
	AllMoves bool
	// History is the game's line before the position since its last
	// capture, oldest first (positions of other seed counts are ignored):
	// the position is valued with a return to any of them a repetition.
	History []position.Position
	// Time bounds the whole call, the in-memory tablebase build and the
	// principal variation included; 0 means no limit.
	Time time.Duration
	// Nodes bounds the search (see solver.Options.MaxNodes); 0 none.
	Nodes int64
	// Depth bounds the search's iterations, in plies; 0 none.
	Depth int
	// NoPV skips building the principal variation (analysis needs none).
	NoPV bool
	// Progress, when not nil, hears of each deeper iteration of the
	// search (solver.Request.Progress); a tablebase answer has none.
	Progress func(solver.Progress)
}

// Solve answers s: its value from the side to move, every move's value
// where known, the best moves and a principal variation. A position the
// tablebase holds (and without history) is answered by probing, with no
// search; any other is searched until its value is proven or a limit of
// opts (or ctx) stops it, which is not an error: the answer then says it
// is an estimate. Errors: a tablebase that cannot be opened (when
// Config.TBDir was given) or read, an invalid option.
func (o *Oracle) Solve(ctx context.Context, s position.Setup, opts SolveOptions) (Answer, error) {
	if opts.Time < 0 || opts.Nodes < 0 || opts.Depth < 0 {
		return Answer{}, fmt.Errorf("negative limit (time %v, nodes %d, depth %d)", opts.Time, opts.Nodes, opts.Depth)
	}
	start := time.Now()
	if opts.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Time)
		defer cancel()
	}
	a := o.newAnswer(s)
	err := o.solve(ctx, o.variant(s.Variant), s.Position, layerOf(opts.History, s.Position), opts, &a)
	a.Seconds = time.Since(start).Seconds()
	if a.Seconds > 0 {
		a.NodesPerSecond = float64(a.Nodes) / a.Seconds
	}
	return a, err
}

// layerOf returns the positions of history that p could repeat: those
// with p's seed count, p itself left out.
func layerOf(history []position.Position, p position.Position) []position.Position {
	var out []position.Position
	for _, q := range history {
		if q.Seeds() == p.Seeds() && q != p {
			out = append(out, q)
		}
	}
	return out
}

func (o *Oracle) solve(ctx context.Context, vs *variantState, p position.Position, history []position.Position, opts SolveOptions, a *Answer) error {
	v := vs.v
	moves := legalMoves(v, p)
	switch {
	case len(moves) == 0:
		gameOver(a, v, p)
		return nil
	case moves[0].IsPass():
		after := Answer{Player: position.Opponent(a.Player), Threads: a.Threads}
		if err := o.solve(ctx, vs, moves[0].Next, append(history, p), opts, &after); err != nil {
			return err
		}
		forcedPass(a, p, moves[0], after)
		return nil
	}
	if o.memPending(vs, p) {
		// Before waiting for the in-memory tablebase, try a short search
		// without it: small endgames are often proven at once.
		disk, err := o.diskTablebase(vs)
		if err != nil {
			return err
		}
		srv := served{}
		if disk != nil {
			srv = served{tb: disk, prober: disk}
		}
		quick := opts
		quick.Nodes = quickNodes
		if opts.Nodes > 0 {
			quick.Nodes = min(opts.Nodes, quickNodes)
		}
		try := *a
		if err := o.answer(ctx, vs, p, moves, history, quick, srv, &try); err != nil {
			return err
		}
		if try.Exact && try.BestMovesComplete && (!opts.AllMoves || allExact(try.Moves)) {
			*a = try
			return nil
		}
	}
	srv, err := o.tablebaseFor(ctx, vs, p)
	if err != nil {
		return err
	}
	return o.answer(ctx, vs, p, moves, history, opts, srv, a)
}

// quickNodes is the node budget of the search tried before waiting for an
// in-memory tablebase.
const quickNodes = 20_000

func allExact(moves []MoveValue) bool {
	for _, m := range moves {
		if !m.Exact {
			return false
		}
	}
	return true
}

// answer answers p, which has moves, with the tablebase srv: by probing
// when srv holds it and the game's history does not reach it, else by
// search.
func (o *Oracle) answer(ctx context.Context, vs *variantState, p position.Position, moves []position.Move, history []position.Position, opts SolveOptions, srv served, a *Answer) error {
	v := vs.v
	a.Tablebase, a.TablebaseSeeds, a.TablebaseInMemory = srv.tb != nil, max(srv.maxSeeds(), 0), srv.inMemory
	sv, err := o.lockSolver(vs, srv.tb)
	if err != nil {
		return err
	}
	defer vs.solverMu.Unlock()
	pv := &pvBuilder{ctx: ctx, v: v, srv: srv, solver: sv, off: opts.NoPV}
	if len(history) == 0 && p.Seeds() <= srv.maxSeeds() {
		return fromTablebase(a, srv, v, p, moves, pv)
	}
	res, err := sv.SearchRequest(ctx, v, p, solver.Request{History: history, AllMoves: opts.AllMoves,
		MaxNodes: uint64(opts.Nodes), MaxDepth: opts.Depth, Progress: opts.Progress})
	if err != nil {
		return err
	}
	if err := srv.readErr(p, v); err != nil {
		return err
	}
	fromSearch(a, res)
	if res.Exact && !opts.NoPV {
		a.PV, a.PVComplete = pv.build(p, history, preferred(moves, res.BestMoves))
	}
	return nil
}

// readErr is the tablebase's read error, if a probe during the search
// met one: the search's values would still be right, but the answer
// would not be what the tablebase says it is.
func (s served) readErr(p position.Position, v *position.Variant) error {
	if s.prober == nil || s.prober.Err() == nil {
		return nil
	}
	return s.probeErr(position.Format(v, p))
}

// fromSearch fills a from a search result.
func fromSearch(a *Answer, res solver.Result) {
	a.Source = SourceSearch
	a.Value, a.Exact, a.Lower, a.Upper = res.Value, res.Exact, res.Lower, res.Upper
	a.BestMovesComplete = res.Exact && res.BestMovesComplete
	a.Depth, a.Nodes, a.TablebaseHits, a.Stopped = res.Depth, res.Nodes, res.TablebaseHits, string(res.Stop)
	for _, m := range res.BestMoves {
		a.BestMoves = append(a.BestMoves, Move(m))
	}
	for _, m := range res.Moves {
		a.Moves = append(a.Moves, MoveValue{Move: Move(m.Move), Value: m.Value, Captured: m.Captured,
			Exact: m.Exact, Lower: m.Lower, Upper: m.Upper})
	}
	for _, m := range res.PV {
		a.PV = append(a.PV, Move(m))
	}
}

// fromTablebase answers p, which the tablebase holds and which starts its
// layer, by probing it and every child.
func fromTablebase(a *Answer, srv served, v *position.Variant, p position.Position, moves []position.Move, pv *pvBuilder) error {
	pos := position.Format(v, p)
	if _, ok := srv.tb.Probe(p); !ok {
		return srv.probeErr(pos)
	}
	for _, m := range moves {
		child, ok := srv.tb.Probe(m.Next)
		if !ok {
			return srv.probeErr(pos)
		}
		val := m.Value(p, child)
		a.Moves = append(a.Moves, MoveValue{Move: Move(m.Pit), Value: val, Captured: int(m.Captured),
			Exact: true, Lower: val, Upper: val})
	}
	a.Value, a.BestMoves = bestOf(a.Moves)
	a.Exact, a.Lower, a.Upper, a.BestMovesComplete = true, a.Value, a.Value, true
	a.Stopped, a.Source = string(solver.StopExact), SourceTablebase
	a.PV, a.PVComplete = pv.build(p, nil, -1)
	return nil
}

// Query answers s from the tablebase on disk alone, without search: its
// value, every move's value, the best moves and a principal variation by
// probing. Errors: ErrNoTablebase (wrapped) when there is none for the
// variant, *NotInTablebaseError when s has more seeds than it holds, and
// read errors.
func (o *Oracle) Query(ctx context.Context, s position.Setup) (Answer, error) {
	vs := o.variant(s.Variant)
	a := o.newAnswer(s)
	err := o.query(ctx, vs, s.Position, &a)
	return a, err
}

func (o *Oracle) query(ctx context.Context, vs *variantState, p position.Position, a *Answer) error {
	v := vs.v
	moves := legalMoves(v, p)
	switch {
	case len(moves) == 0:
		gameOver(a, v, p)
		return nil
	case moves[0].IsPass():
		after := Answer{Player: position.Opponent(a.Player)}
		if err := o.query(ctx, vs, moves[0].Next, &after); err != nil {
			var nit *NotInTablebaseError
			if errors.As(err, &nit) {
				nit.Position = a.Position
			}
			return err
		}
		forcedPass(a, p, moves[0], after)
		return nil
	}
	disk, err := o.diskTablebase(vs)
	if err != nil {
		return err
	}
	if disk == nil && o.cfg.TBDir == "" {
		return fmt.Errorf("%w: tablebases are off", ErrNoTablebase)
	}
	if disk == nil {
		return tablebase.Missing(o.cfg.TBDir, v)
	}
	if p.Seeds() > disk.MaxSeeds() {
		return &NotInTablebaseError{Position: a.Position, Seeds: p.Seeds(), MaxSeeds: disk.MaxSeeds()}
	}
	srv := served{tb: disk, prober: disk}
	a.Tablebase, a.TablebaseSeeds = true, disk.MaxSeeds()
	return fromTablebase(a, srv, v, p, moves, &pvBuilder{ctx: ctx, v: v, srv: srv})
}
