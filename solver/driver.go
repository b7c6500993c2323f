package solver

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/mancala-solver/mancala/position"
)

// search is the state of one Search call that the threads share: the root,
// the table, the stop flag, and proven bounds on every root move's value.
// The position's value is the largest move value, so the root's proven
// bounds are the largest of the moves' (rootBounds).
type search struct {
	v     *position.Variant
	root  position.Position
	moves []position.Move
	opts  Options
	table *table
	tb    Tablebase
	// etb is Options.EstimateTablebase where it serves (pol.etbMax >= 0).
	etb Tablebase
	// pol is the table rules of the search's mode (policy.go).
	pol policy
	// busy marks the nodes the threads are in (ABDADA, busy.go); nil
	// with one thread. rootKeys are the root moves' children's keys.
	busy     *busyTable
	rootKeys []uint64
	// repeats is v.CanRepeat(): false for kalah, where no position recurs
	// and every node is history-free.
	repeats bool
	// neutral: a repetition is worth 0 (position.RepetitionNobody), so
	// fact 2 of doc.go holds; false for oware-own, whose repetitions give
	// each player their own row.
	neutral bool
	// parity: the search rounds its horizon estimates to the parity of
	// the seeds on the board (parityEstimate), which every value has
	// (position.Variant.SeedParity). Only in kalah: oware-own, where the
	// rule holds too, also takes estimates from its twin's tablebase,
	// whose values lack it, and its estimates were not measured rounded.
	parity  bool
	salt    uint64
	weights *[nFeatures]int32 // the tuned estimate's, fixed point; nil: EstimateRows
	lo, hi  []atomic.Int32    // proven bounds on each root move's value
	// oneBest: stop once the value is proven (Request.OneBest).
	oneBest bool
	// line holds the game's positions before the root in its layer
	// (Request.History); rootHistory is the line hash of the root's
	// children: the XOR of pathHash over line and the root.
	line        []position.Position
	rootHistory uint64

	stop       atomic.Bool
	stopReason atomic.Pointer[StopReason]
	// epoch counts settling events (the root value proven, a move's value
	// decided); a thread whose epoch is stale abandons its probe to look
	// at what is left to do.
	epoch atomic.Uint64
	// finished holds the last null-window probes the threads finished,
	// with their results (worker.adopt), the latest at
	// finished[latest%finishedProbes].
	finished [finishedProbes]atomic.Uint64
	latest   atomic.Uint32
	rootDone atomic.Bool
	settled  []atomic.Bool
	nodes    atomic.Uint64
	// threadNodes is each thread's node count, written as it returns.
	threadNodes []uint64
	tbHits      atomic.Uint64
	iterMu      sync.Mutex
	deepest     iteration // deepest completed iteration of any thread
	haveDepth   bool
	progress    func(Progress) // Request.Progress, called under iterMu
	start       time.Time
	// deadline is the context's deadline (zero: none), which the threads
	// check themselves as they poll (worker.poll), with now.
	deadline time.Time
	now      func() time.Time

	// knownPV is the longest principal variation read from the table as
	// iterations completed that the later ones agree with (each later
	// line a prefix of it): a long search overwrites the table's entries
	// of the line, so that a line read at its end alone can shrink to one
	// move (issue 43, defect 8: 25 moves at 10 s, one at 60 s).
	knownPV []int
}

// iteration is one completed depth of iterative deepening.
type iteration struct {
	depth  int
	value  int   // the depth's value (an estimate unless proven)
	move   int   // index into moves of its best move
	values []int // each move's value at that depth (AllMoves only)
}

func newSearch(s *Solver, v *position.Variant, p position.Position, moves []position.Move, opts Options, line []position.Position) *search {
	sr := &search{v: v, root: p, moves: slices.Clone(moves), opts: opts, table: s.table,
		tb: opts.Tablebase, etb: opts.EstimateTablebase, salt: variantSalt(v), repeats: v.CanRepeat(),
		neutral: v.Repetition == position.RepetitionNobody, parity: v.SeedParity() && !v.CanRepeat()}
	if !sr.repeats {
		line = nil
	}
	if opts.Estimate.tunes(v) {
		sr.weights = s.weights
		if sr.weights == nil {
			sr.weights = committedWeights(v)
		}
	}
	for _, q := range line {
		// Only positions of the root's layer can repeat (seeds only leave
		// the board); each counts once in the line hash.
		if q.Seeds() == p.Seeds() && q != p && !slices.Contains(sr.line, q) {
			sr.line = append(sr.line, q)
			sr.rootHistory ^= pathHash(q, boardHash(q, sr.salt))
		}
	}
	sr.rootHistory ^= pathHash(p, boardHash(p, sr.salt))
	sr.pol = newPolicy(opts, sr.neutral)
	sr.pol.proofToEnd(sr.repeats)
	if opts.Threads > 1 {
		sr.busy = new(busyTable)
		for i := range sr.moves {
			sr.rootKeys = append(sr.rootKeys, childKey(v, &sr.moves[i], sr.salt, sr.rootHistory))
		}
	}
	sr.lo = make([]atomic.Int32, len(moves))
	sr.hi = make([]atomic.Int32, len(moves))
	sr.settled = make([]atomic.Bool, len(moves))
	for i, m := range sr.moves {
		c, s := int32(m.Captured), int32(m.Next.Seeds())
		sr.lo[i].Store(c - s)
		sr.hi[i].Store(c + s)
	}
	return sr
}

// run searches with opts.Threads goroutines until the goal is met or a
// limit stops them. Thread 0 is the main thread: when it returns, the
// others are stopped.
func (s *search) run(ctx context.Context) {
	s.deadline, _ = ctx.Deadline()
	stopOnDone := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.halt(StopTime)
		} else {
			s.halt(StopCanceled)
		}
	})
	defer stopOnDone()
	s.threadNodes = make([]uint64, s.opts.Threads)
	var g errgroup.Group
	for id := 0; id < s.opts.Threads; id++ {
		w := newWorker(s, id)
		g.Go(func() error {
			w.run()
			w.flush()
			s.threadNodes[id] = w.nodes
			if id == 0 {
				s.halt(StopDepth)
			}
			return nil
		})
	}
	_ = g.Wait() // workers return no errors
}

// proving reports whether the search is a proof: no time or node limit
// will stop it before its value is proven, and it is not for play. Only
// a proof skips the estimates of deeper iterations (nextDepth), which a
// limited search reports.
func (s *search) proving() bool {
	return !s.opts.Play && s.deadline.IsZero() && s.opts.MaxNodes == 0
}

// onLine reports whether p is one of the game's positions before the root
// in its layer: reaching it again is a repetition.
func (s *search) onLine(p position.Position) bool {
	return len(s.line) > 0 && slices.Contains(s.line, p)
}

// classifying reports whether the search is past proving the value and is
// deciding which moves reach it. That phase gets a node budget of its own
// (as many nodes again), so that how the threads shared the first budget
// seldom decides which best moves are found.
func (s *search) classifying() bool { return !s.opts.AllMoves && s.rootDone.Load() }

// halt stops every thread; the first reason given is the one reported.
func (s *search) halt(reason StopReason) {
	s.stopReason.CompareAndSwap(nil, &reason)
	s.stop.Store(true)
}

// record keeps it if it is the deepest completed iteration so far.
func (s *search) record(it iteration) {
	s.iterMu.Lock()
	defer s.iterMu.Unlock()
	if !s.haveDepth || it.depth > s.deepest.depth {
		s.deepest, s.haveDepth = it, true
		if pv := s.principalVariation(it.move); !isPrefix(pv, s.knownPV) {
			s.knownPV = pv
		}
		if s.progress != nil {
			lo, hi := s.rootBounds()
			s.progress(Progress{Depth: it.depth, Value: min(max(it.value, lo), hi), BestMove: int(s.moves[it.move].Pit),
				Lower: lo, Upper: hi, Nodes: s.nodes.Load(), Elapsed: time.Since(s.start)})
		}
	}
}

// deepestDepth is the depth of the deepest completed iteration so far (1
// before any).
func (s *search) deepestDepth() int {
	s.iterMu.Lock()
	defer s.iterMu.Unlock()
	return max(s.deepest.depth, 1)
}

// raiseLo and lowerHi tighten the proven bounds of root move i.
func (s *search) raiseLo(i, v int) {
	for old := s.lo[i].Load(); int32(v) > old; old = s.lo[i].Load() {
		if s.lo[i].CompareAndSwap(old, int32(v)) {
			return
		}
	}
}

func (s *search) lowerHi(i, v int) {
	for old := s.hi[i].Load(); int32(v) < old; old = s.hi[i].Load() {
		if s.hi[i].CompareAndSwap(old, int32(v)) {
			return
		}
	}
}

// moveBounds returns the proven bounds of root move i.
func (s *search) moveBounds(i int) (lo, hi int) {
	return int(s.lo[i].Load()), int(s.hi[i].Load())
}

// rootBounds returns proven bounds on the position's value: the largest
// proven lower and upper bounds of its moves.
func (s *search) rootBounds() (lo, hi int) {
	lo, hi = -1<<20, -1<<20
	for i := range s.moves {
		l, h := s.moveBounds(i)
		lo, hi = max(lo, l), max(hi, h)
	}
	return lo, hi
}

// rootExact reports whether the position's value is proven, and marks the
// event for the other threads the first time.
func (s *search) rootExact() bool {
	if s.rootDone.Load() {
		return true
	}
	if lo, hi := s.rootBounds(); lo != hi {
		return false
	}
	if s.rootDone.CompareAndSwap(false, true) {
		s.epoch.Add(1)
	}
	return true
}

// moveSettled reports whether root move i needs no more search: its value
// is proven (AllMoves), or it is proven to reach or to miss the proven
// value of the position. It marks the event the first time.
func (s *search) moveSettled(i int) bool {
	if s.settled[i].Load() {
		return true
	}
	lo, hi := s.moveBounds(i)
	done := lo == hi
	if !s.opts.AllMoves {
		v, _ := s.rootBounds()
		done = lo >= v || hi < v
	}
	if done && s.settled[i].CompareAndSwap(false, true) {
		s.epoch.Add(1)
	}
	return done
}

// allSettled reports whether every root move is settled.
func (s *search) allSettled() bool {
	for i := range s.moves {
		if !s.moveSettled(i) {
			return false
		}
	}
	return true
}

// result assembles the Result once every thread has returned.
func (s *search) result() Result {
	lo, hi := s.rootBounds()
	res := Result{Lower: lo, Upper: hi, Exact: lo == hi, Nodes: s.nodes.Load(),
		TablebaseHits: s.tbHits.Load(), Depth: s.deepest.depth, Stop: *s.stopReason.Load()}
	it := s.deepest
	res.Value = min(max(it.value, lo), hi)
	best := it.move
	if res.Exact {
		res.Value = lo
		res.BestMovesComplete = true
		for i, m := range s.moves {
			l, h := s.moveBounds(i)
			if l >= lo {
				res.BestMoves = append(res.BestMoves, int(m.Pit))
			} else if h >= lo {
				res.BestMovesComplete = false
			}
		}
		if l, _ := s.moveBounds(best); l < lo {
			best = s.provenBest(lo)
		}
		if res.BestMovesComplete && (!s.opts.AllMoves || s.allSettled()) {
			res.Stop = StopExact
		}
	} else {
		res.BestMoves = []int{int(s.moves[best].Pit)}
	}
	if s.opts.AllMoves {
		res.Moves = s.moveValues(it)
		if !res.Exact {
			best = s.estimatedBest(&res)
		}
	}
	res.PV = s.principalVariation(best)
	if isPrefix(res.PV, s.knownPV) {
		res.PV = slices.Clone(s.knownPV) // the table has lost the rest of the line
	}
	return res
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []int) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// estimatedBest makes an estimate's value the largest move value and its
// best moves every move with that value, and returns the index of the
// first.
func (s *search) estimatedBest(res *Result) int {
	res.Value, res.BestMoves = res.Moves[0].Value, nil
	for _, m := range res.Moves {
		res.Value = max(res.Value, m.Value)
	}
	first := -1
	for i, m := range res.Moves {
		if m.Value == res.Value {
			res.BestMoves = append(res.BestMoves, m.Move)
			if first < 0 {
				first = i
			}
		}
	}
	return first
}

// provenBest returns the first move proven to reach v.
func (s *search) provenBest(v int) int {
	for i := range s.moves {
		if l, _ := s.moveBounds(i); l >= v {
			return i
		}
	}
	return 0
}

// moveValues lists every root move's value for Result.Moves.
func (s *search) moveValues(it iteration) []MoveValue {
	out := make([]MoveValue, len(s.moves))
	for i, m := range s.moves {
		lo, hi := s.moveBounds(i)
		mv := MoveValue{Move: int(m.Pit), Captured: int(m.Captured), Lower: lo, Upper: hi, Exact: lo == hi}
		mv.Value = lo
		if !mv.Exact && i < len(it.values) {
			mv.Value = min(max(it.values[i], lo), hi)
		}
		out[i] = mv
	}
	return out
}

// principalVariation follows best moves through the table from the root
// move first, stopping at a game end, a repetition or a missing entry.
func (s *search) principalVariation(first int) []int {
	m := s.moves[first]
	pv := []int{int(m.Pit)}
	layer := append(slices.Clone(s.line), s.root)
	history := s.rootHistory ^ pathHash(s.root, boardHash(s.root, s.salt))
	for p := s.root; len(pv) < 2*MaxPly; {
		if s.v.StartsLayer(m) {
			layer, history = layer[:0], 0
		} else {
			history ^= pathHash(p, boardHash(p, s.salt))
		}
		p = m.Next
		if slices.Contains(layer, p) {
			break
		}
		next, found := moveByCode(s.v, p, s.tableMove(p, len(layer) == 0, history))
		if !found {
			break
		}
		layer = append(layer, p)
		m = next
		pv = append(pv, int(m.Pit))
	}
	return pv
}

// rootTableMove returns the index in moves of the root's best move as
// the table knows it (tableMove), -1 if it knows none.
func (s *search) rootTableMove() int {
	history := s.rootHistory ^ pathHash(s.root, boardHash(s.root, s.salt))
	code := s.tableMove(s.root, len(s.line) == 0, history)
	for i, m := range s.moves {
		if code != 0 && int(m.Pit)+1 == code {
			return i
		}
	}
	return -1
}

// tableMove returns the best move the table knows for p (pit+1, 0 none):
// from the entry of p's line if there is one, else from p's board entry.
func (s *search) tableMove(p position.Position, free bool, history uint64) int {
	board := boardHash(p, s.salt)
	if !free {
		if e, ok := s.table.probe(board, keyFor(p, board, false, history)); ok && e.move != 0 {
			return e.move
		}
	}
	e, _ := s.table.probe(board, board)
	return e.move
}

// moveByCode finds the legal move of p stored as code (pit+1).
func moveByCode(v *position.Variant, p position.Position, code int) (position.Move, bool) {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	for _, m := range buf[:n] {
		if int(m.Pit)+1 == code {
			return m, true
		}
	}
	return position.Move{}, false
}
