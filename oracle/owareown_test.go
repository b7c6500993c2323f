package oracle

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestOwareOwnTakesOwaresTablebaseAsEstimates: with a directory holding
// oware's tablebase, oware-own, which has none of its own, is answered
// (solve and analyze alike, not only the engine's play): a small endgame
// proven exact, with the value a search without any tablebase proves, and
// a larger position searched with oware's values as estimates (issue 43,
// defect 4: analyze stopped with "build it with mancala build oware-own",
// which the build refuses).
func TestOwareOwnTakesOwaresTablebaseAsEstimates(t *testing.T) {
	oware, err := position.Lookup("oware")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := tablebase.Build(context.Background(), dir, oware, tablebase.BuildOptions{MaxSeeds: 8, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	withTB := newOracle(t, Config{TBDir: dir, Threads: 1, HashMiB: 4})
	without := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	end := mustSetup(t, "oware-own:0,0,1,0,0,2/1,0,0,1,0,0:1")
	a, err := withTB.Solve(context.Background(), end, SolveOptions{Nodes: 2_000_000, NoPV: true})
	if err != nil {
		t.Fatalf("oware-own endgame with oware's tablebase: %v", err)
	}
	b, err := without.Solve(context.Background(), end, SolveOptions{Nodes: 2_000_000, NoPV: true})
	if err != nil || !b.Exact {
		t.Fatalf("without a tablebase: %+v (%v)", b, err)
	}
	if !a.Exact || a.Value != b.Value {
		t.Errorf("with oware's tablebase: %+d exact %v; without: %+d exact", a.Value, a.Exact, b.Value)
	}
	mid := mustSetup(t, "oware-own:2,1,0,3,0,0/1,2,0,1,0,0:1") // 10 seeds: a capture reaches oware's 8-seed layers
	c, err := withTB.Solve(context.Background(), mid, SolveOptions{Nodes: 200_000, Depth: 12, NoPV: true})
	if err != nil {
		t.Fatalf("oware-own midgame with oware's tablebase: %v", err)
	}
	if c.TablebaseHits == 0 {
		t.Errorf("oware-own midgame: no probe of oware's tablebase (%+v)", c)
	}
	g, err := ParseGame("oware-own 4 2 6 5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := withTB.Analyze(context.Background(), g, AnalyzeOptions{Nodes: 20_000}); err != nil {
		t.Errorf("analyze oware-own with oware's tablebase: %v", err)
	}
}
