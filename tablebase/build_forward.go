package tablebase

import (
	"context"
	"errors"
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
// part of the opp row (the opp part depends on the own row only through
// its seed count, which the layer fixes once the opp row is known). So the
// rows of at most n seeds are listed once, grouped by seeds and weight,
// with both rank parts, and measure m is the union over own seeds s and
// own weight w of the products (rows of s seeds and weight w) x (rows of
// n-s seeds and weight m-w). The positions of one measure depend only on
// larger measures and lower layers, so both threads share each measure,
// with a barrier between measures.
//
// Memory: the layer's result is a propagation state array (4 bytes a
// position, build_propagate.go's format: resolved, value, distance), which
// encodeLayer compresses as it does a propagation's; the row tables are
// small (C(n+Pits, Pits) rows).

// forwardBytes is the forward pass's bytes a position of its layer: the
// state (4), and while the layer is encoded the values kept for the
// layers above (1) and the compressed blocks (well under 1).
const forwardBytes = 5.5

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
// by seeds and weight (w above), with the two parts of the rank of a
// position of layer n that the row contributes.
type rowTable struct {
	rows  []uint64 // packed rows, grouped by (seeds, weight)
	own   []uint64 // rank part of the row as the mover's row
	opp   []uint64 // rank part of the row as the opponent's row in layer n
	opp1  []uint64 // the same in layer n-1 (0 for the rows of n seeds)
	start [][]int  // rows of s seeds and weight w: rows[start[s][w]:start[s][w+1]]
}

// newRowTable lists the rows for layer n of ix. The rank parts come from
// Index.Rank itself: with z a row of s seeds, Rank(a, b) = Rank(a, 0) +
// Rank(z, b) - Rank(z, 0) for every row a of s seeds, since the opponent
// row's terms see the own row only through its seed count (index.go).
func newRowTable(ix *Index, n int) *rowTable {
	pits := ix.pits
	maxW := (pits - 1) * n
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
			byGroup[s][w] = append(byGroup[s][w], position.PackRow(pit[:pits]))
			return
		}
		for k := 0; k <= left; k++ {
			pit[i] = k
			walk(i+1, left-k, w+i*k)
		}
	}
	walk(0, n, 0)
	t := &rowTable{start: make([][]int, n+1)}
	for s := 0; s <= n; s++ {
		t.start[s] = make([]int, maxW+2)
		for w := 0; w <= maxW; w++ {
			t.start[s][w] = len(t.rows)
			for _, r := range byGroup[s][w] {
				t.rows = append(t.rows, r)
				t.own = append(t.own, ix.Rank(position.Position{Own: r}))
				t.opp = append(t.opp, ix.oppPart(r, n-s))
				t.opp1 = append(t.opp1, ix.oppPart(r, max(n-1-s, 0)))
			}
		}
		t.start[s][maxW+1] = len(t.rows)
	}
	return t
}

// oppPart returns the part of Rank that row contributes as the
// opponent's row beside an own row of own seeds: Rank(a, row) - Rank(a, 0)
// for any such a (index.go's opponent terms see a only through its seeds).
func (ix *Index) oppPart(row uint64, own int) uint64 {
	z := position.Position{Own: uint64(own)} // own seeds in pit 1
	return ix.Rank(position.Position{Own: z.Own, Opp: row}) - ix.Rank(z)
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
// state of every position (every one resolved, value 0 too).
func (s *layerSolver) forward(ctx context.Context) ([]uint32, error) {
	state := make([]uint32, s.size)
	hugepage.Advise(state)
	t := newRowTable(s.ix, s.n)
	var edges atomic.Int64
	var jobs []forwardJob
	for m := (s.ix.pits - 1) * s.n; m >= 0; m-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		jobs = t.jobs(s.n, m, jobs)
		if err := s.forwardMeasure(jobs, t, state, &edges); err != nil {
			return nil, err
		}
		s.rounds++
	}
	s.edges = edges.Load()
	s.prog.reach(3 * s.size)
	return state, nil
}

// forwardMeasure solves the blocks of one measure on s.threads workers
// (one worker when they are few).
func (s *layerSolver) forwardMeasure(jobs []forwardJob, t *rowTable, state []uint32, edges *atomic.Int64) error {
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
			s.prog.add(3 * done)
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

// forwardBatch is how many positions a worker gathers the children of at
// once: the child look-ups are cache misses (the layers are far larger
// than the caches, and children are scattered), and loads that do not
// depend on each other, issued in one tight loop, overlap in the memory
// system, where one position at a time would wait for each in turn.
const forwardBatch = 256

// forwarder is one worker of the forward pass: a batch of positions, their
// moves, and their children's ranks and results.
type forwarder struct {
	s     *layerSolver
	t     *rowTable
	state []uint32
	mem   memLower // the lower layers when they are in memory, else nil
	edges int64    // moves inside the layer seen so far
	parts [16]partCache

	count int                                           // positions in the batch
	pos   [forwardBatch]position.Position               // the positions
	at    [forwardBatch]uint32                          // their ranks
	nm    [forwardBatch]int                             // their number of moves
	moves [forwardBatch][position.MaxPits]position.Move // their moves
	// The children in the layer (rank, then state) and in lower layers
	// (layer, rank, then value), in the batch's move order.
	inner, innerState []uint32
	exitLayer         []int
	exitRank          []uint32
	exitValue         []int8
}

func newForwarder(s *layerSolver, t *rowTable, state []uint32) *forwarder {
	f := &forwarder{s: s, t: t, state: state}
	f.mem, _ = s.lower.(memLower)
	const moves = forwardBatch * position.MaxPits
	f.inner, f.innerState = make([]uint32, 0, moves), make([]uint32, moves)
	f.exitLayer, f.exitRank, f.exitValue = make([]int, 0, moves), make([]uint32, 0, moves), make([]int8, moves)
	return f
}

// block solves the positions of job j and returns how many there are.
func (f *forwarder) block(j forwardJob) (int64, error) {
	t := f.t
	for a := j.ownLo; a < j.ownHi; a++ {
		own, base := t.rows[a], t.own[a]
		for b := j.oppLo; b < j.oppHi; b++ {
			f.add(position.Position{Own: own, Opp: t.rows[b]}, uint32(base+t.opp[b]), b)
			if f.count == forwardBatch {
				if err := f.flush(); err != nil {
					return 0, err
				}
			}
		}
	}
	return int64(j.ownHi-j.ownLo) * int64(j.oppHi-j.oppLo), f.flush()
}

// add puts p, of rank r and opponent row t.rows[b], in the batch with its
// moves and their children's ranks.
func (f *forwarder) add(p position.Position, r uint32, b int) {
	s, k := f.s, f.count
	f.pos[k], f.at[k] = p, r
	nm := s.v.Moves(p, &f.moves[k])
	f.nm[k] = nm
	for j := range f.moves[k][:nm] {
		m := &f.moves[k][j]
		rank := uint32(f.rank(p, m, b))
		if m.Captured > 0 {
			f.exitLayer = append(f.exitLayer, s.n-int(m.Captured))
			f.exitRank = append(f.exitRank, rank)
		} else {
			f.inner = append(f.inner, rank)
		}
	}
	f.count++
}

// rank returns the rank of m.Next, played from p whose opponent row is
// t.rows[b]. A rank is the own row's part plus the opponent row's part
// given the own row's seeds (rowTable). While a block sweeps the opponent
// rows, the own row is fixed, and most children keep a row of p whole: a
// move inside the layer leads to (p.Opp, Y), kalah's extra move to (X,
// p.Opp), with Y and X the same for every opponent row, and a capture or
// a lap past the store keeps the same opponent row for many of them. So
// p.Opp's own part comes from the table, the other parts are remembered by
// pit (partCache), and only the rest is ranked.
func (f *forwarder) rank(p position.Position, m *position.Move, b int) uint64 {
	s, next := f.s, m.Next
	slot := &f.parts[m.Pit&15]
	switch {
	case next.Own == p.Opp:
		x := position.RowSeeds(next.Own)
		if slot.oppRow != next.Opp || slot.oppSeeds != x {
			slot.oppRow, slot.oppSeeds, slot.opp = next.Opp, x, s.ix.oppPart(next.Opp, x)
		}
		return f.t.own[b] + slot.opp
	case next.Opp == p.Opp && m.Captured == 1:
		if slot.ownRow != next.Own {
			slot.ownRow, slot.own = next.Own, s.ix.Rank(position.Position{Own: next.Own})
		}
		return slot.own + f.t.opp1[b]
	}
	return s.ix.Rank(next)
}

// partCache holds the rank parts forwarder.rank remembers for one pit: of
// oppRow as the opponent's row beside an own row of oppSeeds seeds, and
// of ownRow as the own row.
type partCache struct {
	oppRow, ownRow uint64
	oppSeeds       int
	opp, own       uint64
}

// flush gathers the batch's children, solves its positions and empties it.
func (f *forwarder) flush() error {
	inner, innerState := f.inner, f.innerState[:len(f.inner)]
	for i, r := range inner {
		innerState[i] = f.state[r]
	}
	exitValue := f.exitValue[:len(f.exitRank)]
	if f.mem != nil {
		for i, r := range f.exitRank {
			exitValue[i] = f.mem[f.exitLayer[i]][r]
		}
	} else {
		for i, r := range f.exitRank {
			exitValue[i] = f.s.lower.value(f.exitLayer[i], uint64(r))
		}
	}
	ii, ie := 0, 0
	for k := range f.count {
		st, err := f.solve(k, innerState, exitValue, &ii, &ie)
		if err != nil {
			return err
		}
		f.state[f.at[k]] = st
	}
	f.edges += int64(len(inner))
	f.count, f.inner, f.exitLayer, f.exitRank = 0, f.inner[:0], f.exitLayer[:0], f.exitRank[:0]
	return nil
}

// solve returns the final state of the batch's position k from its
// children's gathered results (taken from *ii and *ie on): the best move's
// value (the game end's when there is none) and the distance of doc.go,
// the shortest of the value-keeping moves for a winner, the longest for a
// loser, 0 for a draw or the game end.
func (f *forwarder) solve(k int, innerState []uint32, exitValue []int8, ii, ie *int) (uint32, error) {
	p, nm := f.pos[k], f.nm[k]
	if nm == 0 {
		return resolvedAt(int8(f.s.v.TerminalValue(p)), 0), nil
	}
	best, dist := -1<<30, 0
	for j := range f.moves[k][:nm] {
		m := &f.moves[k][j]
		value, d := 0, 1
		if m.Captured > 0 {
			value = m.Value(p, int(exitValue[*ie]))
			*ie++
		} else {
			st := innerState[*ii]
			*ii++
			if st&resolved == 0 {
				return 0, errForwardOrder
			}
			value, d = m.Value(p, int(stateValue(st))), 1+int(stateDistance(st))
		}
		switch {
		case value > best:
			best, dist = value, d
		case value == best && best > 0:
			dist = min(dist, d)
		case value == best && best < 0:
			dist = max(dist, d)
		}
	}
	if best == 0 {
		dist = 0
	}
	if dist > MaxDistance {
		return 0, errDistance
	}
	return resolvedAt(int8(best), uint16(dist)), nil
}
