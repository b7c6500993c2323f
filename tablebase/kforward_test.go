package tablebase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// memoryLayers builds v's layers 0..maxSeeds in memory with method on
// threads workers and returns each layer's values and distances.
func memoryLayers(t *testing.T, v *position.Variant, maxSeeds int, method Method, threads int) ([][]int8, [][]uint16) {
	t.Helper()
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: withDefaults(BuildOptions{MaxSeeds: maxSeeds, Threads: threads, Method: method})}
	for n := 0; n <= maxSeeds; n++ {
		res, err := b.solve(context.Background(), n)
		if err != nil {
			t.Fatalf("%s layer %d: %v", v.Name, n, err)
		}
		if want := map[Method]string{MethodForward: "forward", MethodGraph: "graph"}[method]; res.method != want {
			t.Fatalf("%s layer %d: solved by %q, want %q", v.Name, n, res.method, want)
		}
		res.arrays()
		b.lower = append(b.lower, res.values)
		b.dists = append(b.dists, res.dist)
	}
	return b.lower, b.dists
}

// TestForwardMatchesGraph: for kalah of 1 to 6 pits, the forward pass
// (children first, build_forward.go) gives every position of every layer the
// value and distance that threshold propagation on the predecessor graph
// gives (two independent methods), on one thread and on two.
func TestForwardMatchesGraph(t *testing.T) {
	seeds := map[int]int{1: 12, 2: 12, 3: 11, 4: 9, 5: 8, 6: 7}
	if testsize.Short() {
		seeds = map[int]int{1: 8, 2: 8, 3: 8, 4: 7, 5: 6, 6: 5}
	}
	for pits := 1; pits <= position.KalahMaxPits; pits++ {
		v := position.Kalah(pits, 4)
		t.Run(v.Name, func(t *testing.T) {
			wantV, wantD := memoryLayers(t, v, seeds[pits], MethodGraph, 2)
			for _, threads := range []int{1, 2} {
				gotV, gotD := memoryLayers(t, v, seeds[pits], MethodForward, threads)
				compareLayers(t, v, fmt.Sprintf("%d threads", threads), gotV, gotD, wantV, wantD)
			}
		})
	}
}

// compareLayers reports the first position of each layer whose value or
// distance differs.
func compareLayers(t *testing.T, v *position.Variant, what string, gotV [][]int8, gotD [][]uint16, wantV [][]int8, wantD [][]uint16) {
	t.Helper()
	ix := NewIndex(v.Pits)
	for n := range wantV {
		for r := range wantV[n] {
			if gotV[n][r] != wantV[n][r] || gotD[n][r] != wantD[n][r] {
				p := ix.Unrank(n, uint64(r))
				t.Errorf("%s, %s layer %d, %s: forward value %d distance %d, graph %d distance %d", v.Name, what, n,
					position.Format(v, p), gotV[n][r], gotD[n][r], wantV[n][r], wantD[n][r])
				break
			}
		}
	}
}

// TestRowTableCoversLayer: the forward pass's enumeration by measure
// visits every rank of a layer exactly once, the rank of each pair of
// rows (own part plus opponent part) is Index.Rank of that position, and
// the measure of each block is the rows' weights' sum.
func TestRowTableCoversLayer(t *testing.T) {
	for pits := 1; pits <= position.MaxPits; pits++ {
		ix := NewIndex(pits)
		for _, n := range []int{0, 1, 2, 5, 9} {
			tab := newRowTable(ix, n)
			seen := make([]bool, ix.Size(n))
			var jobs []forwardJob
			for m := (pits - 1) * n; m >= 0; m-- {
				jobs = tab.jobs(n, m, jobs)
				for _, j := range jobs {
					for a := j.ownLo; a < j.ownHi; a++ {
						for b := j.oppLo; b < j.oppHi; b++ {
							p := position.Position{Own: tab.rows[a], Opp: tab.rows[b]}
							r := tab.own[a] + tab.opp[b]
							if want := ix.Rank(p); r != want || p.Seeds() != n || weight(p, pits) != m {
								t.Fatalf("pits %d layer %d measure %d: rows %x %x: rank %d, Rank %d, seeds %d, weight %d",
									pits, n, m, p.Own, p.Opp, r, want, p.Seeds(), weight(p, pits))
							}
							if seen[r] {
								t.Fatalf("pits %d layer %d: rank %d visited twice", pits, n, r)
							}
							seen[r] = true
						}
					}
				}
			}
			for b, row := range tab.rows {
				x := position.Position{Own: uint64(n - 1 - position.RowSeeds(row))}
				if n > 0 && position.RowSeeds(row) < n && ix.ownRank(x.Own)+tab.opp1[b] != ix.Rank(position.Position{Own: x.Own, Opp: row}) {
					t.Fatalf("pits %d layer %d: row %x: opponent part in layer %d wrong", pits, n, row, n-1)
				}
			}
			for r, ok := range seen {
				if !ok {
					t.Fatalf("pits %d layer %d: rank %d never visited", pits, n, r)
				}
			}
		}
	}
}

// weight is the forward pass's measure, written out: the sum over both
// rows of each pit's seeds times its place (0 for pit 1).
func weight(p position.Position, pits int) int {
	w := 0
	for i := 0; i < pits; i++ {
		w += i * (position.Pit(p.Own, i) + position.Pit(p.Opp, i))
	}
	return w
}

// TestForwardRefusesRepetition: a variant whose positions can recur is
// refused by the forward pass rather than solved wrongly.
func TestForwardRefusesRepetition(t *testing.T) {
	v := lookup(t, "awari")
	_, err := Build(context.Background(), t.TempDir(), v, BuildOptions{MaxSeeds: 3, Method: MethodForward})
	if err == nil {
		t.Fatal("awari built by the forward pass")
	}
}

// BenchmarkBuildKalah builds kalah to $TABLEBASE_BENCH_SEEDS seeds (14 by
// default) by the forward pass and on the predecessor graph, on one
// thread and on all, and reports positions per second.
func BenchmarkBuildKalah(b *testing.B) {
	seeds := 14
	if s, err := strconv.Atoi(os.Getenv("TABLEBASE_BENCH_SEEDS")); err == nil {
		seeds = s
	}
	v := lookup(b, "kalah")
	positions := MemoryPositions(v, seeds)
	for _, threads := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, method := range []Method{MethodForward, MethodGraph} {
			name := map[Method]string{MethodForward: "forward", MethodGraph: "graph"}[method]
			b.Run(fmt.Sprintf("kalah-%d/threads-%d/%s", seeds, threads, name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					opts := BuildOptions{MaxSeeds: seeds, Threads: threads, Method: method}
					if _, err := Build(context.Background(), b.TempDir(), v, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(positions)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
			})
		}
	}
}

// TestPlanKalah30: on a machine of 24 GiB (the default budget, 3/4 of
// it), every layer of kalah to 30 seeds is planned by the forward pass
// within the budget, and the budget check before the first layer passes
// (it used to count the least method as value iteration's, 6.1 bytes a
// position, and refused layer 30).
func TestPlanKalah30(t *testing.T) {
	v := lookup(t, "kalah")
	b := &builder{s: &store{}, v: v, ix: NewIndex(v.Pits), opts: BuildOptions{MaxSeeds: 30, MemBytes: 24 << 30 / 4 * 3}}
	if err := b.checkLayers(0); err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= 30; n++ {
		if p := b.plan(n, 1.5); p.Method != "forward" || p.MemBytes > b.opts.MemBytes {
			t.Errorf("layer %d: %s, %d bytes of %d", n, p.Method, p.MemBytes, b.opts.MemBytes)
		}
	}
}

// TestPackValues: a layer's values of the form 2a - m come back from the
// packed layer as they went in, at every width up to layer 70 and at
// lengths that end anywhere in a byte; a value of the other parity or
// beyond the layer leaves the layer unpacked.
func TestPackValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{0, 1, 2, 3, 7, 8, 15, 16, 19, 20, 31, 32, 63, 64, 70} {
		for _, size := range []int{1, 7, 8, 9, 1000, 4099} {
			values := make([]int8, size)
			for i := range values {
				values[i] = int8(2*rng.IntN(m+1) - m)
			}
			values[0], values[size-1] = int8(m), int8(-m)
			p, ok := packValues(values, m)
			if !ok {
				t.Fatalf("layer %d: not packed", m)
			}
			for r, v := range values {
				if got := p.value(uint64(r)); got != v {
					t.Fatalf("layer %d, %d values: rank %d is %d, want %d", m, size, r, got, v)
				}
			}
			if got := p.unpack(int64(size)); !slices.Equal(got, values) {
				t.Fatalf("layer %d: unpack differs", m)
			}
		}
	}
	for _, bad := range [][]int8{{1, 3, 5}, {4, -5, 2}, {5, 7}} {
		if _, ok := packValues(bad, 4); ok {
			t.Errorf("%v packed as layer 4", bad)
		}
	}
}
