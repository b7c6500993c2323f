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
	// AllMoves asks for every legal move's value (Answer.Moves), whether
	// the answer comes from a search or the tablebase; without it neither
	// has them (a forced pass has its one move), so that an answer's form
	// does not depend on where it came from.
	AllMoves bool
	// Lines asks for every line's value too (Answer.Lines): each extra
	// move followed by each continuation, solved in turn within the same
	// limits. It implies AllMoves.
	Lines bool
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
	// OneBest stops the search once the value is proven, with one move
	// proven to reach it (solver.Request.OneBest): the proof Irving's
	// solver gives, without deciding whether the other moves reach the
	// value too. Answer.BestMovesComplete is then false unless they were
	// decided on the way. Ignored with AllMoves, and by an answer from the
	// tablebase, which has every move's value at once.
	OneBest bool
	// NoPV skips building the principal variation (analysis needs none).
	NoPV bool
	// Progress, when not nil, hears of each deeper iteration of the
	// search (solver.Request.Progress); a tablebase answer has none.
	Progress func(solver.Progress)
	// Reach lifts Time for a start position whose proof is within reach
	// (ReachOf): it is searched until proven (Nodes, Depth and ctx still
	// stop it), with the in-memory tablebase of Reach.MemTBSeeds unless
	// one on disk holds as many. A default solve asks for it, so that a
	// start proven in seconds is proven rather than left an estimate by a
	// time limit meant for positions whose proof is out of reach. Ignored
	// unless Config.MemTBSeeds is MemTBAuto and Config.NoTB is false; an
	// in-memory tablebase already built for the variant (by an earlier
	// call) serves as it is.
	Reach bool

	reachSeeds int // the in-memory tablebase's seed count under Reach, for any position; 0: none
	// wait bounds a wait for the variant's solver while another call's
	// search holds it: Solve's ctx, without Time (see Solve).
	wait context.Context
}

// Solve answers s: its value from the side to move, every move's value
// where known, the best moves and a principal variation. A position the
// tablebase holds (and without history) is answered by probing, with no
// search; any other is searched until its value is proven or a limit of
// opts (or ctx) stops it, which is not an error: the answer then says it
// is an estimate. A call that needs the variant's solver while another
// call's search holds it waits for that search; ctx bounds the wait, but
// opts.Time does not (an expired limit still gets the first iteration),
// as a limit gives an estimate, never an error, and no answer comes
// without the solver. Errors: ctx's error, wrapped, when ctx ends during
// that wait; a tablebase that cannot be opened (when Config.TBDir was
// given) or read; an invalid option.
func (o *Oracle) Solve(ctx context.Context, s position.Setup, opts SolveOptions) (Answer, error) {
	if opts.Time < 0 || opts.Nodes < 0 || opts.Depth < 0 {
		return Answer{}, fmt.Errorf("negative limit (time %v, nodes %d, depth %d)", opts.Time, opts.Nodes, opts.Depth)
	}
	start := time.Now()
	opts.wait = ctx
	if r, ok := o.reachOf(s, opts); ok {
		opts.Time, opts.reachSeeds = 0, r.MemTBSeeds
	}
	if opts.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Time)
		defer cancel()
	}
	a := o.newAnswer(s)
	opts.AllMoves = opts.AllMoves || opts.Lines
	vs, history := o.variant(s.Variant), layerOf(opts.History, s.Position)
	err := o.solve(ctx, vs, s.Position, history, opts, &a)
	if err == nil && opts.Lines {
		err = o.addLines(ctx, vs, s.Position, history, opts, &a)
	}
	a.Seconds = time.Since(start).Seconds()
	if a.Seconds > 0 {
		a.NodesPerSecond = float64(a.Nodes) / a.Seconds
	}
	if err == nil {
		addResult(s, &a)
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
	if settled, err := settle(a, v, p, moves, func(next position.Position, after *Answer) error {
		return o.solve(ctx, vs, next, append(history, p), opts, after)
	}); settled {
		return err
	}
	if o.memPending(vs, p, opts.reachSeeds) {
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
		if try.Exact && (try.BestMovesComplete || opts.OneBest) && (!opts.AllMoves || allExact(try.Moves)) {
			*a = try
			return nil
		}
	}
	srv, err := o.tablebaseFor(ctx, vs, p, opts.reachSeeds)
	if err != nil {
		return err
	}
	return o.answer(ctx, vs, p, moves, history, opts, srv, a)
}

// reachOf is ReachOf for s when opts.Reach applies (SolveOptions.Reach).
func (o *Oracle) reachOf(s position.Setup, opts SolveOptions) (Reach, bool) {
	if !opts.Reach || o.cfg.NoTB || o.cfg.MemTBSeeds != MemTBAuto {
		return Reach{}, false
	}
	return ReachOf(s, tablebase.DefaultMemBytes())
}

// quickNodes is the node budget of the search tried before waiting for an
// in-memory tablebase.
const quickNodes = 20_000

func allSolverExact(moves []solver.MoveValue) bool {
	for _, m := range moves {
		if !m.Exact {
			return false
		}
	}
	return true
}

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
	wait := opts.wait
	if wait == nil { // a call that did not come through Solve (none today)
		wait = ctx
	}
	sv, err := o.lockSolver(wait, vs, srv.tb)
	if err != nil {
		return err
	}
	defer vs.releaseSolver()
	pv := &pvBuilder{ctx: ctx, v: v, srv: srv, solver: sv, off: opts.NoPV, oneBest: opts.OneBest}
	if len(history) == 0 && p.Seeds() <= srv.maxSeeds() {
		err := fromTablebase(a, srv, v, p, moves, pv)
		if !opts.AllMoves {
			a.Moves = nil // as a search's answer has none (SolveOptions.AllMoves)
		}
		return err
	}
	req := solver.Request{History: history, AllMoves: opts.AllMoves, OneBest: opts.OneBest,
		MaxNodes: uint64(opts.Nodes), MaxDepth: opts.Depth, Progress: opts.Progress}
	if !o.cfg.Play && sv.Options().EstimateTablebase != nil && v.Repetition != position.RepetitionNobody {
		// The twin's tablebase estimates (oware's for oware-own) end the
		// lines that a search could prove: try a short search without them
		// first, as a small endgame is proven at once; play wants the
		// estimates only.
		quick := req
		quick.NoEstimateTablebase, quick.Progress = true, nil
		quick.MaxNodes = quickNodes
		if opts.Nodes > 0 {
			quick.MaxNodes = min(uint64(opts.Nodes), quickNodes)
		}
		res, err := sv.SearchRequest(ctx, v, p, quick)
		if err != nil {
			return err
		}
		if res.Exact && (res.BestMovesComplete || opts.OneBest) && (!opts.AllMoves || allSolverExact(res.Moves)) {
			fromSearch(a, res)
			if !opts.NoPV {
				a.PV, a.PVComplete = pv.build(p, history, preferred(moves, res.BestMoves))
			}
			return nil
		}
	}
	res, err := sv.SearchRequest(ctx, v, p, req)
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
	if d, ok := srv.tb.(distancer); ok {
		if _, plies, ok := d.ProbeDistance(p); ok {
			a.Distance = &plies
		}
	}
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
	err := o.probe(ctx, vs, s.Position, &a, func(p position.Position) (served, error) {
		disk, err := o.diskOrMissing(vs)
		switch {
		case err != nil:
			return served{}, err
		case p.Seeds() > disk.MaxSeeds():
			return served{}, &NotInTablebaseError{Position: a.Position, Seeds: p.Seeds(), MaxSeeds: disk.MaxSeeds()}
		}
		return served{tb: disk, prober: disk}, nil
	})
	if err == nil {
		addResult(s, &a)
	}
	return a, err
}

// DiskTablebase reports the tablebase on disk that serves v: the seeds
// of its largest complete layer, or why there is none, the error Query
// meets: ErrNoTablebase (wrapped) when tablebases are off, a
// *tablebase.MissingError when the directory (the default one included)
// holds none of v's layers, or the error opening it.
func (o *Oracle) DiskTablebase(v *position.Variant) (maxSeeds int, err error) {
	disk, err := o.diskOrMissing(o.variant(v))
	if err != nil {
		return 0, err
	}
	return disk.MaxSeeds(), nil
}

// diskOrMissing is v's tablebase on disk, or the error that says why
// there is none (DiskTablebase).
func (o *Oracle) diskOrMissing(vs *variantState) (*tablebase.Prober, error) {
	if err := tablebase.Buildable(vs.v); err != nil {
		return nil, err // no tablebase can hold its values
	}
	disk, err := o.diskTablebase(vs)
	switch {
	case err != nil:
		return nil, err
	case disk == nil && o.cfg.TBDir == "":
		return nil, fmt.Errorf("%w: tablebases are off", ErrNoTablebase)
	case disk == nil:
		return nil, tablebase.Missing(o.cfg.TBDir, vs.v)
	}
	return disk, nil
}

// Lookup answers s at once when a tablebase ready now holds it (the one
// on disk, or the in-memory one once built) or the game is over: by
// probing, as Query does, without search, without waiting for the
// variant's solver (a search in flight holds it) or for a build, and
// without starting one. ok is false when no ready tablebase holds s; the
// caller then searches (Solve). The answer is Solve's for s without
// history, its principal variation built from the tablebase alone.
// Errors are read errors of a tablebase that holds s.
func (o *Oracle) Lookup(ctx context.Context, s position.Setup) (a Answer, ok bool, err error) {
	start := time.Now()
	vs := o.variant(s.Variant)
	a = o.newAnswer(s)
	err = o.probe(ctx, vs, s.Position, &a, func(p position.Position) (served, error) {
		if srv, ok := o.readyTablebase(vs, p); ok {
			return srv, nil
		}
		return served{}, errNotReady
	})
	a.Seconds = time.Since(start).Seconds()
	if errors.Is(err, errNotReady) {
		return Answer{}, false, nil
	}
	if err == nil {
		addResult(s, &a)
	}
	return a, err == nil, err
}

// errNotReady: no tablebase ready now holds the position (Lookup).
var errNotReady = errors.New("no tablebase ready holds the position")

// readyTablebase returns the tablebase that holds p now, if any: the one
// on disk, else the in-memory one if its build is done.
func (o *Oracle) readyTablebase(vs *variantState, p position.Position) (served, bool) {
	if disk, err := o.diskTablebase(vs); err == nil && disk != nil && p.Seeds() <= disk.MaxSeeds() {
		return served{tb: disk, prober: disk}, true
	}
	vs.buildMu.Lock()
	built := vs.memBuilt
	vs.buildMu.Unlock()
	if built == nil {
		return served{}, false
	}
	select {
	case <-built:
	default:
		return served{}, false // still building
	}
	if vs.memErr != nil || vs.mem == nil || p.Seeds() > vs.mem.MaxSeeds() {
		return served{}, false
	}
	return served{tb: vs.mem, inMemory: true}, true
}

// probe answers p from the tablebase serving returns for it, without
// search: a finished game by the rules, a forced pass from the position
// after it, any other position by probing it and its children.
func (o *Oracle) probe(ctx context.Context, vs *variantState, p position.Position, a *Answer, serving func(position.Position) (served, error)) error {
	v := vs.v
	moves := legalMoves(v, p)
	if settled, err := settle(a, v, p, moves, func(next position.Position, after *Answer) error {
		return o.probe(ctx, vs, next, after, serving)
	}); settled {
		var nit *NotInTablebaseError
		if errors.As(err, &nit) {
			nit.Position = a.Position // the position asked, not the one after the pass
		}
		return err
	}
	srv, err := serving(p)
	if err != nil {
		return err
	}
	a.Tablebase, a.TablebaseSeeds, a.TablebaseInMemory = true, srv.maxSeeds(), srv.inMemory
	return fromTablebase(a, srv, v, p, moves, &pvBuilder{ctx: ctx, v: v, srv: srv})
}
