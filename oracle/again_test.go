package oracle

import (
	"context"
	"testing"
)

// TestPlayAndAnalyzeMarkExtraMoves: in kalah-2x2 (2,2/2,2) player 1's
// pit 1 sows pit 2 and the store, so player 1 moves again; pit 2, now 3
// seeds, sows the store and player 2's pits 1 and 2, and player 2 moves.
// Each banks one seed. Worked by hand; play and analyze report the same.
func TestPlayAndAnalyzeMarkExtraMoves(t *testing.T) {
	type ply struct {
		player, captured int
		again            bool
	}
	want := []ply{{1, 1, true}, {1, 1, false}}
	s := mustSetup(t, "kalah-2x2")
	played, err := Play(s, []string{"1", "2"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if played.Position != "kalah-2x2:0,0/3,3:2:2-0" || len(played.Moves) != len(want) {
		t.Fatalf("play: %+v", played)
	}
	for i, m := range played.Moves {
		if got := (ply{m.Player, m.Captured, m.Again}); got != want[i] {
			t.Errorf("play, ply %d: %+v, want %+v", i+1, got, want[i])
		}
	}
	o := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 16})
	an, err := o.Analyze(context.Background(), Game{Start: s, Moves: []int{1, 2}}, AnalyzeOptions{Nodes: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Plies) != len(want) {
		t.Fatalf("analyze: %d plies, want %d", len(an.Plies), len(want))
	}
	for i, p := range an.Plies {
		if got := (ply{p.Player, p.Captured, p.Again}); got != want[i] {
			t.Errorf("analyze, ply %d: %+v, want %+v", i+1, got, want[i])
		}
	}
}
