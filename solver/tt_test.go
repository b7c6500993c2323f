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

// TestMergeAgreesWithEntries: merge, on packed words, does what
// mergeEntry, the same rules stated on unpacked entries, does, for random
// entries and results (draft ties, estimates and proven bounds of either
// kind, lines, drafts past maxDraft).
func TestMergeAgreesWithEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bound := func(none int) int {
		if rng.IntN(4) == 0 {
			return none
		}
		return rng.IntN(141) - 70
	}
	for range 200_000 {
		e := entry{lo: bound(noLower), hi: bound(noUpper), loProven: rng.IntN(2) == 0, hiProven: rng.IntN(2) == 0,
			loLine: rng.IntN(4) == 0, hiLine: rng.IntN(4) == 0, move: rng.IntN(8), draft: rng.IntN(6),
			gen: uint8(rng.IntN(256)), line: rng.IntN(2) == 0}
		r := result{score: rng.IntN(141) - 70, lower: rng.IntN(2) == 0, upper: rng.IntN(2) == 0, proven: rng.IntN(2) == 0,
			onLine: rng.IntN(4) == 0, draft: rng.IntN(6), move: rng.IntN(8), line: e.line}
		if rng.IntN(100) == 0 {
			r.draft = maxDraft + rng.IntN(3)
		}
		if rng.IntN(8) == 0 {
			r.score = e.lo // ties
		}
		high := uint64(rng.IntN(1<<highBits)) << highShift
		gen := uint8(rng.IntN(256))
		want := mergeEntry(e, r, gen).pack() | high
		if got := merge(e.pack()|high, &r, gen); got != want {
			t.Fatalf("merge %+v into %+v: %+v, want %+v", r, e, unpack(got), unpack(want))
		}
	}
}

// mergeEntry is merge stated on an unpacked entry, the second method
// TestMergeAgreesWithEntries checks merge against. Proven bounds are kept
// and only ever tightened. An estimate from a deeper draft replaces the
// estimates of a shallower one; one from a shallower draft is dropped.
func mergeEntry(e entry, r result, gen uint8) entry {
	e.gen = gen
	if r.move != 0 {
		e.move = r.move
	}
	if !r.proven {
		switch {
		case r.draft < e.draft:
			return e
		case r.draft > e.draft:
			if !e.loProven {
				e.lo = noLower
			}
			if !e.hiProven {
				e.hi = noUpper
			}
			e.draft = min(r.draft, maxDraft)
		}
	}
	if r.lower {
		e.lo, e.loProven, e.loLine = tightenEntry(e.lo, e.loProven, e.loLine, r, r.score > e.lo)
	}
	if r.upper {
		e.hi, e.hiProven, e.hiLine = tightenEntry(e.hi, e.hiProven, e.hiLine, r, r.score < e.hi)
	}
	return e
}

// tightenEntry returns the bound to keep: a proven bound beats an
// estimate, a tighter proven bound (or an equal one resting on less)
// beats a looser one, and a new estimate replaces an old one.
func tightenEntry(old int, oldProven, oldLine bool, r result, tighter bool) (int, bool, bool) {
	switch {
	case r.proven && (!oldProven || tighter || r.score == old && oldLine && !r.onLine):
		return r.score, true, r.onLine
	case !r.proven && !oldProven:
		return r.score, false, false
	}
	return old, oldProven, oldLine
}

// TestTableFilter: every key stored passes the filter and is found; a key
// never stored whose filter bit no stored key shares is refused without
// its bucket being read; once off (half its bits set, or stopFilter) the
// filter passes every key and sets no bits, and a clear turns it on again,
// empty.
func TestTableFilter(t *testing.T) {
	tt := newTable(firstTableMiB)
	if got := len(tt.filter) * 64; got != maxFilterBits {
		t.Fatalf("filter of %d bits, want %d", got, maxFilterBits)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	bitsOf := map[uint64]bool{} // the filter bits (key >> filterShift) stored
	var stored []uint64
	for range 1000 {
		key := rng.Uint64()
		tt.store(key, key, result{score: 1, lower: true, proven: true, draft: 3})
		stored, bitsOf[key>>tt.filterShift] = append(stored, key), true
	}
	for _, key := range stored {
		if e, ok := tt.probe(key, key); !ok || e.lo != 1 {
			t.Fatalf("stored key %x: %+v, %v", key, e, ok)
		}
	}
	refused := 0
	for range 1000 {
		key := rng.Uint64()
		if bitsOf[key>>tt.filterShift] {
			continue
		}
		if tt.mayHold(key) {
			t.Fatalf("key %x never stored passes the filter", key)
		}
		refused++
	}
	if refused < 900 {
		t.Fatalf("%d keys refused", refused)
	}

	tt.addFilterSet(maxFilterBits / 2)
	key := rng.Uint64()
	if !tt.mayHold(key) {
		t.Fatal("the filter, off, refuses a key")
	}
	if _, newBit := tt.store(key, key, result{score: 2, lower: true, draft: 1}); newBit {
		t.Fatal("the filter, off, gains a bit")
	}
	tt.clear()
	if !tt.filterOn.Load() || tt.mayHold(stored[0]) {
		t.Fatal("after clear the filter is not on and empty")
	}
	tt.stopFilter()
	if !tt.mayHold(stored[0]) {
		t.Fatal("after stopFilter the filter refuses a key")
	}
}
