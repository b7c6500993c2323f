package tablebase

import (
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// boards lists every board of ring pits holding n seeds, by plain
// recursion: an enumeration independent of the index.
func boards(pits, n int) []position.Position {
	var out []position.Position
	counts := make([]int, 2*pits)
	var fill func(i, left int)
	fill = func(i, left int) {
		if i == len(counts)-1 {
			counts[i] = left
			out = append(out, position.Position{
				Own: position.PackRow(counts[:pits]), Opp: position.PackRow(counts[pits:])})
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			fill(i+1, left-c)
		}
	}
	fill(0, n)
	return out
}

// TestSizeMatchesEnumeration: Size(n) = C(n+P-1, P-1) is the number of
// boards, and Rank maps them one-to-one onto 0..Size(n)-1.
func TestSizeMatchesEnumeration(t *testing.T) {
	for _, pits := range []int{6, 7} {
		ix := NewIndex(pits)
		for n := 0; n <= 6; n++ {
			all := boards(pits, n)
			if int64(len(all)) != ix.Size(n) {
				t.Fatalf("pits %d layer %d: Size %d, %d boards", pits, n, ix.Size(n), len(all))
			}
			seen := make([]bool, len(all))
			for _, p := range all {
				r := ix.Rank(p)
				if r >= uint64(len(all)) || seen[r] {
					t.Fatalf("pits %d layer %d: rank %d out of range or repeated", pits, n, r)
				}
				seen[r] = true
			}
		}
	}
}

// TestSizeValues checks Size against binomials worked out by hand.
func TestSizeValues(t *testing.T) {
	// C(11,11), C(12,11), C(31,11), C(27,13), C(59,11)
	cases := []struct{ pits, n int }{{6, 0}, {6, 1}, {6, 20}, {7, 14}, {6, 48}}
	want := []int64{1, 12, 84672315, 20058300, 279871768995}
	for i, c := range cases {
		if got := NewIndex(c.pits).Size(c.n); got != want[i] {
			t.Errorf("Size(pits %d, n %d) = %d, want %d", c.pits, c.n, got, want[i])
		}
	}
}

// TestRankUnrankSmall: rank(unrank(i)) == i for every i of the layers up to
// 8 seeds, the board has n seeds, and the cursor walks the same sequence.
func TestRankUnrankSmall(t *testing.T) {
	for _, pits := range []int{6, 7} {
		ix := NewIndex(pits)
		for n := 0; n <= 8; n++ {
			c := ix.newCursor(n, 0)
			for i := range ix.Size(n) {
				p := ix.Unrank(n, uint64(i))
				if p.Seeds() != n {
					t.Fatalf("pits %d: Unrank(%d, %d) has %d seeds", pits, n, i, p.Seeds())
				}
				if r := ix.Rank(p); r != uint64(i) {
					t.Fatalf("pits %d layer %d: Rank(Unrank(%d)) = %d", pits, n, i, r)
				}
				if i > 0 {
					c.next()
				}
				if c.position() != p {
					t.Fatalf("pits %d layer %d rank %d: cursor at %+v, Unrank gives %+v", pits, n, i, c.position(), p)
				}
			}
		}
	}
}

// TestRankUnrankLarge: the round trip on random ranks of large layers, up
// to akon's full 70 seeds, and cursor steps from random starting points.
func TestRankUnrankLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pits := range []int{6, 7} {
		ix := NewIndex(pits)
		for _, n := range []int{12, 20, 31, 48, 70} {
			size := uint64(ix.Size(n))
			for range 2000 {
				r := rng.Uint64N(size - 1)
				p := ix.Unrank(n, r)
				if p.Seeds() != n || ix.Rank(p) != r {
					t.Fatalf("pits %d layer %d: Rank(Unrank(%d)) = %d, %d seeds", pits, n, r, ix.Rank(p), p.Seeds())
				}
				c := ix.newCursor(n, r)
				c.next()
				if got := ix.Rank(c.position()); got != r+1 {
					t.Fatalf("pits %d layer %d: cursor after %d at rank %d", pits, n, r, got)
				}
			}
			if last := ix.Unrank(n, size-1); ix.Rank(last) != size-1 {
				t.Fatalf("pits %d layer %d: last rank does not round-trip", pits, n)
			}
		}
	}
}

// TestLayerUnranker: the table-assisted unrank equals the searched one
// (Index.Unrank, itself checked against Rank above) on every rank of
// small layers and random ranks of large ones, with the widest table and
// with narrower ones down to a one-pit prefix.
func TestLayerUnranker(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pits := range []int{3, 6, 7} {
		ix := NewIndex(pits)
		for _, n := range []int{0, 1, 5, 8, 24, 40} {
			for _, limit := range []uint64{maxPrefixTable, 2000, 1} {
				u := ix.newLayerUnrankerCapped(n, limit)
				size := uint64(ix.Size(n))
				for i := range min(size, 20000) {
					r := i
					if size > 20000 {
						r = rng.Uint64N(size)
					}
					if got, want := u.unrank(r), ix.Unrank(n, r); got != want {
						t.Fatalf("pits %d layer %d rank %d (table of %d pits): %+v, Unrank %+v", pits, n, r, u.low, got, want)
					}
				}
			}
		}
	}
}

// TestRankExamples pins ranks worked out by hand from the formula: the
// first board of a layer has every seed in the last pit, the last board
// every seed in the first.
func TestRankExamples(t *testing.T) {
	ix := NewIndex(6)
	// All n seeds in ring pit 11 (Opp pit 6): every prefix sum is 0, rank 0.
	if r := ix.Rank(position.Position{Opp: position.PackRow([]int{0, 0, 0, 0, 0, 5})}); r != 0 {
		t.Errorf("seeds in the last pit: rank %d, want 0", r)
	}
	// All n seeds in ring pit 0: x_i = n for i = 0..10, rank = sum
	// C(n+i, i+1) = C(n+11, 11) - 1, the last rank of the layer.
	if r := ix.Rank(position.Position{Own: 5}); r != uint64(ix.Size(5)-1) {
		t.Errorf("seeds in the first pit: rank %d, want %d", r, ix.Size(5)-1)
	}
	// One seed in Own pit 2 (ring 1): x_0 = 0, x_i = 1 for i >= 1, rank =
	// sum_{i=1}^{10} C(1+i, i+1) = 10.
	if r := ix.Rank(position.Position{Own: 1 << 8}); r != 10 {
		t.Errorf("one seed in pit 2: rank %d, want 10", r)
	}
}

func BenchmarkRank(b *testing.B) {
	ix := NewIndex(6)
	ps := make([]position.Position, 1024)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range ps {
		ps[i] = ix.Unrank(20, rng.Uint64N(uint64(ix.Size(20))))
	}
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		sink += ix.Rank(ps[i&1023])
	}
	_ = sink
}

func BenchmarkUnrank(b *testing.B) {
	ix := NewIndex(6)
	const n = 20
	rs := make([]uint64, 1024)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range rs {
		rs[i] = rng.Uint64N(uint64(ix.Size(n)))
	}
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		sink += ix.Unrank(n, rs[i&1023]).Own
	}
	_ = sink
}

func BenchmarkLayerUnrank(b *testing.B) {
	ix := NewIndex(6)
	const n = 20
	u := ix.newLayerUnranker(n)
	rs := make([]uint64, 1024)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range rs {
		rs[i] = rng.Uint64N(uint64(ix.Size(n)))
	}
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		sink += u.unrank(rs[i&1023]).Own
	}
	_ = sink
}
