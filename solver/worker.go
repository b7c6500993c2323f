package solver

import "github.com/mancala-solver/mancala/position"

// worker is one search thread: its own path, history table and counters;
// it shares the table and the root's proven bounds with the others.
type worker struct {
	s  *search
	id int
	v  *position.Variant
	tt *table
	tb Tablebase
	// tbLocate is tb if it can locate values in memory, else nil.
	tbLocate tablebaseLocator
	pol      policy // s.pol, kept beside the other per-node fields

	path    [MaxPly + 2]position.Position // path[i]: the position at ply i
	history [position.MaxPits + 1][16]int32

	nodes, flushed uint64
	tbHits         uint64
	filled         uint64 // entries this thread wrote into empty slots, not yet told the table
	filterSet      uint64 // filter bits this thread set, not yet told the table
	epoch          uint64
	stopped        bool // abandon the current probe: stop, or a settling event
	noStop         bool // ignore stops (the main thread's first iteration)
	order          []int
	// inProbe identifies the null-window probe the thread is in (probeKey),
	// 0 none; adopted: another thread finished it first, with
	// adoptedScore and adoptedBest.
	inProbe                   uint64
	adopted                   bool
	adoptedScore, adoptedBest int
}

// pollMask: a thread looks at the stop flag and adds its node count to the
// shared one every 1024 nodes.
const pollMask = 1<<10 - 1

// inf is beyond any value (|value| <= 70).
const inf = 1 << 10

func newWorker(s *search, id int) *worker {
	w := &worker{s: s, id: id, v: s.v, tt: s.table, tb: s.tb, pol: s.pol}
	w.tbLocate, _ = s.tb.(tablebaseLocator)
	w.path[0] = s.root
	w.order = make([]int, len(s.moves))
	for i := range w.order {
		w.order[i] = i
		if s.repeats {
			w.order[i] = (i + id) % len(s.moves) // helpers start from other moves
		}
	}
	if i := s.rootTableMove(); i >= 0 && (id == 0 || !s.repeats) {
		// The best move an earlier search on the same table found (a step
		// of a principal variation after the proof of the position before
		// it) first: that search left its proof in the table, and the
		// first iteration can read it back there at once, where another
		// move first fails high on an estimate and each iteration after
		// searches deeper to disprove that. Kalah(6,3) with no tablebase,
		// one thread, --one-best: the 30 steps of the principal variation
		// after the proof took 74 K nodes (5% of the CPU of the solve),
		// 140 with this.
		w.promote(i)
	}
	return w
}

// run is one thread's whole search: the position's value by iterative
// deepening, then (unless AllMoves, which values every move instead, or
// OneBest, which stops there) which moves reach it. Where positions can
// repeat, helper threads start one ply deeper on odd ids and at other root
// moves, so that the threads spread over depths (Lazy SMP); in kalah all
// run the same probes and split each by the marks of busy.go, adopting a
// probe another thread finished (docs/solver-design.md, "Threads").
func (w *worker) run() {
	if w.s.opts.AllMoves {
		w.valueAllMoves()
	} else if w.valueRoot() {
		if w.s.oneBest {
			w.s.halt(StopOneBest) // a move proven to reach the value is known
			return
		}
		w.classifyMoves()
	}
	if w.s.rootExact() && w.s.allSettled() {
		w.s.halt(StopExact)
	}
}

// poll adds the thread's nodes to the shared count and looks for a stop:
// the stop flag, a settling event, the node limit, or the deadline. The
// thread reads the clock itself rather than wait for the context's timer
// to raise the flag: on a loaded machine that timer's goroutine can run
// tens of milliseconds late, and every millisecond past a move's time is
// taken from the next.
func (w *worker) poll() {
	total := w.flush()
	if w.noStop {
		return
	}
	switch max := w.s.opts.MaxNodes; {
	case w.s.stop.Load() || w.s.epoch.Load() != w.epoch:
		w.stopped = true
	case w.inProbe != 0 && w.adopt():
	case max > 0 && total >= max && (!w.s.classifying() || total >= 2*max):
		w.s.halt(StopNodes)
		w.stopped = true
	case !w.s.deadline.IsZero() && !w.s.now().Before(w.s.deadline):
		w.s.halt(StopTime)
		w.stopped = true
	}
}

// flush adds the nodes, tablebase hits, filled table entries and filter
// bits set not yet counted to the shared counts (which may grow the table) and returns the
// shared node count.
func (w *worker) flush() uint64 {
	w.s.tbHits.Add(w.tbHits)
	w.tbHits = 0
	w.tt.addFilled(w.filled)
	w.tt.addFilterSet(w.filterSet)
	w.filled, w.filterSet = 0, 0
	total := w.s.nodes.Add(w.nodes - w.flushed)
	w.flushed = w.nodes
	return total
}

// resume prepares for the next probe after a settling event; it reports
// false when the search is stopping.
func (w *worker) resume() bool {
	if w.s.stop.Load() && !w.noStop {
		return false
	}
	w.stopped = false
	w.epoch = w.s.epoch.Load()
	return true
}

// firstDepth is the thread's first iteration depth: where positions can
// repeat, helpers on odd ids start one ply deeper (see run).
func (w *worker) firstDepth() int {
	if w.s.repeats {
		return 1 + w.id%2
	}
	return 1
}

// kalahDepthStep is how many plies valueRoot deepens at a time where no
// position can recur (kalah). There a quiet move costs no depth (child), so
// each iteration reaches far past the last one anyway, and the table keeps
// the proven bounds between them: the shallow iterations in between mostly
// re-search what the next one searches again. Irving's solver steps by 3
// too. Kalah(6,3) with no tablebase, one thread: 3,125,700 nodes for the
// proof a ply at a time, 2,752,170 by 3 (docs/performance.md).
const kalahDepthStep = 3

// kalahJumpDepth: a kalah proof (search.proving) deepens by kalahDepthStep
// to this depth, and then searches to the end in one iteration, at depth
// the seeds on the board: every ply that costs depth (child) banks a
// seed, so no line reaches the horizon. By then the table holds the
// proven subtrees and the moves of the shallower iterations, and each
// further step mostly searched again what the last one proves. Irving's
// solver jumps likewise, past 30 plies. One thread, --one-best, nodes to
// the proof against stepping on by 3: Kalah(6,3) with no tablebase
// 1.364 M against 1.408 M, Kalah(6,4) with the 20-seed tablebase 14.21 M
// against 14.47 M; on the random positions of policy.go's figures 0.6%
// fewer on (6,3) (9 fewer, 5 more) and 2.4% on (6,4) (2 fewer, 2 more),
// on its fresh check sets 1.6% (16 fewer, none more) and 0.2% (8 fewer,
// 1 more); kalah-5x4 -8%, kalah-4x6 -12%, kalah-4x5 +6%. Jumping after 10: (6,3)
// 1.32 M but (6,4) 14.35 M and +21% on its random positions; after 16,
// no change. (The depth matters beyond the horizon: at 8000, where the
// history heuristic's rewards, depth squared, swamp it, Kalah(6,4) took
// 346 M.)
const kalahJumpDepth = 13

// nextDepth is the iteration after depth d: d+1, or d+kalahDepthStep in
// kalah (past kalahJumpDepth in a proof, to the end), never past MaxDepth
// (which is always searched itself).
func (w *worker) nextDepth(d int) int {
	if w.s.repeats || d >= w.s.opts.MaxDepth {
		return d + 1
	}
	next := d + kalahDepthStep
	if next > kalahJumpDepth && w.s.proving() {
		next = max(next, w.s.root.Seeds())
	}
	return min(next, w.s.opts.MaxDepth)
}

// valueRoot deepens until the position's value is proven, and reports
// whether it was.
func (w *worker) valueRoot() bool {
	w.noStop = w.id == 0
	guess := 0
	for d := w.firstDepth(); d <= w.s.opts.MaxDepth; {
		if !w.resume() {
			return false
		}
		g, best, ok := w.mtd(-1, d, guess, w.s.rootBounds, func(alpha, beta int) (int, int) {
			return w.searchRoot(alpha, beta, d)
		})
		w.noStop = false
		if ok {
			w.flush() // the iteration's report counts this thread's nodes to here
			w.s.record(iteration{depth: d, value: g, move: best})
			w.promote(best)
			guess = g
		}
		switch {
		case w.s.rootExact():
			return true
		case !ok && w.stopped && w.resume():
			continue // abandoned for a settling event: try the depth again
		case !ok:
			return false
		}
		d = w.nextDepth(d)
	}
	return false
}

// classifyMoves decides for each root move whether it reaches the proven
// value, deepening a null-window probe on it until proven. The probes
// start at the depth that proved the value, not at 1: the table already
// holds the shallower iterations, and re-running them with the new window
// cost more than they saved (Kalah(6,4) with an 18-seed tablebase, one
// thread: 7.16 M nodes for this phase from depth 1, 3.25 M from there).
// They deepen as valueRoot does (nextDepth): in kalah by 3, and in a
// proof to the end after kalahJumpDepth. A step of a principal variation,
// whose value the table proves at depth 1 (rootTableMove), would else
// deepen its probes a ply at a time: Kalah(6,3) with no tablebase, one
// thread, every best move, its 22 steps took 355 K nodes so, 209 K by 3
// (283 K before rootTableMove).
func (w *worker) classifyMoves() {
	first := w.s.deepestDepth()
	for _, i := range w.order {
		for d := first; d <= w.s.opts.MaxDepth && !w.s.moveSettled(i); d = w.nextDepth(d) {
			if !w.resume() {
				return
			}
			v, _ := w.s.rootBounds()
			w.searchMove(i, v-1, v, d)
		}
	}
}

// valueAllMoves deepens an MTD(f) search on every root move until each
// value is proven.
func (w *worker) valueAllMoves() {
	w.noStop = w.id == 0
	guesses := make([]int, len(w.s.moves))
	for d := w.firstDepth(); d <= w.s.opts.MaxDepth; d++ {
		it := iteration{depth: d, move: -1, values: make([]int, len(w.s.moves))}
		for _, i := range w.order {
			if !w.s.moveSettled(i) {
				if !w.valueMove(i, d, guesses) {
					return
				}
			}
			lo, hi := w.s.moveBounds(i)
			it.values[i] = min(max(guesses[i], lo), hi)
			if it.move < 0 || it.values[i] > it.value {
				it.move, it.value = i, it.values[i]
			}
		}
		w.noStop = false
		w.flush()
		w.s.record(it)
		if w.s.allSettled() {
			return
		}
	}
}

// valueMove runs one depth of MTD(f) on root move i, retrying after
// settling events; it reports false when the search is stopping.
func (w *worker) valueMove(i, d int, guesses []int) bool {
	for {
		if !w.resume() {
			return false
		}
		bounds := func() (int, int) { return w.s.moveBounds(i) }
		g, _, ok := w.mtd(i, d, guesses[i], bounds, func(alpha, beta int) (int, int) {
			s, _ := w.searchMove(i, alpha, beta, d)
			return s, i
		})
		if ok || w.s.moveSettled(i) {
			guesses[i] = g
			return true
		}
	}
}

// mtd is MTD(f) (Plaat, Schaeffer, Pijls and de Bruin, "Best-first
// fixed-depth minimax algorithms", Artificial Intelligence 87, 1996): it
// pins the depth-d value with null-window probes, each of which moves a
// lower or an upper bound past it. The proven bounds (which probes tighten
// as they go) clip the range, so once every leaf is proven the probes
// close in on the exact value. It returns the value, the best move of the
// probe that set the lower bound (else of the last probe), and ok=false if
// a probe was abandoned.
func (w *worker) mtd(target, d, guess int, proven func() (int, int), probe func(alpha, beta int) (int, int)) (int, int, bool) {
	lower, upper := -inf, inf
	g, move, lowMove := guess, -1, -1
	for {
		plo, phi := proven()
		lower, upper = max(lower, plo), min(upper, phi)
		if lower >= upper {
			break
		}
		g = min(max(g, lower), upper)
		beta := max(g, lower+1)
		s, best := w.nullWindow(target, d, beta, probe)
		if w.stopped {
			return g, move, false
		}
		if s >= beta {
			lower, move = s, best
		} else {
			upper, lowMove = s, best
		}
		g = s
	}
	if move < 0 {
		move = lowMove
	}
	plo, phi := proven()
	return min(max(g, plo), phi), max(move, 0), true
}

// promote moves root move best to the front of the thread's move order.
func (w *worker) promote(best int) {
	for k, i := range w.order {
		if i == best {
			copy(w.order[1:k+1], w.order[:k])
			w.order[0] = best
			return
		}
	}
}

// searchRoot is one fail-soft probe of the root with window (alpha, beta)
// at depth d. It returns the score and the index of the best move.
func (w *worker) searchRoot(alpha, beta, d int) (int, int) {
	best, bestIdx := -inf, w.order[0]
	todo := uint16(1<<len(w.order) - 1)
	for pass := 0; todo != 0 && pass < 2; pass++ {
		for k, i := range w.order {
			if todo&(1<<i) == 0 {
				continue
			}
			marked := false
			if w.s.busy != nil {
				if pass == 0 && k > 0 && w.s.busy.busy(w.s.rootKeys[i]) {
					continue // another thread is in it (ABDADA): the other moves first
				}
				marked = w.s.busy.mark(w.s.rootKeys[i])
			}
			todo &^= 1 << i
			s, _ := w.searchMove(i, max(alpha, best), beta, d)
			if marked {
				w.s.busy.unmark(w.s.rootKeys[i])
			}
			if w.stopped {
				return best, bestIdx
			}
			if s > best {
				best, bestIdx = s, i
			}
			if s >= beta {
				return best, bestIdx
			}
		}
	}
	return best, bestIdx
}

// searchMove is a fail-soft probe of root move i's value with window
// (alpha, beta) at depth d (the move is the first ply). A proven result
// tightens the move's proven bounds.
func (w *worker) searchMove(i, alpha, beta, d int) (int, bool) {
	m := &w.s.moves[i]
	s, proven, _ := w.child(w.s.root, m, alpha, beta, d, 0, 0, w.s.rootHistory)
	if w.stopped || !proven {
		return s, proven
	}
	if s > alpha {
		w.s.raiseLo(i, s)
	}
	if s < beta {
		w.s.lowerHi(i, s)
	}
	return s, true
}

// nullWindow runs probe, mtd's null-window probe (beta-1, beta) at depth d
// of its target (-1 the root, else root move target), and returns its
// score and best move. When another thread finishes the same probe first,
// this one adopts its result (adopt); when this one finishes it, it
// publishes the result for the others.
func (w *worker) nullWindow(target, d, beta int, probe func(alpha, beta int) (int, int)) (int, int) {
	w.inProbe = probeKey(target, d, beta)
	defer func() { w.inProbe = 0 }()
	s, best := probe(beta-1, beta)
	switch {
	case w.adopted:
		w.stopped, w.adopted = false, false
		return w.adoptedScore, w.adoptedBest
	case !w.stopped && w.s.busy != nil:
		w.s.finished[w.s.latest.Add(1)%finishedProbes].Store(w.inProbe | probeResult(s, best))
	}
	return s, best
}

// finishedProbes is how many of the last finished probes a thread looks
// at for its own: a thread that finished one may be several probes on
// before the other polls.
const finishedProbes = 8

// probeKey identifies a null-window probe of mtd in 32 bits, the top one
// set: its target (-1 the root, else a root move; 4 bits), depth (15 bits)
// and beta (12 bits).
func probeKey(target, d, beta int) uint64 {
	return 1<<31 | uint64(target+1)&0xf | uint64(d)&0x7fff<<4 | uint64(beta+inf)&0xfff<<19
}

// probeResult packs a probe's score (12 bits) and best move (4 bits)
// above its key.
func probeResult(score, best int) uint64 {
	return uint64(score+inf)&0xfff<<32 | uint64(best)&0xf<<44
}

// adopt reports whether another thread has finished the probe this one
// is in, and if so stops this one and takes its result: a probe's result
// is the same whichever thread searched it, and the rest of this one's
// search would repeat the other's. Only estimates are taken so: proven
// bounds reach the root by searchMove alone.
func (w *worker) adopt() bool {
	for i := range w.s.finished {
		done := w.s.finished[i].Load()
		if done&(1<<32-1) == w.inProbe {
			w.stopped, w.adopted = true, true
			w.adoptedScore, w.adoptedBest = int(done>>32&0xfff)-inf, int(done>>44&0xf)
			return true
		}
	}
	return false
}
