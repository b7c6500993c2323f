package uci

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// goParams are the arguments of a go command.
type goParams struct {
	depth, movesToGo int
	nodes            int64
	moveTime         time.Duration
	time, inc        [2]time.Duration // wtime/btime and winc/binc: South's, North's
	clock            [2]bool          // wtime/btime given
	infinite, ponder bool
}

// parseGo reads go's arguments; an unknown word or a bad number is an
// error.
func parseGo(args []string) (goParams, error) {
	var g goParams
	for i := 0; i < len(args); i++ {
		word := args[i]
		switch word {
		case "infinite":
			g.infinite = true
			continue
		case "ponder":
			g.ponder = true
			continue
		}
		if i+1 == len(args) {
			return g, fmt.Errorf("%s without a number", word)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return g, fmt.Errorf("%s %q: want a whole number, 0 or more", word, args[i+1])
		}
		ms := time.Duration(min(n, maxMillis)) * time.Millisecond
		switch word {
		case "depth":
			g.depth = int(min(n, solver.MaxPly))
		case "nodes":
			g.nodes = n
		case "movetime":
			g.moveTime = ms
		case "movestogo":
			g.movesToGo = int(min(n, 1000))
		case "wtime":
			g.time[0], g.clock[0] = ms, true
		case "btime":
			g.time[1], g.clock[1] = ms, true
		case "winc":
			g.inc[0] = ms
		case "binc":
			g.inc[1] = ms
		default:
			return g, fmt.Errorf("%q is not a go argument", word)
		}
		i++
	}
	return g, nil
}

// Time allocation.
const (
	// maxMillis caps a time argument (a year), so that a huge one cannot
	// overflow a time.Duration.
	maxMillis = 365 * 24 * 3600 * 1000
	// DefaultMoveTime is the time of a go without limits (samurai's
	// default too).
	DefaultMoveTime = 3600 * time.Millisecond
	// defaultMovesToGo is how many more moves a clock is assumed to
	// cover when movestogo is not given.
	defaultMovesToGo = 20
	// minBudget is the least time any timed search gets.
	minBudget = 10 * time.Millisecond
	// maxOverhead is what is kept back from a move's time for answering:
	// starting the search, the principal variation, the pipe.
	maxOverhead = 30 * time.Millisecond
)

// budget returns the search time for the side to move (0 South, 1 North)
// and whether the search is timed at all: movetime less the overhead; on a
// clock, an equal share of the time left over the moves to go plus three
// quarters of the increment, never more than half the time left; with only
// depth or nodes, no time limit; with nothing, DefaultMoveTime.
func (g goParams) budget(side int) (time.Duration, bool) {
	overhead := func(t time.Duration) time.Duration { return min(t/10, maxOverhead) }
	switch {
	case g.moveTime > 0:
		return max(g.moveTime-overhead(g.moveTime), minBudget), true
	case g.clock[side]:
		left := g.time[side]
		moves := g.movesToGo
		if moves == 0 {
			moves = defaultMovesToGo
		}
		t := left/time.Duration(moves) + g.inc[side]*3/4
		t = min(t, left/2)
		return max(t-overhead(t), minBudget), true
	case g.depth > 0 || g.nodes > 0:
		return 0, false
	}
	return DefaultMoveTime, true
}

// running is one search: started by go, ended by its limits or by stop.
type running struct {
	cancel  context.CancelFunc
	done    chan struct{} // closed once bestmove is sent
	release chan struct{} // closed by stop or ponderhit: a held bestmove may go
	once    sync.Once
	budget  time.Duration // for ponderhit
	timed   bool
}

func (r *running) let() { r.once.Do(func() { close(r.release) }) }

// searching reports whether a search is under way (its bestmove not
// yet being sent).
func (e *Engine) searching() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.run != nil
}

func (e *Engine) cmdGo(args []string) {
	if e.searching() {
		e.debugf("go: already searching (send stop first)")
		return
	}
	g, err := parseGo(args)
	if err != nil {
		e.debugf("go: %v", err)
		return
	}
	l := e.line
	budget, timed := g.budget(int(l.game.Position.Side))
	held := g.infinite || g.ponder
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan struct{}), release: make(chan struct{}), budget: budget, timed: timed}
	if !held {
		r.let()
	}
	if !l.game.Over {
		// Setup before the clock starts: the budget below counts from the
		// search's start, and the table and tablebase must not eat it.
		e.warmUp()
	}
	or, err := e.oracle()
	if l.game.Over || err != nil {
		if err != nil {
			e.debugf("%v", err)
		} else {
			e.debugf("the game is over (%s)", l.game.End)
		}
		e.mu.Lock()
		e.run = r
		e.mu.Unlock()
		go e.answerAt(r, fallbackMove(l)) // held, like any search, under infinite or ponder
		return
	}
	opts := oracle.SolveOptions{Depth: g.depth, Nodes: g.nodes, Progress: e.progressFunc(l)}
	switch {
	case g.infinite:
		opts.Depth, opts.Nodes = 0, 0
	case timed && !g.ponder:
		// A timed move needs the move, not a proven line: the oracle's
		// principal variation of an exact value re-searches each step
		// (up to 300,000 nodes a ply), which spent whole budgets after
		// the proof; the search's own line serves info pv and ponder.
		opts.Time, opts.NoPV = budget, true
	}
	e.mu.Lock()
	e.run = r
	e.mu.Unlock()
	if e.beforeSearch != nil {
		e.beforeSearch()
	}
	go e.search(ctx, or, l, opts, r)
}

// search runs one search and sends its result: the final info line, then
// bestmove once the search may answer (at once, or after stop or
// ponderhit when it was infinite or pondering).
func (e *Engine) search(ctx context.Context, or *oracle.Oracle, l *line, opts oracle.SolveOptions, r *running) {
	defer close(r.done)
	defer r.cancel()
	a, err := or.Reply(ctx, l.game, opts)
	best := fallbackMove(l)
	if err != nil {
		e.out.send("info string error: " + err.Error())
	} else {
		e.out.send(infoLine(l, a))
		if a.Exact {
			e.out.send(fmt.Sprintf("info string exact value %d%s", a.Value, resultWords(a.Result)))
		}
		best = answerMove(l, a)
	}
	<-r.release
	e.finish(r)
	if ponder := ponderMove(l, a, best); err == nil && ponder != "" {
		e.out.send("bestmove " + best + " ponder " + ponder)
		return
	}
	e.out.send("bestmove " + best)
}

// finish marks r's search as over just before its bestmove goes out: a
// GUI may send its next go the instant it reads that line, and it must not
// find the engine still searching.
func (e *Engine) finish(r *running) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.run == r {
		e.run = nil
	}
	e.last = r
}

// answerAt sends bestmove move once r may answer: a search that has
// nothing to search.
func (e *Engine) answerAt(r *running, move string) {
	defer close(r.done)
	defer r.cancel()
	<-r.release
	e.finish(r)
	e.out.send("bestmove " + move)
}

// cmdStop is the stop command: stop, saying under debug when there was no
// search to stop.
func (e *Engine) cmdStop(_ []string) {
	if !e.stopSearch() {
		e.debugf("stop: not searching")
	}
}

// stopSearch stops the search under way, if any, and waits for its
// bestmove; it reports whether there was one.
func (e *Engine) stopSearch() bool {
	e.mu.Lock()
	r, last := e.run, e.last
	e.run = nil
	e.mu.Unlock()
	if r == nil {
		if last != nil {
			<-last.done // a bestmove being sent goes out before anything after stop
		}
		return false
	}
	r.cancel()
	r.let()
	<-r.done
	return true
}

// wait blocks until the search under way, if any, has sent its bestmove
// (a held one waits for stop, so wait does not return on an infinite
// search).
func (e *Engine) wait() {
	e.mu.Lock()
	r := e.run
	if r == nil {
		r = e.last
	}
	e.mu.Unlock()
	if r != nil {
		select {
		case <-r.release:
			<-r.done
		default:
			e.debugf("wait: the search is infinite or pondering; send stop")
		}
	}
}

// cmdPonderHit turns a ponder search into a normal one: its time starts
// now, from the limits the go ponder command gave.
func (e *Engine) cmdPonderHit(_ []string) {
	e.mu.Lock()
	r := e.run
	e.mu.Unlock()
	if r == nil {
		e.debugf("ponderhit: not pondering")
		return
	}
	if r.timed {
		time.AfterFunc(r.budget, r.cancel)
	}
	r.let()
}

// progressFunc reports each deeper iteration of a search as an info line.
func (e *Engine) progressFunc(l *line) func(solver.Progress) {
	p := l.game.Position
	return func(pr solver.Progress) {
		exact := pr.Lower == pr.Upper
		text := fmt.Sprintf("info depth %d score cp %d", pr.Depth, centipawns(l.game.Setup, pr.Value, exact))
		if pr.Nodes > 0 { // the threads add their counts in batches
			text += fmt.Sprintf(" nodes %d", pr.Nodes)
		}
		text += fmt.Sprintf(" time %d", pr.Elapsed.Milliseconds())
		if m := position.MoveLetter(p, pr.BestMove); m != "" {
			text += " pv " + m
		}
		e.out.send(text)
	}
}

// infoLine is the last info line of a search: depth, score, nodes, time,
// and the principal variation.
func infoLine(l *line, a oracle.Answer) string {
	text := fmt.Sprintf("info depth %d score cp %d nodes %d time %d", a.Depth,
		centipawns(l.game.Setup, a.Value, a.Exact), a.Nodes, int64(a.Seconds*1000))
	if pv := position.Letters(l.game.Variant, l.game.Position, pits(a.PV)); pv != "" {
		text += " pv " + pv
	}
	return text
}

// WinScore is the score of a proven win, as Aalina reports one (its
// infinity, 1000, at 2.5 centipawns a unit).
const WinScore = 2500

// centipawns converts a value (seeds, side to move) to the dialect's
// score: an estimate at 100 a seed, kept inside ±(WinScore-1); a proven
// value as the game's result it decides, given the seeds captured so far:
// +WinScore a win, -WinScore a loss, 0 a draw (the seeds themselves go in
// an `info string exact value` line).
func centipawns(s position.Setup, value int, exact bool) int {
	if !exact {
		return max(-(WinScore - 1), min(WinScore-1, 100*value))
	}
	side := s.Position.Side
	lead := s.Captured[side] - s.Captured[1-side] + value
	switch {
	case lead > 0:
		return WinScore
	case lead < 0:
		return -WinScore
	}
	return 0
}

func pits(moves []oracle.Move) []int {
	out := make([]int, len(moves))
	for i, m := range moves {
		out[i] = int(m)
	}
	return out
}

// answerMove is the move to play from a search answer (Answer.Choice).
func answerMove(l *line, a oracle.Answer) string {
	if m, ok := a.Choice(); ok && m != oracle.Pass {
		return position.MoveLetter(l.game.Position, int(m))
	}
	return fallbackMove(l)
}

// ponderMove is the reply the principal variation expects to best, or "".
func ponderMove(l *line, a oracle.Answer, best string) string {
	pv := position.Letters(l.game.Variant, l.game.Position, pits(a.PV))
	if len(pv) < 2 || pv[:1] != best {
		return ""
	}
	return pv[1:2]
}

// fallbackMove is the first legal move, the answer when no search could
// run, or the null move when the game is over (its end rules, the 25-seed
// stop among them, decide: the board may still have moves).
func fallbackMove(l *line) string {
	if l.game.Over {
		return NullMove
	}
	var buf [position.MaxPits]position.Move
	p := l.game.Position
	if n := l.game.Variant.Moves(p, &buf); n > 0 {
		return position.MoveLetter(p, int(buf[0].Pit))
	}
	return NullMove
}

// resultWords tells an exact value as the game's end, for the info string
// that gives the value: ", final score 23-25 with best play: player 2
// wins by 2" (oracle.Result; player 1 is South).
func resultWords(r *oracle.Result) string {
	if r == nil || !r.CapturesKnown {
		return ""
	}
	who := "a draw"
	if r.Winner != 0 {
		who = fmt.Sprintf("player %d wins by %d", r.Winner, r.Margin)
	}
	return fmt.Sprintf(", final score %d-%d with best play: %s", r.FinalScore[0], r.FinalScore[1], who)
}
