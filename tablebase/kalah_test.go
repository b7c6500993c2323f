package tablebase

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// kalahMinimax is plain minimax over a kalah game, written here apart from
// the build: kalah has no cycles (a move that stays in its layer only
// carries seeds toward the mover's store), so recursion to the game end
// with a memo is exact. A move is worth the seeds it banks plus what
// follows for the mover: the child's value when the same player moves
// again (the extra move), minus it otherwise.
type kalahMinimax struct {
	v    *position.Variant
	memo map[[2]uint64]int
}

func (k *kalahMinimax) value(p position.Position) int {
	key := [2]uint64{p.Own, p.Opp}
	if v, ok := k.memo[key]; ok {
		return v
	}
	var buf [position.MaxPits]position.Move
	n := k.v.Moves(p, &buf)
	best := k.v.TerminalValue(p)
	if n > 0 {
		best = -1 << 30
	}
	for _, m := range buf[:n] {
		child := k.value(m.Next)
		if m.Next.Side != p.Side {
			child = -child
		}
		best = max(best, int(m.Captured)+child)
	}
	k.memo[key] = best
	return best
}

// TestKalahTablebase: in-memory tablebases of small kalah sizes under both
// capture rules, built to every seed of the game, hold plain minimax's
// value for every position reached from the start position (both players
// to move), and the start values are those of the solver's table in
// docs/kalah.md (Kalah(3,3) = +2, Kalah(4,2) = +6, as another solver
// published; Kalah(4,3) = +8 with empty captures, +6 without).
func TestKalahTablebase(t *testing.T) {
	cases := []struct {
		rules              position.KalahRules
		pits, seeds, start int
	}{{position.KalahEmptyCapture, 3, 2, +4}, {position.KalahEmptyCapture, 3, 3, +2},
		{position.KalahEmptyCapture, 4, 2, +6}, {position.KalahStandard, 3, 2, +4},
		{position.KalahStandard, 3, 3, +2}, {position.KalahStandard, 4, 2, +6}}
	if !testsize.Short() {
		cases = append(cases, struct {
			rules              position.KalahRules
			pits, seeds, start int
		}{position.KalahStandard, 4, 3, +6})
	}
	for _, c := range cases {
		v := position.KalahOf(c.rules, c.pits, c.seeds)
		m, err := BuildMemory(context.Background(), v, v.Total(), 2)
		if err != nil {
			t.Fatal(err)
		}
		ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
		if got, ok := m.Probe(v.Start()); !ok || got != c.start || ref.value(v.Start()) != c.start {
			t.Errorf("%s start: tablebase %d (ok %v), minimax %d, want %+d", v.Name, got, ok, ref.value(v.Start()), c.start)
		}
		checked := 0
		for key, want := range ref.memo {
			p := position.Position{Own: key[0], Opp: key[1]}
			if got, ok := m.Probe(p); !ok || got != want {
				t.Fatalf("%s: %s: tablebase %d (ok %v), minimax %d", v.Name, position.Format(v, p), got, ok, want)
			}
			checked++
		}
		t.Logf("%s: %d positions agree", v.Name, checked)
	}
}

// TestKalahSizesShareTablebase: the kalah sizes of one row length share a
// tablebase on disk. One built for Kalah(3,2) is resumed, not rebuilt, by a
// build for Kalah(3,3), and a prober opened for Kalah(3,5) answers every
// position reached from Kalah(3,3)'s start with at most the layers' seeds
// with plain minimax's value.
func TestKalahSizesShareTablebase(t *testing.T) {
	v := position.Kalah(3, 3)
	dir, stats := buildTwice(t, position.Kalah(3, 2), 6, v, 8)
	if stats.Resumed != 7 || len(stats.Layers) != 2 {
		t.Errorf("Kalah(3,3) after Kalah(3,2): resumed %d layers and built %d, want 7 and 2", stats.Resumed, len(stats.Layers))
	}
	pr, err := OpenProber(dir, position.Kalah(3, 5))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
	seen := map[position.Position]bool{}
	var walk func(p position.Position)
	probed := 0
	walk = func(p position.Position) {
		if seen[p] {
			return
		}
		seen[p] = true
		if p.Seeds() <= 8 {
			got, ok := pr.Probe(p)
			if want := ref.value(p); !ok || got != want {
				t.Fatalf("%s: probe %d (ok %v), minimax %d", position.Format(v, p), got, ok, want)
			}
			probed++
		}
		var buf [position.MaxPits]position.Move
		for _, m := range buf[:v.Moves(p, &buf)] {
			walk(m.Next)
		}
	}
	walk(v.Start())
	if probed < 100 {
		t.Errorf("only %d positions probed", probed)
	}
}

// buildTwice builds first's layers 0..firstSeeds, then second's
// 0..secondSeeds, into one new directory, and returns the directory and
// the second build's stats.
func buildTwice(t *testing.T, first *position.Variant, firstSeeds int, second *position.Variant, secondSeeds int) (string, BuildStats) {
	t.Helper()
	dir := t.TempDir()
	if _, err := Build(context.Background(), dir, first, BuildOptions{MaxSeeds: firstSeeds}); err != nil {
		t.Fatal(err)
	}
	stats, err := Build(context.Background(), dir, second, BuildOptions{MaxSeeds: secondSeeds})
	if err != nil {
		t.Fatal(err)
	}
	return dir, stats
}

// TestKalahRuleSetsKeepTheirOwnTablebase: the two capture rules never
// share a tablebase (TestVariantOf checks the mapping): a Kalah(3,3)
// build under the standard rule in a directory holding the empty-capture
// layers of Kalah(3,2) resumes none of them, and its prober answers with
// the standard rule's minimax values (which differ from the empty-capture
// ones on some position probed).
func TestKalahRuleSetsKeepTheirOwnTablebase(t *testing.T) {
	std := position.KalahStd(3, 3)
	dir, stats := buildTwice(t, position.Kalah(3, 2), 8, std, 8)
	if stats.Resumed != 0 || len(stats.Layers) != 9 {
		t.Errorf("kalah-std-3x3 after kalah-3x2: resumed %d layers and built %d, want 0 and 9", stats.Resumed, len(stats.Layers))
	}
	pr, err := OpenProber(dir, std)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	stdRef := &kalahMinimax{v: std, memo: map[[2]uint64]int{}}
	emptyRef := &kalahMinimax{v: position.Kalah(3, 3), memo: map[[2]uint64]int{}}
	differ := 0
	ix := NewIndex(std.Pits)
	for n := 0; n <= 8; n++ {
		for r := range uint64(ix.Size(n)) {
			p := ix.Unrank(n, r)
			want := stdRef.value(p)
			if got, ok := pr.Probe(p); !ok || got != want {
				t.Fatalf("%s: probe %d (ok %v), minimax %d", position.Format(std, p), got, ok, want)
			}
			if emptyRef.value(p) != want {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("no position of 0..8 seeds has different values under the two rules")
	}
}

// TestForwardMatchesGraphStandardRule: under the standard capture rule,
// too, the forward pass gives every position the value and distance of
// the predecessor graph's propagation (TestForwardMatchesGraph does the
// empty-capture sizes), for 2, 4 and 6 pits.
func TestForwardMatchesGraphStandardRule(t *testing.T) {
	seeds := map[int]int{2: testsize.Pick(8, 12, 12), 4: testsize.Pick(6, 9, 9), 6: testsize.Pick(5, 7, 7)}
	for _, pits := range []int{2, 4, 6} {
		v := position.KalahStd(pits, 4)
		wantV, wantD := memoryLayers(t, v, seeds[pits], MethodGraph, 2)
		gotV, gotD := memoryLayers(t, v, seeds[pits], MethodForward, 2)
		compareLayers(t, v, "standard rule", gotV, gotD, wantV, wantD)
	}
}
