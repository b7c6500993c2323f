package tablebase

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// colexRank is Index.Rank worked out apart: the stars-and-bars subset of
// the board's prefix sums ranked by the combinatorial number system, in
// big integers (math/big's Binomial, not the index's table).
func colexRank(pits []int) *big.Int {
	r, x := new(big.Int), 0
	for i := 0; i < len(pits)-1; i++ {
		x += pits[i]
		r.Add(r, new(big.Int).Binomial(int64(x+i), int64(i+1)))
	}
	return r
}

// randomBoard returns a board of ring pits holding n seeds, uniform over
// the layer: ring-1 bars placed among n+ring-1 slots (stars and bars).
func randomBoard(rng *rand.Rand, ring, n int) []int {
	bars := rng.Perm(n + ring - 1)[:ring-1]
	slices.Sort(bars)
	pits, prev := make([]int, ring), -1
	for i, b := range bars {
		pits[i], prev = b-prev-1, b
	}
	pits[ring-1] = n + ring - 2 - prev
	return pits
}

// TestIndex64 covers the ranks past 2^32 that the 48-seed layers of the
// twelve-pit variants reach (awari's layer 32 is the first: C(43,11) =
// 5,752,004,349 boards; layer 48 has C(59,11) = 279,871,768,995 and
// layers 0..48 C(60,12) = 1,399,358,844,975). For every twelve-pit
// variant's index and every layer 31..48: random boards rank to the
// number colexRank works out and unrank back to themselves; random ranks
// (with 0, the last, and those around 2^32) unrank to a board of the
// layer that ranks back to them; the layer's table-assisted unranker, the
// cursor (and its next board) and the row parts of the rank agree.
func TestIndex64(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 3))
	ix := NewIndex(6)
	total := int64(0)
	for n := 0; n <= 48; n++ {
		total += ix.Size(n)
	}
	if total != 1_399_358_844_975 || ix.Size(48) != 279_871_768_995 || ix.Size(32) != 5_752_004_349 || ix.Size(31) != 4_280_561_376 {
		t.Fatalf("sizes: 0..48 %d, layer 48 %d, 32 %d, 31 %d", total, ix.Size(48), ix.Size(32), ix.Size(31))
	}
	per := 200
	if testsize.Short() {
		per = 50
	}
	var twelve []*position.Variant
	for _, v := range position.Variants() {
		if v.Pits == 6 {
			twelve = append(twelve, v)
		}
	}
	for n := 31; n <= 48; n++ {
		// One table-assisted unranker a layer, shared by the variants
		// whose indexes have the same pits: building it (tables of
		// millions of entries) was most of this test's time under -race
		// (13.9 of 14 s, once a variant and layer).
		var u *layerUnranker
		for _, v := range twelve {
			ix := NewIndex(VariantOf(v).Pits)
			if u == nil || u.ix.pits != ix.pits {
				u = ix.newLayerUnranker(n)
			}
			size := uint64(ix.Size(n))
			for range per {
				pits := randomBoard(rng, 12, n)
				p := position.Position{Own: position.PackRow(pits[:6]), Opp: position.PackRow(pits[6:])}
				r := ix.Rank(p)
				if want := colexRank(pits); !want.IsUint64() || r != want.Uint64() || r >= size {
					t.Fatalf("%s layer %d: Rank(%v) = %d, want %v (< %d)", v.Name, n, pits, r, want, size)
				}
				if q := ix.Unrank(n, r); q != p {
					t.Fatalf("%s layer %d: Unrank(Rank(%v)) = %v", v.Name, n, pits, q)
				}
				if s := ix.ownRank(p.Own) + ix.oppRank(p.Opp, position.RowSeeds(p.Own)); s != r {
					t.Fatalf("%s layer %d: row parts of %v sum to %d, Rank %d", v.Name, n, pits, s, r)
				}
			}
			ranks := []uint64{0, size - 1}
			for _, r := range []uint64{1<<32 - 1, 1 << 32, 1<<32 + 1} {
				if r < size-1 {
					ranks = append(ranks, r)
				}
			}
			for range per {
				ranks = append(ranks, rng.Uint64N(size-1))
			}
			for _, r := range ranks {
				p := ix.Unrank(n, r)
				if p.Seeds() != n || ix.Rank(p) != r {
					t.Fatalf("%s layer %d: rank %d unranks to %v (%d seeds), which ranks to %d", v.Name, n, r, p, p.Seeds(), ix.Rank(p))
				}
				if q := u.unrank(r); q != p {
					t.Fatalf("%s layer %d: the layer's unranker gives %v for rank %d, Unrank %v", v.Name, n, q, r, p)
				}
				c := ix.newCursor(n, r)
				if c.position() != p {
					t.Fatalf("%s layer %d: cursor at %d is %v, want %v", v.Name, n, r, c.position(), p)
				}
				if r+1 < size {
					c.next()
					if want := ix.Unrank(n, r+1); c.position() != want {
						t.Fatalf("%s layer %d: cursor after %d is %v, want %v", v.Name, n, r, c.position(), want)
					}
				}
			}
		}
	}
}
