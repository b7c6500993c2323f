package tablebase

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mancala-solver/mancala/position"
)

// Captures' values by message (issue 38), as Romein and Bal's distributed
// awari build did ("Solving Awari with Parallel Retrograde Analysis",
// IEEE Computer 36(10), 2003): in a build across processes rank t holds
// range t (partRanges) of every lower layer, and the value of a capture's
// child is asked of the rank that owns the child. A rank scans its own
// range in lookup rounds of at most lookupChunk positions: it generates
// the moves, fills the counts and game ends at once, and gathers each
// capture as a query (the child's layer and its rank relative to the
// owner's range) bucketed by owner; one Cluster.AllToAll sends the
// queries, each rank answers those it received from its own ranges (one
// byte a value), a second AllToAll sends the answers back, and each rank
// sets its positions' exits from them. Every rank makes the same number
// of rounds, a function of the layer's size and the ranks only (empty
// rounds where a range is short), so the collectives match.

// lookupChunk is the most positions of its range a rank scans in one
// lookup round: it bounds what a round holds (about half a capture a
// position in awari, each about 40 bytes at the peak: its query, 5
// bytes, and its place, 8, with their slices' slack, the queries' copies
// sent and received, the answers) to some tens of MiB, where 4 Mi
// positions made a rank of awari to 16 hold more for its lookups than
// for its range; a rank's range of awari's layer 48 at 72 ranks takes
// about 3,700 rounds. A variable only for tests, which make it small to
// run many rounds.
var lookupChunk int64 = 1 << 20

// queryBytes is a query's size: the child's layer (one byte), then its
// rank relative to the owner's range (little-endian uint32: a range is
// under 2^32 ranks).
const queryBytes = 5

// captureQueries is one lookup round's captures, bucketed by the rank
// that owns their child.
type captureQueries struct {
	ask  [][]byte        // ask[to]: the queries for rank to, queryBytes each
	wait [][]waitingExit // wait[to][j]: the capture whose child ask[to]'s j-th query names
}

// waitingExit is a capture waiting for its child's value: the parent's
// index in the solver's arrays and what Move.Value needs of the move.
type waitingExit struct {
	parent   uint32
	captured int8
	again    bool
}

func newCaptureQueries(ranks int) *captureQueries {
	return &captureQueries{ask: make([][]byte, ranks), wait: make([][]waitingExit, ranks)}
}

// add records the captures of b as queries.
func (q *captureQueries) add(s *layerSolver, b *exitBatch) {
	for j := range b.moves[:b.n] {
		e := &b.moves[j]
		to, rel := s.childOwner(e.layer, e.child)
		q.ask[to] = binary.LittleEndian.AppendUint32(append(q.ask[to], byte(e.layer)), rel)
		q.wait[to] = append(q.wait[to], waitingExit{parent: uint32(e.rank - s.lo), captured: e.move.Captured, again: e.move.MovesAgain(e.parent)})
	}
}

// join appends r's queries to q's.
func (q *captureQueries) join(r *captureQueries) {
	for to := range q.ask {
		q.ask[to] = append(q.ask[to], r.ask[to]...)
		q.wait[to] = append(q.wait[to], r.wait[to]...)
	}
}

// childOwner returns the rank that owns rank child of lower layer m, and
// child relative to that rank's range.
func (s *layerSolver) childOwner(m int, child uint64) (int, uint32) {
	span := uint64(s.lowerSpans[m])
	t := child / span
	return int(t), uint32(child - t*span)
}

// lowerSpans returns the range size of every layer below n split in
// parts (partRanges).
func lowerSpans(ix *Index, n, parts int) []int64 {
	spans := make([]int64, n)
	for m := range spans {
		spans[m] = partRanges(ix.Size(m), parts)
	}
	return spans
}

// scanOwn is scan for a rank of a build across processes: its own range
// (partRanges), in lookup rounds (see above). It returns the moves that
// stay in the layer and how many of them keep the mover.
func (s *layerSolver) scanOwn(ctx context.Context) (int64, int64, error) {
	ranks := s.cluster.Size()
	span := partRanges(s.size, ranks) // every rank makes span/lookupChunk rounds
	ownLo, ownHi := s.lo, s.hi
	var edges, keeps atomic.Int64
	var termMu sync.Mutex
	for start := int64(0); start < span; start += lookupChunk {
		lo, hi := min(ownLo+start, ownHi), min(ownLo+start+lookupChunk, ownHi)
		q := newCaptureQueries(ranks)
		var mu sync.Mutex
		err := parallel(ctx, s.threads, hi-lo, chunkSize, func(a, b int64) error {
			local := newCaptureQueries(ranks)
			inner, keep, err := s.scanRange(lo+a, lo+b, nil, &termMu, local)
			edges.Add(inner)
			keeps.Add(keep)
			s.prog.add(b - a)
			mu.Lock()
			q.join(local)
			mu.Unlock()
			return err
		})
		if err != nil {
			return 0, 0, err
		}
		if err := s.lookUp(ctx, q); err != nil {
			return 0, 0, err
		}
	}
	return edges.Load(), keeps.Load(), nil
}

// lookUp is a lookup round's exchange: it sends q's queries to their
// owners, answers those the other ranks sent from this rank's ranges of
// the lower layers, and sets the exits of q's captures from the answers.
func (s *layerSolver) lookUp(ctx context.Context, q *captureQueries) error {
	in, err := s.cluster.AllToAll(ctx, q.ask)
	if err != nil {
		return err
	}
	q.ask = nil
	answers := make([][]byte, len(in))
	for from, queries := range in {
		if len(queries)%queryBytes != 0 {
			return fmt.Errorf("lookup: %d bytes of queries from rank %d, not a multiple of %d", len(queries), from, queryBytes)
		}
		a := make([]byte, len(queries)/queryBytes)
		for j := range a {
			qb := queries[j*queryBytes:]
			a[j] = byte(s.ownLower(int(qb[0]), binary.LittleEndian.Uint32(qb[1:])))
		}
		answers[from] = a
	}
	back, err := s.cluster.AllToAll(ctx, answers)
	if err != nil {
		return err
	}
	for to, waiting := range q.wait {
		if len(back[to]) != len(waiting) {
			return fmt.Errorf("lookup: %d answers from rank %d to %d queries", len(back[to]), to, len(waiting))
		}
		for j, w := range waiting {
			v := int8(position.SownValue(int(w.captured), w.again, int(int8(back[to][j]))))
			s.exit[w.parent] = max(s.exit[w.parent], v)
		}
	}
	return nil
}
