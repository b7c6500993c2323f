package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// TestThreadsAgree: one thread and three give the same exact values, and
// the same best moves when both searches found them all (only estimates
// may depend on the thread count).
func TestThreadsAgree(t *testing.T) {
	// Positions tried a variant, and how many must be solved exactly.
	tries, enough := testsize.Pick(3, 3, 5), testsize.Pick(5, 5, 8)
	compared := 0
	for _, v := range position.Variants() {
		rng := rand.New(rand.NewPCG(4, uint64(v.ID)))
		for range tries {
			p, ok := randomPlayout(v, rng, 10)
			if !ok {
				continue
			}
			one := mustSearch(t, v, p, Options{Threads: 1, HashMiB: 4, MaxNodes: 300_000})
			if !one.Exact {
				continue // too hard for the budget: nothing to compare
			}
			// A node budget far beyond what one thread needed: a proof
			// that must finish, not a race (Lazy SMP shares nodes unevenly).
			three := mustSearch(t, v, p, Options{Threads: 3, HashMiB: 4, MaxNodes: 100 * 300_000})
			if !three.Exact {
				t.Errorf("%s: exact with 1 thread, not with 3", position.Format(v, p))
				continue
			}
			compared++
			sameMoves := slices.Equal(one.BestMoves, three.BestMoves)
			if one.Value != three.Value || one.BestMovesComplete && three.BestMovesComplete && !sameMoves {
				t.Errorf("%s: 1 thread %d %v, 3 threads %d %v", position.Format(v, p),
					one.Value, one.BestMoves, three.Value, three.BestMoves)
			}
		}
	}
	if compared < enough {
		t.Errorf("only %d positions solved exactly: too few to compare", compared)
	}
	t.Logf("%d positions compared", compared)
}

// TestBestMovesWithNodeLimit: issue 9's case. Under a node limit, a
// search that proves the value also finds every best move, whatever the
// thread count: proving which moves are best has a node budget of its own.
// (Whether three threads prove the value within the limit at all depends
// on how Lazy SMP shares the nodes, so only proven runs are compared.)
func TestBestMovesWithNodeLimit(t *testing.T) {
	v, _ := position.Lookup("akon")
	p := mustParse(t, "akon:0,0,3,0,3,1,0/0,2,1,0,0,0,0:2")
	var first Result
	for i, threads := range []int{1, 3, 3} {
		res := mustSearch(t, v, p, Options{Threads: threads, HashMiB: 4, MaxNodes: 3_000_000})
		if i == 0 {
			first = res
			if !res.Exact {
				t.Fatal("one thread did not prove the value within the limit")
			}
		}
		if res.Exact && (!res.BestMovesComplete || res.Value != first.Value || !slices.Equal(res.BestMoves, first.BestMoves)) {
			t.Errorf("%d threads: value %d, best %v (complete %v); 1 thread: %d, %v",
				threads, res.Value, res.BestMoves, res.BestMovesComplete, first.Value, first.BestMoves)
		}
	}
}

// TestEstimateListsEveryBestMove: an estimate with every move valued
// lists as best every move whose estimate equals the value (the oware
// start, depth 3: not proven).
func TestEstimateListsEveryBestMove(t *testing.T) {
	v, _ := position.Lookup("oware")
	res := mustSearch(t, v, v.Start(), Options{Threads: 1, HashMiB: 4, MaxDepth: 3, AllMoves: true})
	if res.Exact {
		t.Fatal("the oware start proven at depth 3")
	}
	var want []int
	top := res.Moves[0].Value
	for _, m := range res.Moves {
		top = max(top, m.Value)
	}
	for _, m := range res.Moves {
		if m.Value == top {
			want = append(want, m.Move)
		}
	}
	if res.Value != top || !slices.Equal(res.BestMoves, want) {
		t.Errorf("value %d, best %v; moves %+v", res.Value, res.BestMoves, res.Moves)
	}
}

func mustSearch(t *testing.T, v *position.Variant, p position.Position, opts Options) Result {
	t.Helper()
	res, err := Search(context.Background(), v, p, opts)
	if err != nil {
		t.Fatalf("%s: %v", position.Format(v, p), err)
	}
	return res
}

// fakeTablebase serves plain-minimax values (empty line) of positions with
// at most max seeds, memoised, and counts probes.
type fakeTablebase struct {
	v      *position.Variant
	max    int
	mu     sync.Mutex
	values map[position.Position]int
	probes int
}

func (f *fakeTablebase) MaxSeeds() int { return f.max }

func (f *fakeTablebase) Probe(p position.Position) (int, bool) {
	if p.Seeds() > f.max {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.probes++
	if v, ok := f.values[p]; ok {
		return v, true
	}
	budget := 1 << 40
	v, _ := plainMinimax(f.v, p, nil, &budget)
	f.values[p] = v
	return v, true
}

// TestTablebaseAgrees: with a fake tablebase of small positions, exact
// values (and every move's) equal those found without it, and the
// tablebase is used.
func TestTablebaseAgrees(t *testing.T) {
	for _, v := range position.Variants() {
		tb := &fakeTablebase{v: v, max: 3, values: map[position.Position]int{}}
		for _, c := range plainCases(v, 5, testsize.Pick(2, 2, 4), 10, 100_000) {
			without := checkAgainst(t, c, Options{Threads: 2, HashMiB: 2, MaxNodes: 5_000_000})
			with := checkAgainst(t, c, Options{Threads: 2, HashMiB: 2, MaxNodes: 5_000_000, Tablebase: tb})
			if with.Value != without.Value {
				t.Errorf("%s: %d with the tablebase, %d without", c, with.Value, without.Value)
			}
		}
		if v.Name != "djenon-aboure" && tb.probes == 0 {
			t.Errorf("%s: the tablebase was never probed", v.Name)
		}
	}
}

// TestTimeLimitGivesLegalMove: with a 1 ms limit (or an expired context)
// every start position still gets a legal best move, with the value
// marked not exact unless proven.
func TestTimeLimitGivesLegalMove(t *testing.T) {
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range position.Variants() {
		for _, ctx := range []context.Context{expired, nil} {
			if ctx == nil {
				var stop context.CancelFunc
				ctx, stop = context.WithTimeout(context.Background(), time.Millisecond)
				defer stop()
			}
			res, err := Search(ctx, v, v.Start(), Options{Threads: 2, HashMiB: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.MakeMove(v.Start(), res.BestMoves[0]); err != nil || len(res.BestMoves) != 1 {
				t.Errorf("%s: best moves %v: %v", v.Name, res.BestMoves, err)
			}
			if res.Exact != (res.Lower == res.Upper) || res.Depth < 1 {
				t.Errorf("%s: exact %v with bounds %d..%d, depth %d", v.Name, res.Exact, res.Lower, res.Upper, res.Depth)
			}
		}
	}
}

// TestGameOver: a position without moves is answered at once with its
// terminal value, exact.
func TestGameOver(t *testing.T) {
	for _, s := range []string{"awari:0,0,0,0,0,0/1,2,0,0,0,0:1", "djenon-abe:1,0,0,0,0,0/0,0,0,0,1,0:2",
		"akon:0,0,0,0,0,0,0/3,0,0,0,0,0,1:1"} {
		st, err := position.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		res := mustSearch(t, st.Variant, st.Position, Options{Threads: 1, HashMiB: 1})
		want := st.Variant.TerminalValue(st.Position)
		if !res.GameOver || !res.Exact || res.Value != want || len(res.BestMoves) != 0 {
			t.Errorf("%s: %+v, want game over with value %d", s, res, want)
		}
	}
}

// TestMustPass: where the mover must pass, the pass is the one best move
// and the value is plain minimax's.
func TestMustPass(t *testing.T) {
	for _, s := range []string{
		"djenon-aboure:1,1,0,1,0,0/0,0,3,0,0,1:1", // only singletons: no legal move
		"djenon-abe:0,0,0,0,0,0/0,0,0,2,0,1:1",    // no seeds, the opponent can feed
	} {
		st, err := position.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		v, p := st.Variant, st.Position
		moves, value, ok := minimaxMoveValues(v, p, 1_000_000)
		if !ok || len(moves) != 1 {
			t.Fatalf("%s: want a position whose only move is a pass, got %v", s, moves)
		}
		checkAgainst(t, testCase{v: v, p: p, moves: moves, value: value}, Options{Threads: 2, HashMiB: 1})
		res := mustSearch(t, v, p, Options{Threads: 1, HashMiB: 1})
		if !slices.Equal(res.BestMoves, []int{position.PassPit}) || res.PV[0] != position.PassPit {
			t.Errorf("%s: best moves %v, pv %v, want the pass", s, res.BestMoves, res.PV)
		}
	}
}

// TestEntryPacking: an entry survives packing, at the field limits.
func TestEntryPacking(t *testing.T) {
	for _, e := range []entry{
		{lo: noLower, hi: noUpper, draft: 0, gen: 0},
		{lo: -70, hi: 70, loProven: true, hiLine: true, move: 8, draft: maxDraft, gen: 255, line: true},
		{lo: 3, hi: 3, loProven: true, hiProven: true, loLine: true, move: 1, draft: 17, gen: 9},
	} {
		if got := unpack(e.pack()); got != e {
			t.Errorf("%+v packs and unpacks to %+v", e, got)
		}
	}
}

// TestSearchErrors: bad options and positions are errors.
func TestSearchErrors(t *testing.T) {
	v, _ := position.Lookup("awari")
	if _, err := Search(context.Background(), v, v.Start(), Options{Threads: -1}); err == nil {
		t.Error("negative threads: no error")
	}
	big := position.Position{Own: position.PackRow([]int{40, 40, 0, 0, 0, 0})}
	if _, err := Search(context.Background(), v, big, Options{}); err == nil {
		t.Error("80 seeds in awari: no error")
	}
	if _, err := Search(context.Background(), nil, big, Options{}); err == nil {
		t.Error("nil variant: no error")
	}
}
