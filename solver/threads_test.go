package solver

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// TestNewRefusesTooManyThreads: a thread count beyond MaxThreads is
// refused when the solver is made, not met by a search that spends its
// time limit starting threads (reliability trial 6 of issue 43: serve
// with 2^63-1 threads never answered).
func TestNewRefusesTooManyThreads(t *testing.T) {
	for _, c := range []struct {
		threads int
		ok      bool
	}{{1, true}, {MaxThreads, true}, {MaxThreads + 1, false}, {1<<63 - 1, false}} {
		_, err := New(Options{Threads: c.threads, HashMiB: 1})
		if (err == nil) != c.ok {
			t.Errorf("%d threads: %v, want ok %v", c.threads, err, c.ok)
		}
	}
}

// TestKalahThreadsAgree: in kalah, where the threads share each probe
// (ABDADA marks, adopted results) rather than search at staggered depths,
// two threads prove what one does: the value and every best move, the
// value with OneBest, and every move's value with AllMoves. The searches
// are large enough (thousands of nodes) for the threads to meet in the
// same probes.
func TestKalahThreadsAgree(t *testing.T) {
	v := position.Kalah(4, 4)
	rng := rand.New(rand.NewPCG(41, 2))
	positions := []position.Position{v.Start()}
	for len(positions) < testsize.Pick(3, 4, 8) {
		if p, ok := kalahPlayout(v, rng); ok && p.Seeds() >= 20 {
			positions = append(positions, p)
		}
	}
	for _, p := range positions {
		for _, r := range []Request{{}, {OneBest: true}, {AllMoves: true}} {
			var res [2]Result
			for i, threads := range []int{1, 2} {
				s, err := New(Options{Threads: threads, HashMiB: 4})
				if err != nil {
					t.Fatal(err)
				}
				if res[i], err = s.SearchRequest(t.Context(), v, p, r); err != nil {
					t.Fatal(err)
				}
				if !res[i].Exact {
					t.Fatalf("%s %+v, %d threads: not exact (%s)", position.Format(v, p), r, threads, res[i].Stop)
				}
			}
			one, two := res[0], res[1]
			same := one.Value == two.Value && slices.Equal(one.Moves, two.Moves)
			if !r.OneBest {
				same = same && slices.Equal(one.BestMoves, two.BestMoves) && two.BestMovesComplete
			}
			if !same {
				t.Errorf("%s %+v: 1 thread %d %v %v, 2 threads %d %v %v", position.Format(v, p), r,
					one.Value, one.BestMoves, one.Moves, two.Value, two.BestMoves, two.Moves)
			}
		}
	}
}

// TestRootDefersBusyMoves: a root move another thread is searching waits
// for the second pass, and is searched then: with every move but the
// first marked busy, a probe still gives the value, and leaves the other
// thread's marks as they were (a thread clears only its own).
func TestRootDefersBusyMoves(t *testing.T) {
	v := position.Kalah(4, 3)
	p := v.Start()
	want := mustSearch(t, v, p, Options{Threads: 1, HashMiB: 4})
	sr := twoThreadSearch(t, v, p, 4)
	w := newWorker(sr, 0)
	for _, i := range w.order[1:] {
		sr.busy.mark(sr.rootKeys[i])
	}
	score, _ := w.searchRoot(want.Value-1, want.Value, MaxPly)
	if score < want.Value {
		t.Errorf("probe at beta %d: %d, want a fail high", want.Value, score)
	}
	score, _ = w.searchRoot(want.Value, want.Value+1, MaxPly)
	if score > want.Value {
		t.Errorf("probe at beta %d: %d, want a fail low", want.Value+1, score)
	}
	for _, i := range w.order[1:] {
		if !sr.busy.busy(sr.rootKeys[i]) {
			t.Errorf("move %d: the other thread's mark was cleared", i)
		}
	}
	if sr.busy.busy(sr.rootKeys[w.order[0]]) {
		t.Error("the first move's mark was left behind")
	}
}

// TestAdoptProbe: a thread in a null-window probe that another thread has
// finished stops and takes that result (score and best move, negative
// scores included), and only for the same target, depth and beta; a
// stopped probe is not offered.
func TestAdoptProbe(t *testing.T) {
	v := position.Kalah(4, 3)
	p := v.Start()
	sr := twoThreadSearch(t, v, p, 1)
	first, second := newWorker(sr, 0), newWorker(sr, 1)
	score, best := first.nullWindow(-1, 13, -7, func(alpha, beta int) (int, int) { return -9, 2 })
	if score != -9 || best != 2 || first.inProbe != 0 {
		t.Fatalf("own probe: %d, %d (in probe %x), want -9, 2, 0", score, best, first.inProbe)
	}
	first.nullWindow(-1, 16, -7, func(alpha, beta int) (int, int) {
		first.stopped = true
		return 30, 1
	})
	first.stopped = false
	for _, c := range []struct {
		target, d, beta int
		adopt           bool
	}{{-1, 13, -7, true}, {0, 13, -7, false}, {-1, 16, -7, false}, {-1, 13, -5, false}} {
		second.inProbe = probeKey(c.target, c.d, c.beta)
		if got := second.adopt(); got != c.adopt {
			t.Errorf("probe %+v: adopted %v, want %v", c, got, c.adopt)
			continue
		}
		if c.adopt && (!second.stopped || second.adoptedScore != -9 || second.adoptedBest != 2) {
			t.Errorf("adopted %d, %d (stopped %v), want -9, 2, stopped", second.adoptedScore, second.adoptedBest, second.stopped)
		}
		second.stopped, second.adopted = false, false
	}
}

// twoThreadSearch prepares a two-thread search of p with a table of
// hashMiB MiB, for tests that drive its workers by hand.
func twoThreadSearch(t *testing.T, v *position.Variant, p position.Position, hashMiB int) *search {
	t.Helper()
	s, err := New(Options{Threads: 2, HashMiB: hashMiB})
	if err != nil {
		t.Fatal(err)
	}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	return newSearch(s, v, p, buf[:n], s.opts, nil)
}

// TestBusyKeepsLiveMark: a node whose slot another node's thread holds is
// not marked (mark reports false), and the holder's mark stays until its
// own unmark; then the slot is free for the other key.
func TestBusyKeepsLiveMark(t *testing.T) {
	var b busyTable
	const high, low = uint64(0xabc1) << 48, uint64(0x2345) << 48 >> busyBits // same slot, other tags
	first, second := high|1<<20, high|low|1<<20
	if b.slot(first) != b.slot(second) || first&^busyCount == second&^busyCount {
		t.Fatal("the keys must share a slot and differ in their tags")
	}
	if !b.mark(first) || !b.mark(first) {
		t.Fatal("a free slot's mark, and a second thread's, must count")
	}
	if b.mark(second) {
		t.Error("a live mark of another node was taken over")
	}
	if !b.busy(first) || b.busy(second) {
		t.Errorf("busy: first %v, second %v; want true, false", b.busy(first), b.busy(second))
	}
	b.unmark(first)
	if !b.busy(first) {
		t.Error("one of two threads left, and the node no longer busy")
	}
	b.unmark(first)
	if b.busy(first) {
		t.Error("both threads left, and the node still busy")
	}
	if !b.mark(second) || !b.busy(second) {
		t.Error("a freed slot was not taken by another node")
	}
}
