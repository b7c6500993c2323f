package oracle

import (
	"context"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// Reply values the game's position after its line: the awari line of
// solver's TestHistoryChangesValue, played as moves 4 4 2 5 5, reaches a
// position whose value with that line before it differs from its value
// alone (value iteration, there).
func TestReplyUsesTheLine(t *testing.T) {
	start, err := position.Parse("awari:0,1,0,1,0,0/0,0,0,1,0,0:1")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(start, []string{"4", "4", "2", "5", "5"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Setup.String(); got != "awari:0,0,1,0,0,1/0,0,0,0,0,1:2" {
		t.Fatalf("reached %s", got)
	}
	o, err := Open(Config{NoTB: true, Threads: 1, HashMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	ctx := context.Background()
	reply, err := o.Reply(ctx, g, SolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := o.Solve(ctx, g.Setup, SolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reply.Exact || !alone.Exact || reply.Value == alone.Value {
		t.Errorf("with the line %d (exact %v), alone %d (exact %v): want two exact, different values",
			reply.Value, reply.Exact, alone.Value, alone.Exact)
	}
	if m, ok := reply.Choice(); !ok || !slices.Contains(reply.BestMoves, m) {
		t.Errorf("choice %v (%v), best moves %v", m, ok, reply.BestMoves)
	}
	g.Over = true
	if _, err := o.Reply(ctx, g, SolveOptions{}); err == nil {
		t.Error("a finished game: no error")
	}
}
