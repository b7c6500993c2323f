package oracle

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// exitPly plays pv from s and returns the ply of its first capture, or of
// the game's end (counted as none: the ply before it), 0 if neither comes.
func exitPly(t *testing.T, s position.Setup, pv []Move) int {
	t.Helper()
	p := s.Position
	for i, m := range pv {
		mv, err := s.Variant.MakeMove(p, int(m))
		if err != nil {
			t.Fatalf("pv %v, ply %d: %v", pv, i+1, err)
		}
		if mv.Captured > 0 {
			return i + 1
		}
		p = mv.Next
		if len(legalMoves(s.Variant, p)) == 0 {
			return i + 1
		}
	}
	return 0
}

// Query gives the distance the tablebase stores (doc.go: the plies to the
// capture or game end that realises the value): hand-worked for one
// position, the prober's for random ones, and the ply at which the
// principal variation, played out, reaches its first capture or the end.
func TestQueryDistance(t *testing.T) {
	dir := t.TempDir()
	v, _ := position.Lookup("awari")
	if _, err := tablebase.Build(context.Background(), dir, v, tablebase.BuildOptions{MaxSeeds: 7}); err != nil {
		t.Fatal(err)
	}
	o := newOracle(t, Config{TBDir: dir, Threads: 1})
	ctx := context.Background()
	// Pit 6 sows its seed into player 2's pit 1, making 2: a capture, +1.
	a, err := o.Query(ctx, mustSetup(t, "awari:0,0,0,0,0,1/1,1,0,0,0,0:1"))
	if err != nil || a.Value != 1 || a.Distance == nil || *a.Distance != 1 {
		t.Fatalf("%+v, %v: want value +1 at distance 1", a, err)
	}
	pr, err := tablebase.OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	rng := rand.New(rand.NewPCG(21, 7))
	checked := 0
	for checked < 200 {
		p, ok := randomBoard(v, rng, 1+rng.IntN(7))
		if !ok || len(legalMoves(v, p)) == 0 || legalMoves(v, p)[0].IsPass() {
			continue
		}
		s := position.Setup{Variant: v, Position: p}
		a, err := o.Query(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		_, want, _ := pr.ProbeDistance(p)
		if a.Distance == nil || *a.Distance != want {
			t.Fatalf("%s: distance %v, the prober's %d", a.Position, a.Distance, want)
		}
		if a.Value != 0 && a.PVComplete {
			if got := exitPly(t, s, a.PV); got != want {
				t.Errorf("%s: value %+d, pv %v reaches its exit at ply %d, distance %d", a.Position, a.Value, a.PV, got, want)
			}
		}
		checked++
	}
}

// A player who must pass: the pass is a move inside the layer, so the
// distance is one more than the position's after it (0 for a value of 0).
func TestQueryDistanceOfAForcedPass(t *testing.T) {
	dir := t.TempDir()
	v, _ := position.Lookup("djenon-abe")
	if _, err := tablebase.Build(context.Background(), dir, v, tablebase.BuildOptions{MaxSeeds: 6}); err != nil {
		t.Fatal(err)
	}
	o := newOracle(t, Config{TBDir: dir, Threads: 1})
	ctx := context.Background()
	pass, err := o.Query(ctx, mustSetup(t, "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1"))
	if err != nil {
		t.Fatal(err)
	}
	after, err := o.Query(ctx, mustSetup(t, "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:2"))
	if err != nil || pass.Distance == nil || after.Distance == nil || after.Value == 0 || *pass.Distance != *after.Distance+1 {
		t.Fatalf("pass %v (value %+d), after it %v (value %+d), %v: want one more", pass.Distance, pass.Value, after.Distance, after.Value, err)
	}
}
