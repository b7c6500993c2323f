package position

import (
	"testing"

	"github.com/mancala-solver/mancala/position/reference"
)

// Cases that rules.md leaves open, decided as its section 7 says; each is
// checked against the reference implementation too.

// djenon-aboure: player 1's only playable pit (7 seeds) relays forever, so
// player 1 has no legal move and passes while player 2 has moves (5.4).
func TestAboureAllEndlessPasses(t *testing.T) {
	st, err := Parse("djenon-aboure:7,1,0,1,0,1/2,1,5,4,3,2:1")
	if err != nil {
		t.Fatal(err)
	}
	v, p := st.Variant, st.Position
	if _, ok := v.sow(p.Own, p.Opp, 0); ok {
		t.Fatal("pit 1 should relay forever")
	}
	var buf [MaxPits]Move
	if n := v.Moves(p, &buf); n != 1 || !buf[0].IsPass() {
		t.Fatalf("want a single pass, got %v", buf[:n])
	}
	if !reference.MustPass(toState(v, p)) {
		t.Fatal("the reference does not pass")
	}
	if g := NewGame(st); !g.StartPassed() || g.Over || g.Position.Player() != 2 {
		t.Fatalf("game: passed %v over %v player %d", g.StartPassed(), g.Over, g.Position.Player())
	}
}

// djenon-abe: a position with exactly one seed in each row is a finished
// game however it arose (4.6), each player keeping their seed.
func TestAbeOneSeedEachIsOver(t *testing.T) {
	st, err := Parse("djenon-abe:0,0,1,0,0,0/0,0,0,1,0,0:2:23-23")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(st)
	if !g.Over || g.End != EndOneEach || g.Final != [2]int{24, 24} {
		t.Fatalf("over %v (%s), final %v; want over, 24-24", g.Over, g.End, g.Final)
	}
	if over, shares := reference.GameOver(toState(st.Variant, st.Position)); !over || shares != [2]int{1, 1} {
		t.Fatalf("reference: over %v shares %v", over, shares)
	}
}

// A repetition counts positions after forced passes: the game ends the
// moment a position, with its player to move, recurs.
func TestRepetitionEndsGameWithNoShares(t *testing.T) {
	st, _ := Parse("awari:1,0,0,0,0,0/1,0,0,0,0,0:1:23-23")
	g := NewGame(st)
	for _, pit := range []int{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6} {
		if _, err := g.Play(pit); err != nil || g.Over {
			t.Fatalf("move %d: %v, over %v", pit, err, g.Over)
		}
	}
	if _, err := g.Play(6); err != nil || !g.Over || g.End != EndRepetition || g.Final != [2]int{23, 23} {
		t.Fatalf("after the cycle: %v, over %v (%s), final %v", err, g.Over, g.End, g.Final)
	}
	if _, err := g.Play(1); err == nil {
		t.Fatal("a move after the end was accepted")
	}
}
