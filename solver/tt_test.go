package solver

import (
	"math/rand/v2"
	"testing"
)

// TestTableGrowKeepsEntries stores entries (board and line ones) in a
// table that starts at its first size, grows it twice, and finds every
// entry again: growing moves entries, it loses none that had room.
func TestTableGrowKeepsEntries(t *testing.T) {
	tt := newTable(4 * firstTableMiB)
	first := tt.mask.Load() + 1
	rng := rand.New(rand.NewPCG(1, 2))
	type stored struct{ board, key uint64 }
	var all []stored
	for len(all) < int(first) { // one entry a bucket on average: few evictions
		board := rng.Uint64()
		key := board
		if len(all)%3 == 0 {
			key = rng.Uint64() // a line entry
		}
		tt.store(board, key, result{score: 5, lower: true, upper: true, proven: true, draft: 7, move: 3})
		all = append(all, stored{board, key})
	}
	kept := all[:0] // those still there: a full bucket lost some
	for _, s := range all {
		if _, ok := tt.probe(s.board, s.key); ok {
			kept = append(kept, s)
		}
	}
	if len(kept) < len(all)*9/10 {
		t.Fatalf("%d of %d entries kept before growing", len(kept), len(all))
	}
	for range 2 {
		tt.filled.Store(tt.quarter())
		tt.grow()
	}
	if got := tt.mask.Load() + 1; got != 4*first {
		t.Fatalf("grown to %d buckets, want %d", got, 4*first)
	}
	for _, s := range kept {
		e, ok := tt.probe(s.board, s.key)
		if !ok || e.lo != 5 || e.hi != 5 || !e.loProven || e.move != 3 || e.draft != 7 {
			t.Fatalf("entry %x/%x after growing: %+v, %v", s.board, s.key, e, ok)
		}
	}
}
