package tablebase

import (
	"context"
	"testing"

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

// TestKalahTablebase: in-memory tablebases of small kalah sizes, built to
// every seed of the game, hold plain minimax's value for every position
// reached from the start position (both players to move), and the start
// values are those of the solver's table in docs/kalah.md (Kalah(3,3) = +2,
// Kalah(4,2) = +6, as another solver published).
func TestKalahTablebase(t *testing.T) {
	for _, c := range []struct {
		pits, seeds, start int
	}{{3, 2, +4}, {3, 3, +2}, {4, 2, +6}} {
		v := position.Kalah(c.pits, c.seeds)
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
	dir := t.TempDir()
	if _, err := Build(context.Background(), dir, position.Kalah(3, 2), BuildOptions{MaxSeeds: 6}); err != nil {
		t.Fatal(err)
	}
	v := position.Kalah(3, 3)
	stats, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 8})
	if err != nil {
		t.Fatal(err)
	}
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
