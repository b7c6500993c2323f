package solver

import (
	"unsafe"

	"github.com/mancala-solver/mancala/internal/prefetch"
	"github.com/mancala-solver/mancala/position"
)

// noHit is the hit ply of a score that rests on no repetition of a
// position before the node.
const noHit = MaxPly + 10

// negamax searches p, at ply ply of the thread's path, to depth plies.
//
// Preconditions: alpha < beta; w.path[layer:ply] holds the positions of the
// current layer before p (positions since the last capture, or since the
// root), and history is the XOR of their pathHash values (0 when
// layer == ply: p is history-free).
//
// It returns a score, whether the score is proven, and hit, the lowest ply
// of a position on the path that the score may rest on through a
// repetition (noHit if none). Fail-soft contract (as in PascalPons/connect4):
// with v the value of p given the path (for a proven score: the game's
// value, rules.md section 6, with repetitions of the line scoring 0; else
// the depth-limited estimate),
//
//	score <= alpha          v <= score  (an upper bound)
//	alpha < score < beta    v == score
//	score >= beta           v >= score  (a lower bound)
//
// A score is proven when every leaf it rests on is a game end, a
// repetition or a tablebase value, never a horizon estimate. A proven score
// with hit >= ply holds for p whatever the line (doc.go). When the thread
// is stopped the result is meaningless and nothing is stored.
func (w *worker) negamax(p position.Position, alpha, beta, depth, ply, layer int, history uint64) (int, bool, int) {
	seeds, score, proven, hit, done := w.prelude(p, alpha, beta, ply, layer)
	if done {
		return score, proven, hit
	}
	n := node{ply: ply, layer: layer, history: history, board: boardHash(p, w.s.salt), tableless: w.pol.tablelessSeeds(seeds)}
	n.lineKey = keyFor(p, n.board, false, history)
	ttMove, score, proven, hit, done := w.probe(p, alpha, beta, depth, seeds, &n)
	if done {
		return score, proven, hit
	}
	return w.expand(p, alpha, beta, depth, seeds, &n, ttMove)
}

// prelude is what negamax settles before any table: the node count and the
// stop, a repetition on the path or the game's line, the seeds on the
// board against the window (and kalah's sure seed, Variant.BanksNext), and the estimate tablebase. It returns the
// seeds on the board and negamax's results with done, or done false to go
// on.
func (w *worker) prelude(p position.Position, alpha, beta, ply, layer int) (seeds, score int, proven bool, hit int, done bool) {
	w.nodes++
	if w.nodes&pollMask == 0 {
		w.poll()
	}
	if w.stopped {
		return 0, 0, false, noHit, true
	}
	for i := layer; i < ply; i++ {
		if w.path[i] == p {
			return 0, w.v.RepetitionValue(p), true, i, true // repetition: the board counts for nobody (oware-own: own rows)
		}
	}
	if layer == 0 && w.s.onLine(p) {
		return 0, w.v.RepetitionValue(p), true, 0, true // a repetition of the game's line before the root
	}
	seeds = p.Seeds()
	switch {
	case seeds <= alpha:
		return seeds, seeds, true, noHit, true // the value is at most the seeds on the board
	case -seeds >= beta:
		return seeds, -seeds, true, noHit, true
	case 2-seeds >= beta && w.v.BanksNext(p):
		// The mover banks a seed whatever happens (kalah's empty
		// captures), so the opponent takes at most the others.
		return seeds, 2 - seeds, true, noHit, true
	}
	if w.pol.estimated(seeds) {
		if v, ok := w.s.etb.Probe(p); ok && w.pol.takesEstimate(v) {
			w.tbHits++
			return seeds, v, false, noHit, true // the neutral twin's value: an estimate
		}
	}
	return seeds, 0, false, noHit, false
}

// probe looks node n (position p, with seeds seeds) up in the table and
// the tablebase (known, as the policy says) and settles it when the
// bounds found cut the window (done); otherwise it returns the best move
// the table knows (pit+1, 0 none) for the expansion to try first.
func (w *worker) probe(p position.Position, alpha, beta, depth, seeds int, n *node) (ttMove, score int, proven bool, hit int, done bool) {
	var b bounds
	w.known(&b, p, seeds, depth, n)
	if score, proven, hit, ok := b.cut(alpha, beta); ok {
		return 0, score, proven, hit, true
	}
	return b.move, 0, false, noHit, false
}

// expand searches node n (position p, with seeds seeds) below: its moves,
// the children the tablebase holds (which may settle it at once), the
// horizon estimate at depth 0, an enhanced transposition cutoff, then each
// move in order (ttMove first), storing the result. With several threads,
// a move whose child another thread is searching waits for a second pass
// (ABDADA, busy.go), unless it is the first the node searches.
func (w *worker) expand(p position.Position, alpha, beta, depth, seeds int, n *node, ttMove int) (int, bool, int) {
	var buf [position.MaxPits]position.Move
	moves := w.v.Moves(p, &buf)
	if moves == 0 {
		return w.v.TerminalValue(p), true, noHit
	}
	if floor := bankFloor(&buf, moves, seeds); floor >= beta {
		return floor, true, noHit
	}
	var values [position.MaxPits]*int8
	probed := w.heldToProbe(seeds, &buf, moves, &values)
	if !w.s.repeats && !w.atHorizon(depth, seeds, n.ply) {
		// Every child starts a layer (kalah), so its board entry is the
		// one it probes first: fetch them all now, while the tablebase
		// and the ordering run, rather than one miss at a time (unless
		// the node is at the horizon, and no child will be searched, or
		// the tablebase values the child).
		for k := range buf[:moves] {
			if probed&(1<<k) == 0 && !w.pol.tablelessSeeds(buf[k].Next.Seeds()) {
				w.tt.prefetch(boardHash(buf[k].Next, w.s.salt))
			}
		}
	}
	held, tbBest, tbMove := w.heldChildren(p, &buf, moves, probed, &values, beta)
	switch {
	case held == 0:
	case tbBest >= beta:
		// Not stored: a few probes find the cutoff again, and the table
		// keeps its room for results that cost a search. Kalah(6,4) with
		// the 20-seed tablebase, one thread, 256 MiB: 21.7 M nodes to the
		// proof when stored, 17.0 M when not.
		return tbBest, true, noHit
	case held == 1<<moves-1:
		r := result{score: tbBest, upper: true, lower: tbBest > alpha, proven: true, draft: depth}
		if r.lower {
			r.move = tbMove
		}
		w.store(n, r, noHit)
		return tbBest, true, noHit
	}
	ply, layer := n.ply, n.layer
	if w.atHorizon(depth, seeds, ply) {
		return w.estimate(p, &buf, moves), false, noHit
	}
	if depth >= etcDepth && w.s.repeats {
		if score, proven, ok := w.transpositionCutoff(p, &buf, moves, beta, depth); ok {
			return score, proven, noHit
		}
	}
	w.path[ply] = p
	childHistory := n.history ^ pathHash(p, n.board)
	var order [position.MaxPits]int8
	w.orderMoves(p, &buf, moves, ttMove, &order)
	best, bestMove, allProven, hit := tbBest, tbMove, true, noHit
	a := max(alpha, tbBest)
	marks := w.s.busy != nil && depth >= busyDepth && seeds > max(w.pol.tbMax, 0)+busySeedsAbove
	todo, searched := uint16(1<<moves-1)&^held, false // held: valued from the tablebase above
	for pass := 0; todo != 0 && pass < 2; pass++ {
		for _, k := range order[:moves] {
			if todo&(1<<k) == 0 {
				continue
			}
			m := &buf[k]
			var key uint64
			marked := false
			if marks {
				key = childKey(w.v, m, w.s.salt, childHistory)
				if pass == 0 && searched && w.s.busy.busy(key) {
					continue // another thread is in it (ABDADA): its siblings first
				}
				marked = w.s.busy.mark(key)
			}
			todo &^= 1 << k
			searched = true
			s, proven, h := w.child(p, m, a, beta, depth, ply, layer, childHistory)
			if marked {
				w.s.busy.unmark(key)
			}
			if w.stopped {
				return 0, false, noHit
			}
			if s > best {
				best, bestMove = s, int(m.Pit)+1
			}
			if s >= beta {
				w.rewardCutoff(p, m, depth)
				w.store(n, result{score: s, lower: true, proven: proven, draft: depth, move: bestMove}, h)
				return s, proven, h
			}
			allProven, hit = allProven && proven, min(hit, h)
			a = max(a, s)
		}
	}
	r := result{score: best, upper: true, lower: best > alpha, proven: allProven, draft: depth}
	if r.lower {
		r.move = bestMove
	}
	w.store(n, r, hit)
	return best, allProven, hit
}

// atHorizon reports whether a node depth plies from the horizon at ply
// ply, with seeds seeds, ends in the horizon estimate rather than
// searching its children (expand; its prefetches are skipped there): at
// depth 0, unless the policy searches it to the end (policy.exactMax).
func (w *worker) atHorizon(depth, seeds, ply int) bool {
	return depth <= 0 && !w.pol.searchesToEnd(seeds) || ply >= MaxPly
}

// bankFloor is a lower bound on the value of a position with seeds seeds
// and moves buf[:n]: a move that banks c seeds is worth at least
// c-(seeds-c), since the opponent can take at most the seeds left.
func bankFloor(buf *[position.MaxPits]position.Move, n, seeds int) int {
	most := 0
	for i := range buf[:n] {
		most = max(most, int(buf[i].Captured))
	}
	return 2*most - seeds
}

// heldToProbe returns the moves of p (which has seeds seeds, more than the
// tablebase holds) that heldChildren is to value from the tablebase: bit k
// for each move buf[k] whose child it holds and that starts a layer (so
// that no line before it changes its value). It locates their values in
// memory (tablebaseLocator), values[k] nil where it cannot, and
// prefetches them, so that the probes' cache misses overlap rather than
// follow one another, and before the node's other work, so that they
// have arrived when heldChildren reads them.
func (w *worker) heldToProbe(seeds int, buf *[position.MaxPits]position.Move, moves int, values *[position.MaxPits]*int8) (probed uint16) {
	if w.pol.held(seeds) {
		return 0 // p itself is held: known() probed it
	}
	for k := range buf[:moves] {
		m := &buf[k]
		if w.pol.held(m.Next.Seeds()) && w.v.StartsLayer(*m) {
			probed |= 1 << k
			if w.tbLocate != nil {
				if v := w.tbLocate.Locate(m.Next); v != nil {
					values[k] = v
					prefetch.Line(unsafe.Pointer(v))
				}
			}
		}
	}
	return probed
}

// heldChildren values from the tablebase the moves of p with bit k set in
// probed (heldToProbe), reading values[k] where it is not nil: held has
// bit k set for each move buf[k] valued,
// best is the best of their values to p's mover (-inf when none) and move
// its pit+1. A probe costs a rank and one read, less than a node, and a
// held child that reaches beta cuts p off before any other child is
// searched, however deep the search below it would have been. The probes
// stop at the first such child: p is cut off, and the children after it
// are not needed.
func (w *worker) heldChildren(p position.Position, buf *[position.MaxPits]position.Move, moves int, probed uint16, values *[position.MaxPits]*int8, beta int) (held uint16, best, move int) {
	best = -inf
	for k := range buf[:moves] {
		m := &buf[k]
		if probed&(1<<k) == 0 {
			continue
		}
		t, ok := 0, true
		if values[k] != nil {
			t = int(*values[k])
		} else if t, ok = w.tb.Probe(m.Next); !ok {
			continue
		}
		w.tbHits++
		held |= 1 << k
		if v := m.Value(p, t); v > best {
			best, move = v, int(m.Pit)+1
			if best >= beta {
				return held, best, move // a cutoff: the other children are not needed
			}
		}
	}
	return held, best, move
}

// child searches move m of p, a node at ply ply of layer layer whose
// children's line hash is childHistory, with p's window (alpha, beta), and
// returns the move's value to p's mover (m.Value), whether it is proven and
// the hit ply. When the turn passes over, the child is searched with the
// negated window; when the mover moves again (kalah's extra move), with the
// window less the seeds the move banked, and its score is not negated. A
// capture starts a new layer: seeds only leave the board, so nothing
// before it can repeat. In a variant where no position can recur (kalah,
// Variant.CanRepeat) every child starts a layer, so that every node is
// history-free and shares the table in full.
func (w *worker) child(p position.Position, m *position.Move, alpha, beta, depth, ply, layer int, childHistory uint64) (int, bool, int) {
	c := int(m.Captured)
	if w.s.v.StartsLayer(*m) {
		layer, childHistory = ply+1, 0
	}
	lo, hi, d := c-beta, c-alpha, max(depth-1, 0) // 0: below the horizon, searched to the end (policy.exactMax)
	switch {
	case m.MovesAgain(p):
		lo, hi, d = alpha-c, beta-c, depth // an extra move: the same turn goes on
	case c == 0 && !w.s.repeats:
		d = depth // a quiet kalah move: lines of them are finite (Variant.CanRepeat)
	}
	t, proven, hit := w.negamax(m.Next, lo, hi, d, ply+1, layer, childHistory)
	return m.Value(p, t), proven, hit
}

// node is what negamax knows of the node it searches, for the table.
type node struct {
	ply, layer int
	history    uint64 // the line hash of the positions of the layer before it
	board      uint64 // boardHash: the history-free key, and the bucket
	lineKey    uint64 // the key that includes the line (keyFor)
	tableless  bool   // the node skips the table (policy.tablelessSeeds)
}

func (n *node) historyFree() bool { return n.ply == n.layer }

// bounds are what the table and the tablebase know of a node: proven
// bounds, with the hit ply each rests on, estimates good for the depth
// searched, and the best move known.
type bounds struct {
	lo, hi       int // proven
	loHit, hiHit int
	elo, ehi     int // estimates
	move         int // pit+1, 0 none
}

// known writes into b the bounds the table and tablebase give for p, as
// the policy says (policy.go). (Written through a pointer: returning the
// bounds copied them twice a node.)
func (w *worker) known(b *bounds, p position.Position, seeds, depth int, n *node) {
	*b = bounds{lo: -inf, hi: inf, loHit: noHit, hiHit: noHit, elo: -inf, ehi: inf}
	tb, board, line := w.pol.probes(seeds, depth, n.historyFree())
	if tb {
		if v, ok := w.tb.Probe(p); ok {
			w.tbHits++
			if w.pol.takeTablebase(b, v, n) {
				return
			}
		}
	}
	if board {
		if e, ok := w.tt.probe(n.board, n.board); ok {
			w.pol.takeBoard(b, e, n, depth)
		}
	}
	if line {
		if e, ok := w.tt.probe(n.board, n.lineKey); ok {
			w.pol.takeLine(b, e, n, depth)
		}
	}
}

// lineHit is the hit ply to assume for a proven bound of a line entry: the
// first ply of the layer if it rests on the line (the entry does not keep
// which position it was), else none.
func lineHit(onLine bool, layer int) int {
	if onLine {
		return layer
	}
	return noHit
}

// estimates takes e's unproven bounds if they were searched deep enough.
func (b *bounds) estimates(e entry, depth int) {
	if e.draft < depth {
		return
	}
	if !e.loProven && e.lo != noLower {
		b.elo = e.lo
	}
	if !e.hiProven && e.hi != noUpper {
		b.ehi = e.hi
	}
}

// freeLower takes a proven lower bound on the history-free value. Where a
// repetition is not worth 0 (oware-own), fact 2 of doc.go fails, and a node
// with a line before it takes nothing (neutral false).
func (b *bounds) freeLower(v int, free, neutral bool, layer int) {
	if !free && !neutral {
		return
	}
	if !free && v > 0 {
		b.lower(0, layer)
		return
	}
	b.lower(v, noHit)
}

// freeUpper takes a proven upper bound on the history-free value (see
// freeLower).
func (b *bounds) freeUpper(v int, free, neutral bool, layer int) {
	if !free && !neutral {
		return
	}
	if !free && v < 0 {
		b.upper(0, layer)
		return
	}
	b.upper(v, noHit)
}

// lower and upper keep the tighter proven bound; between equal ones, the
// one that rests on less of the line.
func (b *bounds) lower(v, hit int) {
	if v > b.lo || v == b.lo && hit > b.loHit {
		b.lo, b.loHit = v, hit
	}
}

func (b *bounds) upper(v, hit int) {
	if v < b.hi || v == b.hi && hit > b.hiHit {
		b.hi, b.hiHit = v, hit
	}
}

// cut reports whether the bounds settle a search with window (alpha,
// beta), and with what score, proven flag and hit ply. Proven bounds come
// first.
func (b *bounds) cut(alpha, beta int) (score int, proven bool, hit int, ok bool) {
	switch {
	case b.lo >= beta:
		return b.lo, true, b.loHit, true
	case b.hi <= alpha:
		return b.hi, true, b.hiHit, true
	case b.lo == b.hi:
		return b.lo, true, min(b.loHit, b.hiHit), true
	case b.elo >= beta:
		return b.elo, false, noHit, true
	case b.ehi <= alpha:
		return b.ehi, false, noHit, true
	case b.elo == b.ehi:
		return b.elo, false, noHit, true
	}
	return 0, false, noHit, false
}

// store records a node's result where the policy says (policy.stores).
func (w *worker) store(n *node, r result, hit int) {
	if n.tableless {
		return
	}
	if n.historyFree() { // the common case, without stores' copies
		if w.pol.storesFree(r) {
			w.countFilled(w.tt.store(n.board, n.board, r))
		}
		return
	}
	line, toLine, board, toBoard := w.pol.stores(n, r, hit)
	if toLine {
		w.countFilled(w.tt.store(n.board, n.lineKey, line))
	}
	if toBoard {
		w.countFilled(w.tt.store(n.board, n.board, board))
	}
}

// countFilled counts a store that filled an empty slot of the table, and
// one that set a bit of its filter.
func (w *worker) countFilled(filled, newBit bool) {
	if filled {
		w.filled++
	}
	if newBit {
		w.filterSet++
	}
}

// estimate is the horizon estimate of p's value (Options.Estimate), on
// the parity of p's seeds where the search keeps it (search.parity); moves
// are p's n > 0 legal moves. Estimates are never marked proven.
func (w *worker) estimate(p position.Position, moves *[position.MaxPits]position.Move, n int) int {
	e := rowsEstimate(p)
	if w.s.weights != nil {
		e = tunedEstimate(w.v, w.s.weights, p, moves, n)
	}
	if w.s.parity {
		return parityEstimate(e, p)
	}
	return e
}

// orderMoves writes into order the indexes of buf[:n] best first: the
// table's move, then extra moves, then captures (largest first), then by the history
// heuristic (Schaeffer, "The history heuristic and alpha-beta search
// enhancements in practice", IEEE PAMI 11, 1989).
func (w *worker) orderMoves(p position.Position, buf *[position.MaxPits]position.Move, n, ttMove int, order *[position.MaxPits]int8) {
	var score [position.MaxPits]int32
	for i := 0; i < n; i++ {
		m := &buf[i]
		switch {
		case int(m.Pit)+1 == ttMove:
			score[i] = 1 << 30
		case m.MovesAgain(p):
			// An extra move (kalah): a free tempo. Nearest the store
			// first: a sowing from a farther pit adds a seed to every pit
			// between it and the store, spoiling the extra moves that
			// start there, while the nearest disturbs none, so chains of
			// extra moves are found at once (docs/kalah.md gives the
			// nodes it saves).
			score[i] = 1<<28 + int32(m.Pit)
		case m.Captured > 0:
			score[i] = 1<<24 + int32(m.Captured)
		default:
			score[i] = *w.historySlot(p, m)
		}
		// Insertion sort: at most seven moves.
		j := i
		for ; j > 0 && score[order[j-1]] < score[i]; j-- {
			order[j] = order[j-1]
		}
		order[j] = int8(i)
	}
}

// historySlot is the history counter of a quiet move: by pit and by the
// seeds it sows (capped), since a pit's number alone says little.
func (w *worker) historySlot(p position.Position, m *position.Move) *int32 {
	sown := 0
	if !m.IsPass() {
		sown = min(position.Pit(p.Own, int(m.Pit)-1), 15)
	}
	return &w.history[m.Pit][sown]
}

// rewardCutoff credits a quiet move that caused a cutoff at depth plies.
func (w *worker) rewardCutoff(p position.Position, m *position.Move, depth int) {
	if m.Captured > 0 {
		return
	}
	h := w.historySlot(p, m)
	if *h += int32(depth * depth); *h > 1<<22 {
		for i := range w.history {
			for j := range w.history[i] {
				w.history[i][j] /= 2
			}
		}
	}
}

// etcDepth is the least remaining depth at which negamax looks up its
// children in the table before searching them: near the horizon the
// lookups cost more than they save. In kalah (no repetitions) it never
// does: there every child is looked up again when it is searched, and the
// lookups cost more than the nodes they save at any depth (one thread,
// --one-best: Kalah(6,4) with the 20-seed database 16.8 M nodes with them
// from depth 3, 17.2 M without, but 18% less CPU time; Kalah(6,3) with no
// database 1.68 M against 1.78 M nodes, 10-25% less CPU time).
const etcDepth = 3

// transpositionCutoff is an enhanced transposition cutoff (Plaat,
// Schaeffer, Pijls and de Bruin, "Exploiting graph properties of game
// trees", AAAI 1996): if the table already bounds one child so that its
// move reaches beta, p fails high without a search. Only children that
// start a layer (after a capture; kalah does without, etcDepth) are
// looked up, since only their board entries hold for them as they
// are. A proven bound gives a proven cutoff; an estimate must be from a
// draft at least depth-1.
func (w *worker) transpositionCutoff(p position.Position, buf *[position.MaxPits]position.Move, moves, beta, depth int) (int, bool, bool) {
	for i := range buf[:moves] {
		m := &buf[i]
		if !w.s.v.StartsLayer(*m) {
			continue
		}
		board := boardHash(m.Next, w.s.salt)
		e, ok := w.tt.probe(board, board)
		if !ok {
			continue
		}
		bound, proven := e.hi, e.hiProven // the child's upper bound gives the move a lower one
		if m.MovesAgain(p) {
			bound, proven = e.lo, e.loProven
		}
		if bound == noUpper || bound == noLower || !proven && e.draft < depth-1 {
			continue
		}
		if v := m.Value(p, bound); v >= beta {
			return v, proven, true
		}
	}
	return 0, false, false
}
