package oracle

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// distTB is a tablebase with distances for the positions reachable from
// some roots, computed here by retrograde iteration from the values of an
// in-memory tablebase: the plies to the capture or game end that realises
// a position's value, the side ahead shortening it and the side behind
// lengthening it (as tablebase.Prober.ProbeDistance will give).
type distTB struct {
	*tablebase.Memory
	v    *position.Variant
	dist map[position.Position]int
}

func (d *distTB) ProbeDistance(p position.Position) (int, int, bool) {
	val, ok := d.Probe(p)
	dist, known := d.dist[p]
	return val, dist, ok && known
}

// add computes the distances of every position reachable from root.
func (d *distTB) add(root position.Position) {
	seen := map[position.Position]bool{root: true}
	queue := []position.Position{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, m := range legalMoves(d.v, p) {
			if !seen[m.Next] {
				seen[m.Next] = true
				queue = append(queue, m.Next)
			}
		}
	}
	const unknown = 1 << 20
	for p := range seen {
		d.dist[p] = unknown
		if len(legalMoves(d.v, p)) == 0 {
			d.dist[p] = 0
		} else if v, _ := d.Probe(p); v == 0 {
			d.dist[p] = 0 // nothing to realise
		}
	}
	for changed := true; changed; {
		changed = false
		for p := range seen {
			if d.dist[p] != unknown {
				continue
			}
			val, _ := d.Probe(p)
			best, all := unknown, true
			for _, m := range legalMoves(d.v, p) {
				cv, _ := d.Probe(m.Next)
				if m.Value(p, cv) != val {
					continue
				}
				k := 1
				if m.Captured == 0 {
					if d.dist[m.Next] == unknown {
						all = false
						continue
					}
					k += d.dist[m.Next]
				}
				if best == unknown || val > 0 && k < best || val < 0 && k > best {
					best = k
				}
			}
			if best != unknown && (val > 0 || all) {
				d.dist[p], changed = best, true
			}
		}
	}
}

// TestPVByDistance: with distances, principal variations from the
// tablebase alone reach the end of the game and realise the value.
func TestPVByDistance(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"awari", "akon", "djenon-abe"} {
		v, _ := position.Lookup(name)
		mem, err := tablebase.BuildMemory(ctx, v, 6, 1)
		if err != nil {
			t.Fatal(err)
		}
		tb := &distTB{Memory: mem, v: v, dist: map[position.Position]int{}}
		rng := rand.New(rand.NewPCG(9, uint64(v.ID)))
		complete := 0
		for range 20 {
			p, ok := randomBoard(v, rng, 2+rng.IntN(5))
			if !ok || legalMoves(v, p)[0].IsPass() {
				continue
			}
			tb.add(p)
			b := &pvBuilder{ctx: ctx, v: v, srv: served{tb: tb}}
			pv, done := b.build(p, nil, -1)
			if !done {
				continue // a drawn line can run into the line's own positions
			}
			complete++
			s := position.Setup{Variant: v, Position: p}
			want, _ := tb.Probe(p)
			if got := playOut(t, s, pv); got != want {
				t.Errorf("%s: pv %v realises %d, value %d", position.Format(v, p), pv, got, want)
			}
		}
		if complete < 10 {
			t.Errorf("%s: only %d complete principal variations of 20", name, complete)
		}
	}
}
