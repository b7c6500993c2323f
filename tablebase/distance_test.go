package tablebase

import (
	"context"
	"github.com/mancala-solver/mancala/internal/testsize"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// distanceProber is what Prober and Memory share for distances.
type distanceProber interface {
	ProbeDistance(p position.Position) (value, plies int, ok bool)
}

// distanceSeeds is the largest layer of the distance tests: 9, or 7
// with -short.
func distanceSeeds() int {
	if testsize.Short() {
		return 6
	}
	return 9
}

// keepingMoves returns, for p of value v, the distances that its moves
// keeping the value lead to: 1 for a capture that realises v, 1 + the
// child's distance for a move inside the layer.
func keepingMoves(t *testing.T, tb distanceProber, v *position.Variant, p position.Position, value int) (dists []int, moves []position.Move) {
	t.Helper()
	var buf [position.MaxPits]position.Move
	nm := v.Moves(p, &buf)
	for _, m := range buf[:nm] {
		child, d, ok := tb.ProbeDistance(m.Next)
		if !ok {
			t.Fatalf("%s: child %s not in the tablebase", position.Format(v, p), position.Format(v, m.Next))
		}
		if m.Value(p, child) != value {
			continue
		}
		if m.Captured > 0 {
			d = 0
		}
		dists, moves = append(dists, 1+d), append(moves, m)
	}
	return dists, moves
}

// checkDistance checks p's distance against its moves (doc.go): 0 for
// value 0 and for the game end; else the winner's keeping moves reach at
// best distance d and the loser's at worst d, so a move lowering it by one
// exists for either side; and it plays the line of such moves (the winner's
// shortest, the loser's longest) to its exit, which must realise the value.
func checkDistance(t *testing.T, tb distanceProber, v *position.Variant, p position.Position) {
	t.Helper()
	value, d, _ := tb.ProbeDistance(p)
	var buf [position.MaxPits]position.Move
	if value == 0 || v.Moves(p, &buf) == 0 {
		if d != 0 {
			t.Fatalf("%s: value %d, distance %d, want 0", position.Format(v, p), value, d)
		}
		return
	}
	for plies := 0; d > 0; plies++ {
		dists, moves := keepingMoves(t, tb, v, p, value)
		best := -1
		for i, x := range dists {
			if x == d {
				best = i
			}
			if (value > 0 && x < d) || (value < 0 && x > d) {
				t.Fatalf("%s (value %d, distance %d): move %d keeps the value at distance %d", position.Format(v, p), value, d, moves[i].Pit, x)
			}
		}
		if best < 0 {
			t.Fatalf("%s (value %d, distance %d): no move keeps the value at that distance (%v)", position.Format(v, p), value, d, dists)
		}
		m := moves[best]
		if m.Captured > 0 {
			return // the exit: a capture worth the value
		}
		if plies > MaxDistance {
			t.Fatalf("%s: the line does not end", position.Format(v, p))
		}
		p = m.Next
		value, d, _ = tb.ProbeDistance(p)
	}
	if v.Moves(p, &buf) != 0 {
		t.Fatalf("%s: distance 0 but the game goes on", position.Format(v, p))
	}
}

// TestDistance: from random positions of every variant, the side that
// realises the value has a move keeping the value and lowering the
// distance by one, and playing such moves reaches an exit realising the
// value; the in-memory tablebase, the stored one and both methods agree.
func TestDistance(t *testing.T) {
	for _, v := range position.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			distSeeds := distanceSeeds()
			mem, err := BuildMemory(context.Background(), v, distSeeds, 2)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(v.ID), 8))
			ix := NewIndex(v.Pits)
			for range 3000 {
				n := 1 + rng.IntN(distSeeds)
				checkDistance(t, mem, v, ix.Unrank(n, rng.Uint64N(uint64(ix.Size(n)))))
			}
			graph, iter := build(t, v, distSeeds, MethodGraph), build(t, v, distSeeds, MethodIteration)
			for _, dir := range []string{graph, iter} {
				pr, err := OpenProber(dir, v)
				if err != nil {
					t.Fatal(err)
				}
				for n := 0; n <= distSeeds; n++ {
					for r := range uint64(ix.Size(n)) {
						p := ix.Unrank(n, r)
						want, wantD, _ := mem.ProbeDistance(p)
						got, gotD, ok := pr.ProbeDistance(p)
						if !ok || got != want || gotD != wantD {
							t.Fatalf("%s: stored %d in %d plies (%v), memory %d in %d", position.Format(v, p), got, gotD, ok, want, wantD)
						}
					}
				}
				pr.Close()
			}
		})
	}
}

// TestVerifyDistances: the distance equations hold for every position of
// a fresh layer, and one changed distance breaks them, whether verify
// reads the distances apart or packed with the values.
func TestVerifyDistances(t *testing.T) {
	v := lookup(t, "oware")
	const seeds = 7
	mem, err := BuildMemory(context.Background(), v, seeds, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := layerVerifier{&layerSolver{v: v, ix: mem.ix, n: seeds, size: mem.ix.Size(seeds)}, memLower(mem.layers)}
	values, dist := mem.layers[seeds], slices.Clone(mem.dists[seeds])
	pack := func() ownLayer {
		packed := make([]uint16, len(dist))
		if !packBlock(packed, values, dist) {
			t.Fatal("layer 7 of oware does not pack")
		}
		return ownLayer{values: values, packed: packed}
	}
	for _, own := range []ownLayer{{values: values, dist: dist}, pack()} {
		if bad, examples := s.checkRange(0, s.size, own); bad != 0 {
			t.Fatalf("%d fresh distances disagree with their moves: %v", bad, examples)
		}
	}
	i := slices.IndexFunc(dist, func(d uint16) bool { return d > 1 })
	dist[i]++
	for _, own := range []ownLayer{{values: values, dist: dist}, pack()} {
		if bad, _ := s.checkRange(0, s.size, own); bad == 0 {
			t.Errorf("distance %d of rank %d changed to %d (packed: %v): no disagreement found", dist[i]-1, i, dist[i], own.packed != nil)
		}
	}
}
