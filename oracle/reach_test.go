package oracle

import (
	"context"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/tablebase"
)

// TestReachOf: the start of kalah (Kalah(6,4)) is proven by default with
// an 18-seed tablebase in memory, which needs 3 bytes a position of layers
// 0..18: sum over n of C(n+11, 11) = C(30, 12) = 86,493,225 positions,
// 259,479,675 bytes; kalah-std's start with a 20-seed one. Any other
// position of kalah, a start with captures, another size, a budget one
// byte short: none.
func TestReachOf(t *testing.T) {
	const need = 3 * 86_493_225
	if got := tablebase.MemoryBytes(mustSetup(t, "kalah").Variant, 18); got != need {
		t.Fatalf("18-seed kalah tablebase: %d bytes, want %d", got, need)
	}
	for _, c := range []struct {
		pos    string
		budget int64
		seeds  int // 0: none
	}{
		{"kalah", need, 18},
		{"kalah", 8 << 30, 18},
		{"kalah", need - 1, 0},
		{"kalah:4,4,4,4,4,4/4,4,4,4,4,4:2", 8 << 30, 0}, // player 2 to move
		{"kalah:0,5,5,5,5,4/4,4,4,4,4,4:1", 8 << 30, 0}, // not the start: player 1's move 1 sown
		{"kalah-6x5", 8 << 30, 0},
		{"kalah-6x3", 8 << 30, 0},
		{"kalah-std", 8 << 30, 20},
		{"kalah-std-6x5", 8 << 30, 0},
		{"oware", 8 << 30, 0},
	} {
		r, ok := ReachOf(mustSetup(t, c.pos), c.budget)
		if ok != (c.seeds > 0) || r.MemTBSeeds != c.seeds {
			t.Errorf("ReachOf(%s, %d bytes) = %+v, %v; want %d seeds", c.pos, c.budget, r, ok, c.seeds)
		}
	}
	s := mustSetup(t, "kalah")
	s.CapturesKnown, s.Captured = true, [2]int{0, 0}
	if _, ok := ReachOf(s, 8<<30); !ok {
		t.Error("the start with captures known to be 0-0: not proven by default")
	}
	s.Captured = [2]int{1, 0}
	if _, ok := ReachOf(s, 8<<30); ok {
		t.Error("the start's board after captures: proven by default")
	}
}

// TestMemServing: the in-memory tablebase that serves a position, worked
// by hand for kalah with no disk tablebase. The automatic size is 12
// seeds (layers 0..12: C(24, 12) = 2,704,156 positions, within
// MemoryPositions; 0..13: C(25, 12) = 5,200,300, beyond), serving
// positions of at most 24 seeds; under a proof within reach the reach's
// size, or the automatic one when larger, serves any position.
func TestMemServing(t *testing.T) {
	o := newOracle(t, Config{MemTBSeeds: MemTBAuto, Threads: 1, HashMiB: 4})
	vs := o.variant(mustSetup(t, "kalah").Variant)
	for _, c := range []struct {
		pos          string
		reach, seeds int
	}{
		{"kalah", 0, 0}, // 48 seeds
		{"kalah:2,2,2,2,2,2/2,2,2,2,2,2:1", 0, 12},  // 24 seeds
		{"kalah:2,2,2,2,2,3/2,2,2,2,2,2:1", 0, 0},   // 25 seeds
		{"kalah", 16, 16},                           // the start under its reach
		{"kalah:2,2,2,2,2,3/2,2,2,2,2,2:1", 16, 16}, // any position under it
		{"kalah:1,0,0,0,0,0/0,0,0,0,0,1:1", 10, 12}, // a reach below the automatic size
		{"kalah:4,4,4,4,4,4/4,4,4,4,4,4:2", 16, 16}, // player 2's turn: served all the same
		{"kalah:0,0,0,0,0,1/0,0,0,0,0,1:1", 0, 12},  // 2 seeds
		{"kalah:0,0,0,0,0,1/0,0,0,0,0,1:1", 20, 20}, // 2 seeds, a larger reach
		{"kalah:4,4,4,4,4,4/4,4,4,4,4,4:2", 12, 12}, // 48 seeds, a reach of the automatic size
	} {
		p := mustSetup(t, c.pos).Position
		if got := o.memServing(vs, nil, p, c.reach); got != c.seeds {
			t.Errorf("%s, reach %d: served by %d seeds, want %d", c.pos, c.reach, got, c.seeds)
		}
		if got := o.memPending(vs, p, c.reach); got != (c.seeds > 0) {
			t.Errorf("%s, reach %d: pending %v, want %v", c.pos, c.reach, got, c.seeds > 0)
		}
	}
}

// TestSolveReach: under SolveOptions.Reach, a start listed in reaches is
// searched without its time limit and with the in-memory tablebase for
// any position: Kalah(6,3), 36 seeds, beyond the 24 the automatic 12-seed
// tablebase serves, with a nanosecond of time brings its exact value (+2,
// docs/kalah.md) from a search with that tablebase (12 seeds, larger than
// the reach's 8). Reach is ignored without MemTBAuto, with NoTB, without
// SolveOptions.Reach, and for any position but the start.
func TestSolveReach(t *testing.T) {
	s := mustSetup(t, "kalah-6x3")
	reaches[s.Variant.Name] = Reach{MemTBSeeds: 8}
	defer delete(reaches, s.Variant.Name)
	o := newOracle(t, Config{MemTBSeeds: MemTBAuto, Threads: 1, HashMiB: 4})
	a, err := o.Solve(context.Background(), s, SolveOptions{Time: time.Nanosecond, Reach: true, OneBest: true})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Exact || a.Value != 2 || !a.TablebaseInMemory || a.TablebaseSeeds != 12 || a.Source != SourceSearch {
		t.Errorf("kalah-6x3 under Reach with 1 ns: %+v; want exact +2, searched with the 12-seed in-memory tablebase", a)
	}
	for _, cfg := range []Config{{MemTBSeeds: 6}, {MemTBSeeds: 0}, {NoTB: true}} {
		o := newOracle(t, Config{MemTBSeeds: cfg.MemTBSeeds, NoTB: cfg.NoTB, Threads: 1, HashMiB: 4})
		if _, ok := o.reachOf(s, SolveOptions{Reach: true}); ok {
			t.Errorf("%+v: Reach applied; want it ignored unless MemTBSeeds is automatic", cfg)
		}
	}
	if _, ok := o.reachOf(s, SolveOptions{}); ok {
		t.Error("Reach applied without SolveOptions.Reach")
	}
	if _, ok := o.reachOf(mustSetup(t, "kalah-6x3:3,3,3,3,3,3/3,3,3,3,3,3:2"), SolveOptions{Reach: true}); ok {
		t.Error("Reach applied to player 2's turn at the start's board")
	}
}
