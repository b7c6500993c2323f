package position

import "testing"

// A game that ends by repetition: oware gives the board to nobody, oware-own
// (Aalina's referee) gives each player their own row. The 18 moves are
// legal in both (the rules differ only at the repetition), and the
// repeated position holds 1 seed on player 1's row and 2 on player 2's.
func TestRepetitionShares(t *testing.T) {
	moves := []int{6, 1, 3, 2, 4, 3, 5, 5, 6, 6, 1, 4, 2, 1, 3, 2, 4, 3}
	for _, c := range []struct {
		variant string
		final   [2]int
	}{
		{"oware", [2]int{24, 21}},
		{"oware-own", [2]int{25, 23}},
	} {
		s, err := Parse(c.variant + ":0,0,1,0,0,1/1,0,0,0,0,0:1:24-21")
		if err != nil {
			t.Fatal(err)
		}
		g := NewGame(s)
		for i, m := range moves {
			if _, err := g.Play(m); err != nil {
				t.Fatalf("%s: move %d: %v", c.variant, i+1, err)
			}
		}
		if !g.Over || g.End != EndRepetition || g.Final != c.final {
			t.Errorf("%s: over %v (%s), final %v; want a repetition, final %v", c.variant, g.Over, g.End, g.Final, c.final)
		}
		if got := Format(g.Variant, g.Position); got != c.variant+":0,0,0,0,1,0/0,0,0,1,1,0:1" {
			t.Errorf("%s: repeated position %s", c.variant, got)
		}
	}
}

// RepetitionValue is the own-row difference from the side to move under
// RepetitionOwnRows, and 0 otherwise.
func TestRepetitionValue(t *testing.T) {
	own, _ := Lookup("oware-own")
	plain, _ := Lookup("oware")
	p := FromRows(PackRow([]int{0, 0, 0, 0, 1, 0}), PackRow([]int{0, 0, 0, 1, 1, 0}), 2)
	if got := own.RepetitionValue(p); got != 1 { // player 2 to move: 2 - 1
		t.Errorf("oware-own: %d, want 1", got)
	}
	if got := plain.RepetitionValue(p); got != 0 {
		t.Errorf("oware: %d, want 0", got)
	}
	if own.RulesVersion() == plain.RulesVersion() && own.ID == plain.ID {
		t.Error("oware-own shares oware's tablebase key")
	}
}

// oware-own's neutral twin is oware (every rule equal but the repetition
// rule); a game whose repetitions go to nobody is its own twin.
func TestNeutralTwin(t *testing.T) {
	own, err := Lookup("oware-own")
	if err != nil {
		t.Fatal(err)
	}
	if got := own.NeutralTwin(); got == nil || got.Name != "oware" {
		t.Errorf("oware-own's twin: %v, want oware", got)
	}
	for _, v := range Variants() {
		if got := v.NeutralTwin(); got != v {
			t.Errorf("%s's twin: %v, want itself", v.Name, got)
		}
	}
	k, _ := Lookup("kalah-std-4x3")
	if got := k.NeutralTwin(); got != k {
		t.Errorf("kalah-std-4x3's twin: %v", got)
	}
}
