package position

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestGameLineForcedPass works a forced pass by hand: in
// djenon-abe:0,0,0,0,0,0/0,0,0,0,1,3:1 player 1 has no seeds while player
// 2 can move, so player 1 passes at once. The line holds that pass as its
// first ply; a typed "pass" names it and adds nothing; a second one is
// player 2's, who has moves, and is illegal.
func TestGameLineForcedPass(t *testing.T) {
	s, err := Parse("djenon-abe:0,0,0,0,0,0/0,0,0,0,1,3:1")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(s)
	if !g.StartPassed() || len(g.Line) != 1 || g.Line[0].Before != s || !g.Line[0].Move.IsPass() || g.Line[0].Player() != 1 {
		t.Fatalf("line %+v: want player 1's forced pass from the setup", g.Line)
	}
	if g.Position.Player() != 2 {
		t.Fatalf("player %d to move after the pass, want 2", g.Position.Player())
	}
	if plies, err := g.Play(PassPit); err != nil || len(plies) != 0 || len(g.Line) != 1 {
		t.Fatalf("typed pass: plies %v, err %v, line %d long; want it to name the forced pass", plies, err, len(g.Line))
	}
	if _, err := g.Play(PassPit); err == nil {
		t.Fatal("a second pass, by player 2 who has moves, was accepted")
	}
}

// TestGameLineReplays: in random games the line is the game: it starts at
// the setup, each ply is played from where the last one led (captures
// added up), a pass appears exactly where the rules force one, and every
// accepted move that is not a named pass is one ply. Layer(i) is checked
// against its definition read another way: the positions before ply i from
// which no seed was captured up to ply i (none in kalah).
func TestGameLineReplays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		s := Setup{Variant: v, Position: p, CapturesKnown: true}
		g := NewGameNoStopAt(s)
		moves := 0
		for i := rapid.IntRange(0, 60).Draw(t, "moves"); i > 0 && !g.Over; i-- {
			var buf [MaxPits]Move
			n := v.Moves(g.Position, &buf)
			pit := int(buf[rapid.IntRange(0, n-1).Draw(t, "move")].Pit)
			if rapid.Bool().Draw(t, "name pass") && len(g.Line) > 0 && g.Line[len(g.Line)-1].Move.IsPass() {
				if _, err := g.Play(PassPit); err != nil {
					t.Fatalf("naming a forced pass: %v", err)
				}
			}
			if _, err := g.Play(pit); err != nil {
				t.Fatalf("move %d: %v", pit, err)
			}
			moves++
		}
		at, passes := s, 0
		for i, ply := range g.Line {
			if ply.Before != at {
				t.Fatalf("ply %d from %s, want %s", i+1, ply.Before, at)
			}
			var buf [MaxPits]Move
			n := v.Moves(at.Position, &buf)
			if forced := n == 1 && buf[0].IsPass(); forced != ply.Move.IsPass() {
				t.Fatalf("ply %d (%s): pass %v, forced %v", i+1, at, ply.Move.IsPass(), forced)
			}
			if !ply.Move.IsPass() && !slices.Contains(buf[:n], ply.Move) {
				t.Fatalf("ply %d: move %+v is not a legal move of %s", i+1, ply.Move, at)
			}
			if ply.Move.IsPass() {
				passes++
			}
			var want []Position
			for j := range i {
				captured := 0
				for _, q := range g.Line[j:i] {
					captured += int(q.Move.Captured)
				}
				if captured == 0 && v.CanRepeat() {
					want = append(want, g.Line[j].Before.Position)
				}
			}
			if got := g.Layer(i); !slices.Equal(got, want) {
				t.Fatalf("Layer(%d) = %v, want %v", i, got, want)
			}
			at.Captured[at.Position.Side] += int(ply.Move.Captured)
			at.Position = ply.Move.Next
		}
		if at != g.Setup || len(g.Line)-passes != moves {
			t.Fatalf("line ends at %s with %d moves, game at %s with %d", at, len(g.Line)-passes, g.Setup, moves)
		}
	})
}
