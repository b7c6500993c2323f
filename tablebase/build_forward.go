package tablebase

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

// The forward pass: a layer of a variant whose positions never recur
// (kalah, position.Variant.CanRepeat) solved by plain backward induction,
// children before parents, with no predecessor graph, no counters and no
// temporary file.
//
// In kalah a move that banks nothing (Captured == 0, the only kind that
// stays in the layer) sows within the mover's own row, towards the store,
// and hands the turn over. So the measure
//
//	w(p) = sum over both rows of sum_i i * pit_i   (i = 0 for pit 1)
//
// rises by at least 1 with every such move (s seeds from pit i add
// s(s+1)/2), and the swap of rows leaves it alone since both rows weigh
// the same; position/property_test.go checks this on random positions.
// Every in-layer child of a position of measure m therefore has a measure
// above m: taking the measures from the largest, (Pits-1)*n, down to 0,
// every in-layer child is solved before its parent, and the moves that
// bank seeds lead to the lower layers, finished already. A position's
// value is then the best of its moves' values (position.Move.Value), the
// game end's value when it has none, and its distance the formula of
// doc.go (deriveDistance), both read straight off its children. This is
// what the propagation computes too (on a graph without cycles the
// attractors of doc.go are plain minimax), so the layers are identical;
// TestForwardMatchesGraph checks it layer by layer.
//
// The positions of one measure are enumerated without any sort or index
// array: a position is a pair of rows (own, opp), its measure is
// w(own)+w(opp), and its rank splits into a part of the own row and a
// part of the opp row (Index.ownRank and oppRank: the opp part depends on
// the own row only through its seed count, which the layer fixes once the
// opp row is known). So the rows of at most n seeds are listed once,
// grouped by seeds and weight, with both rank parts, and measure m is the
// union over own seeds s and own weight w of the products (rows of s seeds
// and weight w) x (rows of n-s seeds and weight m-w). The positions of one
// measure depend only on larger measures and lower layers, so both
// threads share each measure, with a barrier between measures.
//
// No move list is built. A kalah move sows the mover's row the same way
// whatever the opponent's row holds (position.Variant.SowRow); only a
// capture looks at the opponent's row, at one pit. So each own row is
// sown once, pit by pit, beside a run of up to forwardBatch opponent rows,
// and each move is folded into every position of the run in one tight
// loop whose child ranks are sums of row parts: a move that banks nothing
// leads to (opp, own') ranked t.own[opp] + a constant, an extra move to
// (own', opp) in layer n-1 ranked a constant + t.opp1[opp]. The loads of
// one loop do not depend on each other, so they overlap in the memory
// system. The best move so far is one int32 key a position (moveKey).
//
// The moves that bank seeds read finished layers only, so they are folded
// first, in an exit pass of their own (forwardExits) whose order suits
// the lower layers' caches; the measure sweep then folds in the moves
// that stay in the layer.
//
// Memory: the layer's result is two bytes a position (fwdState): its
// value, and its distance in one byte, which holds every kalah distance:
// a move inside the layer raises the measure by at least 1 and the
// measure runs from 0 to (Pits-1)*n, so a forced line has at most
// (Pits-1)*n moves inside the layer and one exit, 156 plies at most on
// the 12-pit board's largest one-machine layer (31) and 241 for 5 pits and
// 60 seeds (a longer one is an error, never a wrong distance). The exit
// pass holds the values alone, each position's best exit so far, beside
// the lower layers (held packed, packValues: 5 bits a value up to layer
// 31); the distances are allocated after it (markExits), when the top
// layer of a build has let the lower layers go (exitsDone), so that at
// most one byte a position of the layer sits beside them. The values array
// is the layer's values, packed for the layers above once encoded. The
// row tables are small (C(n+Pits, Pits) rows, twice).

// forwardBytes is the forward pass's bytes a position of its layer: the
// value and the distance (2), and while the layer is encoded the
// compressed blocks (well under 1); the values are kept for the layers
// above at no cost, but planLower counts 1 byte more for them.
const forwardBytes = 2.5

// fwdUnsolved is the distance byte of a position not yet solved: its
// value byte then holds its best exit's value, or fwdNoExit.
const (
	fwdUnsolved = 0xff
	fwdNoExit   = math.MinInt8
)

// fwdState is the forward pass's layer: value and distance a position.
// A solved position has its distance (below fwdUnsolved); one that is
// not yet has fwdUnsolved and its best exit so far in val.
type fwdState struct {
	val  []int8
	dist []uint8
}

// set records the final value and distance of the position of rank r
// from its best move's key (errDistance when the distance does not fit).
func (st fwdState) set(r uint64, key int32) error {
	v, d := keyValueDist(key)
	if d >= fwdUnsolved {
		return errDistance
	}
	st.val[r], st.dist[r] = int8(v), uint8(d)
	return nil
}

// forwardFixed is the forward pass's memory besides its arrays: the block
// encoders, caches and runtime, about 50 MiB whatever the layer (measured
// with GODEBUG=gctrace=1 on the small layers). Without it the heap limit
// of the small layers' plans (builder.boundHeap) sits below what the
// process holds anyway, and the collector runs without pause: 852
// collections and 10% more CPU in `build kalah --max-seeds 18`.
const forwardFixed = 64 << 20

// forwardTask is the number of positions a worker takes at a time.
const forwardTask = 1 << 13

// canForward reports whether v's layers can be solved by the forward
// pass: no position of v recurs (kalah).
func canForward(v *position.Variant) bool { return !v.CanRepeat() }

// errForwardOrder reports an in-layer child met before it was solved: the
// variant's moves do not raise the measure (a defect, not bad input).
var errForwardOrder = errors.New("forward pass: an in-layer child was not solved before its parent (the variant can repeat?)")

// rowTable lists every row of pits pits holding at most n seeds, grouped
// by seeds and weight (w above), each group in rank order, with the parts
// of the rank of a position of layer n (and n-1) that the row contributes.
type rowTable struct {
	rows  []uint64 // packed rows, grouped by (seeds, weight)
	own   []uint64 // Index.ownRank of the row
	opp   []uint64 // Index.oppRank of the row as the opponent's row in layer n
	opp1  []uint64 // the same in layer n-1 (0 for the rows of n seeds)
	start [][]int  // rows of s seeds and weight w: rows[start[s][w]:start[s][w+1]]
}

// newRowTable lists the rows for layer n of ix. Each group is sorted by
// the rows' own rank, which also sorts it by their opponent rank (both are
// the colexicographic order of the row's prefix sums, index.go), so that
// a run of opponent rows beside one own row reads its children's states
// in increasing rank.
func newRowTable(ix *Index, n int) *rowTable { return newRows(ix, n, true) }

// newRows is newRowTable, or with weigh false the table of the exit pass:
// every row of s seeds in one group (s, 0), in rank order.
func newRows(ix *Index, n int, weigh bool) *rowTable {
	pits := ix.pits
	maxW := (pits - 1) * n
	if !weigh {
		maxW = 0
	}
	// byGroup[s][w] collects the rows of s seeds and weight w.
	byGroup := make([][][]uint64, n+1)
	for s := range byGroup {
		byGroup[s] = make([][]uint64, maxW+1)
	}
	var pit [position.MaxPits]int
	var walk func(i, left, w int)
	walk = func(i, left, w int) {
		if i == pits {
			s := n - left
			if !weigh {
				w = 0
			}
			byGroup[s][w] = append(byGroup[s][w], position.PackRow(pit[:pits]))
			return
		}
		for k := 0; k <= left; k++ {
			pit[i] = k
			walk(i+1, left-k, w+i*k)
		}
	}
	walk(0, n, 0)
	rows := 0
	for _, groups := range byGroup {
		for _, group := range groups {
			rows += len(group)
		}
	}
	t := &rowTable{start: make([][]int, n+1), rows: make([]uint64, 0, rows), own: make([]uint64, 0, rows),
		opp: make([]uint64, 0, rows), opp1: make([]uint64, 0, rows)}
	for s := 0; s <= n; s++ {
		t.start[s] = make([]int, maxW+2)
		for w := 0; w <= maxW; w++ {
			t.start[s][w] = len(t.rows)
			group := byGroup[s][w]
			slices.SortFunc(group, func(x, y uint64) int { return cmp.Compare(ix.ownRank(x), ix.ownRank(y)) })
			for _, r := range group {
				t.rows = append(t.rows, r)
				t.own = append(t.own, ix.ownRank(r))
				t.opp = append(t.opp, ix.oppRank(r, n-s))
				t.opp1 = append(t.opp1, ix.oppRank(r, max(n-1-s, 0)))
			}
		}
		t.start[s][maxW+1] = len(t.rows)
	}
	return t
}

// group returns the indices [lo, hi) of the rows of s seeds and weight w,
// empty when w is out of range.
func (t *rowTable) group(s, w int) (lo, hi int) {
	if s < 0 || s >= len(t.start) || w < 0 || w >= len(t.start[s])-1 {
		return 0, 0
	}
	return t.start[s][w], t.start[s][w+1]
}

// forwardJob is a block of positions of one measure: own rows
// [ownLo, ownHi) times opponent rows [oppLo, oppHi).
type forwardJob struct{ ownLo, ownHi, oppLo, oppHi int }

// jobs returns the blocks of measure m of layer n, each of about
// forwardTask positions.
func (t *rowTable) jobs(n, m int, out []forwardJob) []forwardJob {
	out = out[:0]
	for s := 0; s <= n; s++ {
		for w := 0; w <= m; w++ {
			alo, ahi := t.group(s, w)
			blo, bhi := t.group(n-s, m-w)
			if alo == ahi || blo == bhi {
				continue
			}
			step := max(1, forwardTask/(bhi-blo))
			for a := alo; a < ahi; a += step {
				out = append(out, forwardJob{a, min(a+step, ahi), blo, bhi})
			}
		}
	}
	return out
}

// forward solves the layer: measures from the largest down, the blocks of
// each measure shared by the threads. It returns the propagation-format
// value and distance of every position.
func (s *layerSolver) forward(ctx context.Context) (fwdState, error) {
	state := fwdState{val: make([]int8, s.size)}
	hugepage.Advise(state.val)
	exits := newRows(s.ix, s.n, false)
	if err := s.forwardExits(ctx, exits, state); err != nil {
		return fwdState{}, err
	}
	t := newRowTable(s.ix, s.n) // before exitsDone, which collects its scratch
	if s.exitsDone != nil {
		s.lower, s.packed = nil, nil
		s.exitsDone() // the lower layers are read no more
	}
	state.dist = make([]uint8, s.size)
	hugepage.Advise(state.dist)
	if err := s.markExits(ctx, exits, state); err != nil {
		return fwdState{}, err
	}
	var edges atomic.Int64
	var jobs []forwardJob
	for m := (s.ix.pits - 1) * s.n; m >= 0; m-- {
		if err := ctx.Err(); err != nil {
			return fwdState{}, err
		}
		jobs = t.jobs(s.n, m, jobs)
		if err := s.forwardMeasure(jobs, t, state, &edges); err != nil {
			return fwdState{}, err
		}
		s.rounds++
	}
	s.edges = edges.Load()
	s.prog.reach(3 * s.size)
	return state, nil
}

// forwardMeasure solves the blocks of one measure on s.threads workers
// (one worker when they are few).
func (s *layerSolver) forwardMeasure(jobs []forwardJob, t *rowTable, state fwdState, edges *atomic.Int64) error {
	workers := min(s.threads, len(jobs))
	var next atomic.Int64
	var fail atomic.Pointer[error]
	work := func() {
		f := newForwarder(s, t, state)
		for {
			j := next.Add(1) - 1
			if j >= int64(len(jobs)) || fail.Load() != nil {
				break
			}
			done, err := f.block(jobs[j])
			if err != nil {
				fail.CompareAndSwap(nil, &err)
				break
			}
			s.prog.add(2 * done)
		}
		edges.Add(f.edges)
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	work()
	wg.Wait()
	if err := fail.Load(); err != nil {
		return *err
	}
	return nil
}

// forwardBatch is the most opponent rows a worker solves beside one own
// row at a time: the best move so far of each is kept in an array that
// stays in the first-level cache.
const forwardBatch = 512

// The kinds of a forwardMove, by what its child's rank needs from the
// opponent's row b (rowSowing's fields are from the mover's row a):
const (
	// moveInner banks nothing: the child is (b, a') in the layer, ranked
	// t.own[b] + k.
	moveInner = iota
	// moveAgain ends in the store with one seed banked and none sown
	// beyond: the child is (a', b), the mover to move again, in layer
	// n-1, ranked k + t.opp1[b].
	moveAgain
	// moveOver sows past the store into the opponent's row without a
	// capture: the child is (b + add, a') in layer n - banked, ranked
	// ownRank(b + add) + k.
	moveOver
	// moveCapture's last seed fell into an empty own pit: whether and
	// what it captures depends on the facing pit of b (+ add).
	moveCapture
	// moveAgainOver ends in the store after a lap through the opponent's
	// row: the child is (a', b + add) in layer n - banked.
	moveAgainOver
)

// forwardMove is one move of the own row a, the same beside every
// opponent row.
type forwardMove struct {
	kind    int
	sow     position.RowSowing
	k       uint64 // the rank part fixed by a (see the kinds)
	inner   uint64 // moveCapture: the rank part of (b, a') when nothing is captured
	layer   int    // the child's layer but for a capture's
	addSeed int    // seeds sown into the opponent's row
	ownSeed int    // seeds in the mover's row after the sowing
	facing  int    // moveCapture: the opponent's pit facing it
}

// forwarder is one worker of the forward pass: the moves of one own row,
// and the best move so far of each position of a run of opponent rows.
type forwarder struct {
	s     *layerSolver
	t     *rowTable
	state fwdState
	mem   memLower // the lower layers held in memory (a layer read from disk is nil), or nil
	// packed holds the lower layers kept packed (a layer not in it, or
	// not held, is in mem or read from disk).
	packed []packedValues
	edges  int64 // moves inside the layer seen so far

	moves []forwardMove
	// The exit pass's tile: the moves of its own row i are
	// tile[tileEnd[i-1]:tileEnd[i]].
	tile    []forwardMove
	tileEnd [exitTile]int
	// keys[j] is the best move so far of the position beside the run's
	// j-th opponent row, as moveKey orders moves.
	keys [forwardBatch]int32
}

func newForwarder(s *layerSolver, t *rowTable, state fwdState) *forwarder {
	f := &forwarder{s: s, t: t, state: state, packed: s.packed, moves: make([]forwardMove, 0, position.MaxPits)}
	switch l := s.lower.(type) {
	case memLower:
		f.mem = l
	case tieredLower:
		f.mem = l.mem
	}
	return f
}

// held reports whether lower layer n is in memory as int8s.
func (f *forwarder) held(n int) bool { return f.mem != nil && f.mem[n] != nil }

// packedAt returns lower layer n when it is held packed, else nil.
func (f *forwarder) packedAt(n int) *packedValues {
	if n < len(f.packed) && f.packed[n].held() {
		return &f.packed[n]
	}
	return nil
}

// block solves the positions of job j and returns how many there are.
func (f *forwarder) block(j forwardJob) (int64, error) {
	for a := j.ownLo; a < j.ownHi; a++ {
		f.prepare(f.t.rows[a])
		if len(f.moves) > 0 && !f.staysIn() && position.RowSeeds(f.t.rows[a]) < f.s.n {
			continue // solved by the exit pass (not a game end: no row is empty)
		}
		for lo := j.oppLo; lo < j.oppHi; lo += forwardBatch {
			if err := f.run(a, lo, min(lo+forwardBatch, j.oppHi)); err != nil {
				return 0, err
			}
		}
	}
	return int64(j.ownHi-j.ownLo) * int64(j.oppHi-j.oppLo), nil
}

// prepare lists the moves of the own row a: each pit sown once
// (position.Variant.SowRow), with the parts of its child's rank that do
// not depend on the opponent's row.
func (f *forwarder) prepare(a uint64) {
	s, ix := f.s, f.s.ix
	own := position.RowSeeds(a)
	opp := s.n - own // the opponent rows' seeds
	f.moves = f.moves[:0]
	for o := 0; o < ix.pits; o++ {
		if position.Pit(a, o) == 0 {
			continue
		}
		r := s.v.SowRow(a, o)
		m := forwardMove{sow: r, layer: s.n - r.Banked, addSeed: position.RowSeeds(r.OppAdd)}
		m.ownSeed = position.RowSeeds(r.Own)
		switch {
		case r.Capture >= 0:
			m.kind, m.facing = moveCapture, s.v.Facing(r.Capture)
			m.inner = ix.oppRank(r.Own, opp+m.addSeed)
		case r.Again && r.OppAdd == 0 && r.Banked == 1:
			m.kind, m.k = moveAgain, ix.ownRank(r.Own)
		case r.Again:
			m.kind, m.k = moveAgainOver, ix.ownRank(r.Own)
		case r.Banked == 0:
			m.kind, m.k = moveInner, ix.oppRank(r.Own, opp)
		default:
			m.kind, m.k = moveOver, ix.oppRank(r.Own, opp+m.addSeed)
		}
		f.moves = append(f.moves, m)
	}
}

// staysIn reports whether one of the prepared moves can stay in the layer
// (foldInner folds it).
func (f *forwarder) staysIn() bool {
	for i := range f.moves {
		m := &f.moves[i]
		if m.kind == moveInner || m.kind == moveCapture && m.sow.Banked == 0 && !f.s.v.CapturesFacing(0) {
			return true
		}
	}
	return false
}

// moveKey orders a position's moves so that the best has the largest key:
// by value, then for a win the shortest distance, for a loss the longest
// (doc.go); for a draw the distance does not matter. It is the value in
// the high 16 bits, and below it the distance, complemented for a win.
func moveKey(value, dist int) int32 {
	low := dist
	if value > 0 {
		low = 0xffff - dist
	}
	return int32(value<<16 | low)
}

// keyValueDist returns the value and distance of a position whose best
// move has key (a draw's distance is 0).
func keyValueDist(key int32) (value, dist int) {
	value, low := int(key>>16), int(key&0xffff)
	switch {
	case value > 0:
		dist = 0xffff - low
	case value < 0:
		dist = low
	}
	return value, dist
}

// innerKey is the key of a move to an in-layer child of value v and
// distance d after which the turn passes over (the only kind that stays
// in the layer).
func innerKey(v int8, d uint8) int32 {
	return moveKey(position.SownValue(0, false, int(v)), 1+int(d))
}

// run solves the positions of own row t.rows[a] beside the opponent rows
// t.rows[lo:hi]: each move folded into every position's key in turn, then
// the states written.
func (f *forwarder) run(a, lo, hi int) error {
	t, keys := f.t, f.keys[:hi-lo]
	base, opp := t.own[a], t.opp[lo:hi]
	if len(f.moves) == 0 || t.rows[lo] == 0 {
		// One row is empty: the game is over (in every position of the
		// run, since the opponent rows of a run have the same seeds).
		for j := range keys {
			p := position.Position{Own: t.rows[a], Opp: t.rows[lo+j]}
			f.state.val[base+opp[j]], f.state.dist[base+opp[j]] = int8(f.s.v.TerminalValue(p)), 0
		}
		return nil
	}
	for j := range keys {
		keys[j] = exitsKey(f.state.val[base+opp[j]])
	}
	for i := range f.moves {
		if err := f.foldInner(&f.moves[i], lo, keys); err != nil {
			return err
		}
	}
	for j, key := range keys {
		if err := f.state.set(base+opp[j], key); err != nil {
			return err
		}
	}
	return nil
}

// foldInner folds the moves of m that stay in the layer into the keys of
// the run's positions, whose opponent rows are t.rows[lo:lo+len(keys)]:
// a move that banks nothing, and under the standard rule the seed left in
// an empty pit facing an empty one.
func (f *forwarder) foldInner(m *forwardMove, lo int, keys []int32) error {
	t, val, dist := f.t, f.state.val, f.state.dist
	switch {
	case m.kind == moveInner:
		own := t.own[lo : lo+len(keys)]
		longest := uint8(0)
		for j := range keys {
			r := own[j] + m.k
			d := dist[r]
			longest = max(longest, d)
			keys[j] = max(keys[j], innerKey(val[r], d))
		}
		f.edges += int64(len(keys))
		if longest == fwdUnsolved {
			return errForwardOrder
		}
	case m.kind == moveCapture && m.sow.Banked == 0 && !f.s.v.CapturesFacing(0):
		for j := range keys {
			if f.s.v.CapturesFacing(position.Pit(t.rows[lo+j], m.facing)) {
				continue // it captures: an exit
			}
			key, err := f.innerChild(t.own[lo+j] + m.inner)
			if err != nil {
				return err
			}
			keys[j] = max(keys[j], key)
			f.edges++
		}
	}
	return nil
}

// foldExits folds the moves of m that leave the layer into the keys of
// the positions whose opponent rows are t.rows[lo:lo+len(keys)].
func (f *forwarder) foldExits(m *forwardMove, t *rowTable, lo int, keys []int32) {
	switch {
	case m.kind == moveInner:
		return
	case m.kind == moveAgain && f.held(m.layer):
		lower, opp1 := f.mem[m.layer], t.opp1[lo:lo+len(keys)]
		for j := range keys {
			v := position.SownValue(1, true, int(lower[m.k+opp1[j]]))
			keys[j] = max(keys[j], moveKey(v, 1))
		}
		return
	case m.kind == moveOver && f.held(m.layer):
		lower, rows, ix := f.mem[m.layer], t.rows[lo:lo+len(keys)], f.s.ix
		for j := range keys {
			v := position.SownValue(m.sow.Banked, false, int(lower[ix.ownRank(rows[j]+m.sow.OppAdd)+m.k]))
			keys[j] = max(keys[j], moveKey(v, 1))
		}
		return
	}
	if lower := f.packedAt(m.layer); lower != nil {
		switch m.kind {
		case moveAgain:
			opp1 := t.opp1[lo : lo+len(keys)]
			for j := range keys {
				v := position.SownValue(1, true, int(lower.value(m.k+opp1[j])))
				keys[j] = max(keys[j], moveKey(v, 1))
			}
			return
		case moveOver:
			rows, ix := t.rows[lo:lo+len(keys)], f.s.ix
			for j := range keys {
				v := position.SownValue(m.sow.Banked, false, int(lower.value(ix.ownRank(rows[j]+m.sow.OppAdd)+m.k)))
				keys[j] = max(keys[j], moveKey(v, 1))
			}
			return
		}
	}
	for j := range keys {
		if key, ok := f.exitChild(m, t, lo+j); ok {
			keys[j] = max(keys[j], key)
		}
	}
}

// exitChild returns the key of move m beside opponent row t.rows[b] when
// the move leaves the layer (ok false when it stays), any kind, the lower
// layers in memory or not.
func (f *forwarder) exitChild(m *forwardMove, t *rowTable, b int) (key int32, ok bool) {
	ix, n := f.s.ix, f.s.n
	opp := t.rows[b] + m.sow.OppAdd
	switch m.kind {
	case moveInner:
		return 0, false
	case moveAgain:
		return f.exitKey(m.sow.Banked, true, m.layer, m.k+t.opp1[b]), true
	case moveOver:
		return f.exitKey(m.sow.Banked, false, m.layer, ix.ownRank(opp)+m.k), true
	case moveAgainOver:
		return f.exitKey(m.sow.Banked, true, m.layer, m.k+ix.oppRank(opp, m.ownSeed)), true
	}
	if !f.s.v.CapturesFacing(position.Pit(opp, m.facing)) {
		if m.sow.Banked == 0 {
			return 0, false // the seed stays: an in-layer move
		}
		return f.exitKey(m.sow.Banked, false, m.layer, ix.ownRank(opp)+m.inner), true
	}
	// The capture is position's rule (Variant.Finish), not a copy: the
	// child is (oppAfter, ownAfter), the turn passing over.
	ownAfter, oppAfter, captured := f.s.v.Finish(m.sow, t.rows[b])
	rank := ix.ownRank(oppAfter) + ix.oppRank(ownAfter, n-captured-position.RowSeeds(ownAfter))
	return f.exitKey(captured, false, n-captured, rank), true
}

// innerChild returns the key of a move to the in-layer child of rank r.
func (f *forwarder) innerChild(r uint64) (int32, error) {
	d := f.state.dist[r]
	if d == fwdUnsolved {
		return 0, errForwardOrder
	}
	return innerKey(f.state.val[r], d), nil
}

// exitKey returns the key of a move that banks captured seeds (again: the
// mover moves again) to the child of rank r in the finished layer.
func (f *forwarder) exitKey(captured int, again bool, layer int, r uint64) int32 {
	var v int8
	if f.held(layer) {
		v = f.mem[layer][r]
	} else if p := f.packedAt(layer); p != nil {
		v = p.value(r)
	} else {
		v = f.s.lower.value(layer, r)
	}
	return moveKey(position.SownValue(captured, again, int(v)), 1)
}

// The exit pass. The moves that leave the layer read finished layers
// only, so they need no order: the exit pass folds them first, for every
// position, into a partial key kept in its value byte (exitsState), in an order
// that reads the lower layers' values in runs rather than scattered: a
// tile of own rows of s seeds, in rank order, beside every opponent row
// of n-s seeds, in rank order. A move's child keeps the opponent's row,
// sown into or captured from, as its own row, so beside one own row the
// children of one move sweep a window of consecutive ranks, and the tile's
// own rows, consecutive ranks themselves, write their positions' states
// side by side. The measure sweep then starts each position from its
// partial key and folds in only the moves that stay in the layer.

// exitTile is the number of own rows an exit job takes.
const exitTile = 32

// exitJob is own rows [lo, hi) of the exit table's group (seeds, 0).
type exitJob struct{ seeds, lo, hi int }

// forwardExits is the exit pass over the layer on s.threads workers, t
// the exit table (newRows unweighed).
func (s *layerSolver) forwardExits(ctx context.Context, t *rowTable, state fwdState) error {
	var jobs []exitJob
	for own := 1; own < s.n; own++ { // a row of 0 seeds: the game is over
		lo, hi := t.group(own, 0)
		for a := lo; a < hi; a += exitTile {
			jobs = append(jobs, exitJob{own, a, min(a+exitTile, hi)})
		}
	}
	// One forwarder a worker, not a job: a job's forwarder was 40 KB of
	// garbage (its tile, its keys), and the 7,000 jobs of layer 20 ran
	// the collector every few megabytes.
	var pool sync.Pool
	return parallel(ctx, s.threads, int64(len(jobs)), 1, func(lo, hi int64) error {
		f, ok := pool.Get().(*forwarder)
		if !ok {
			f = newForwarder(s, t, state)
		}
		for _, j := range jobs[lo:hi] {
			f.exitBlock(j)
		}
		pool.Put(f)
		return nil
	})
}

// exitBlock folds the exits of job j's positions into their partial keys
// in their value bytes. For a position with no move that stays in the
// layer (a quarter of kalah's layer 20) that is its final value, and
// markExits gives it its distance, 1; the measure sweep skips it.
func (f *forwarder) exitBlock(j exitJob) {
	t := f.t
	f.tile = f.tile[:0]
	for a := j.lo; a < j.hi; a++ {
		f.prepare(t.rows[a])
		f.tile = append(f.tile, f.moves...)
		f.tileEnd[a-j.lo] = len(f.tile)
	}
	blo, bhi := t.group(f.s.n-j.seeds, 0)
	for lo := blo; lo < bhi; lo += forwardBatch {
		hi := min(lo+forwardBatch, bhi)
		keys, opp := f.keys[:hi-lo], t.opp[lo:hi]
		from := 0
		for a := j.lo; a < j.hi; a++ {
			for k := range keys {
				keys[k] = math.MinInt32
			}
			moves := f.tile[from:f.tileEnd[a-j.lo]]
			from = f.tileEnd[a-j.lo]
			for i := range moves {
				f.foldExits(&moves[i], t, lo, keys)
			}
			base := t.own[a]
			for k, key := range keys {
				f.state.val[base+opp[k]] = exitsState(key)
			}
		}
	}
	f.s.prog.add(int64(j.hi-j.lo) * int64(bhi-blo))
}

// exitsState is the value byte that holds a position's best exit so far,
// whose key is moveKey(value, 1) (every exit is one ply): the value, or
// fwdNoExit when it has none.
func exitsState(key int32) int8 {
	if key == math.MinInt32 {
		return fwdNoExit
	}
	return int8(key >> 16)
}

// exitsKey inverts exitsState: math.MinInt32 for no exit.
func exitsKey(v int8) int32 {
	if v == fwdNoExit {
		return math.MinInt32
	}
	return moveKey(int(v), 1)
}

// markExits writes the distance bytes after the exit pass, t the exit
// table: for the positions the exit pass solved (their own row's moves
// all leave the layer, and there is one) 1, or 0 for a value of 0 (doc.go),
// and fwdUnsolved for the others
// (the order check, errForwardOrder, relies on it). The distances are
// allocated only now, so that the exit pass holds the lower layers beside
// the values alone. The writes go in rank order: the positions of one
// opponent row and own rows of s seeds are consecutive ranks.
func (s *layerSolver) markExits(ctx context.Context, t *rowTable, state fwdState) error {
	mark := make([]uint8, len(t.rows))
	f := newForwarder(s, t, fwdState{})
	for a, row := range t.rows {
		mark[a] = fwdUnsolved
		if seeds := position.RowSeeds(row); seeds > 0 && seeds < s.n {
			if f.prepare(row); !f.staysIn() {
				mark[a] = 1
			}
		}
	}
	type markJob struct{ seeds, lo, hi int }
	var jobs []markJob
	for own := 0; own <= s.n; own++ {
		alo, ahi := t.group(own, 0)
		blo, bhi := t.group(s.n-own, 0)
		step := max(1, BlockSize/max(1, ahi-alo))
		for b := blo; b < bhi; b += step {
			jobs = append(jobs, markJob{own, b, min(b+step, bhi)})
		}
	}
	return parallel(ctx, s.threads, int64(len(jobs)), 1, func(lo, hi int64) error {
		for _, j := range jobs[lo:hi] {
			alo, ahi := t.group(j.seeds, 0)
			own, marks := t.own[alo:ahi], mark[alo:ahi]
			for b := j.lo; b < j.hi; b++ {
				base := t.opp[b]
				for i, r := range own {
					d := marks[i]
					if d == 1 && state.val[base+r] == 0 {
						d = 0
					}
					state.dist[base+r] = d
				}
			}
		}
		return nil
	})
}
