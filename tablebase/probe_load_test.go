package tablebase

import (
	"context"
	"errors"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestProberLoad: a prober with layers 0..6 of a kalah tablebase to 8
// seeds loaded into memory answers every position of layers 0..8 (the
// loaded ones from memory, 7 and 8 through the block cache, layer 8 in two
// blocks) with plain minimax's value, written apart from the build; and
// Load reports the positions it holds. Each probe follows a Prefetch of
// its position, and one of 9 seeds, beyond the tablebase, is harmless.
// Locate finds every loaded position's value, and a cached block's, and
// nothing for a block not cached or beyond the tablebase.
func TestProberLoad(t *testing.T) {
	v := lookup(t, "kalah")
	const top = 8
	dir := build(t, v, top, MethodAuto)
	ix := NewIndex(v.Pits)
	for _, loadTo := range []int{6, -1} {
		pr, err := OpenProber(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pr.Load(context.Background(), loadTo, 3)
		if err != nil {
			t.Fatal(err)
		}
		want := Loaded{MaxSeeds: top}
		if loadTo >= 0 {
			want.MaxSeeds = loadTo
		}
		for n := 0; n <= want.MaxSeeds; n++ {
			want.Positions += ix.Size(n)
		}
		if got != want {
			t.Errorf("Load(%d) = %+v, want %+v", loadTo, got, want)
		}
		if loadTo >= 0 && pr.Locate(ix.Unrank(top, 0)) != nil {
			t.Errorf("Load(%d): Locate found a value of layer %d, not loaded nor cached", loadTo, top)
		}
		ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
		for n := 0; n <= top; n++ {
			for r := uint64(0); r < uint64(ix.Size(n)); r++ {
				p := ix.Unrank(n, r)
				if n <= want.MaxSeeds && pr.Locate(p) == nil {
					t.Fatalf("Load(%d): %s: not located in its loaded layer", loadTo, position.Format(v, p))
				}
				pr.Prefetch(p) // a hint only: the probe after it is unchanged
				if value, ok := pr.Probe(p); !ok || value != ref.value(p) {
					t.Fatalf("Load(%d): %s: probe %d (ok %v), minimax %d", loadTo, position.Format(v, p), value, ok, ref.value(p))
				}
				if at := pr.Locate(p); at == nil || int(*at) != ref.value(p) {
					t.Fatalf("Load(%d): %s: located %v after its probe, want its value %d", loadTo, position.Format(v, p), at, ref.value(p))
				}
			}
		}
		pr.Prefetch(ix.Unrank(top+1, 0))
		if at := pr.Locate(ix.Unrank(top+1, 0)); at != nil {
			t.Errorf("Load(%d): Locate found a value of %d seeds, beyond the tablebase", loadTo, top+1)
		}
		pr.Close()
	}
}

// TestProberLoadDamaged: a layer whose stored values no longer match the
// checksum its build recorded fails Load with a *DamageError naming it,
// its cause a *ChecksumError, and the prober still answers through its
// block cache.
func TestProberLoadDamaged(t *testing.T) {
	v := lookup(t, "kalah")
	dir := build(t, v, 8, MethodAuto)
	rewriteBlock(t, dir, v, 8, 1, func(blk []int8) { blk[77] = 8 - blk[77] })
	pr, err := OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	loaded, err := pr.Load(context.Background(), -1, 2)
	var dmg *DamageError
	var sum *ChecksumError
	if !errors.As(err, &dmg) || dmg.Seeds != 8 || !errors.As(err, &sum) || sum.Seeds != 8 {
		t.Fatalf("Load of a damaged layer 8: %v, want a *DamageError of layer 8 from a *ChecksumError", err)
	}
	if loaded.MaxSeeds != -1 || len(pr.resident) != 0 {
		t.Errorf("a failed Load left %+v, %d layers resident", loaded, len(pr.resident))
	}
	p := NewIndex(v.Pits).Unrank(5, 100)
	ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
	if got, ok := pr.Probe(p); !ok || got != ref.value(p) {
		t.Errorf("after the failed Load: %s: probe %d (ok %v), minimax %d", position.Format(v, p), got, ok, ref.value(p))
	}
}

// TestSeedsWithin: the layers that fit in a byte budget, against the
// count of positions with at most n seeds in 12 pits, C(n+12, 12),
// worked out apart from the index: 1, 13, 91, 455, 1820 for n = 0..4.
func TestSeedsWithin(t *testing.T) {
	dir := build(t, lookup(t, "awari"), 4, MethodAuto)
	pr, err := OpenProber(dir, lookup(t, "awari"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cumulative := []int64{1, 13, 91, 455, 1820}
	if got := pr.SeedsWithin(0); got != -1 {
		t.Errorf("SeedsWithin(0) = %d, want -1", got)
	}
	for n, c := range cumulative {
		if got := pr.SeedsWithin(c); got != n {
			t.Errorf("SeedsWithin(%d) = %d, want %d", c, got, n)
		}
		if got := pr.SeedsWithin(c - 1); got != n-1 {
			t.Errorf("SeedsWithin(%d) = %d, want %d", c-1, got, n-1)
		}
	}
	if got := pr.SeedsWithin(1 << 40); got != 4 {
		t.Errorf("SeedsWithin(2^40) = %d, want 4 (every stored layer)", got)
	}
}
