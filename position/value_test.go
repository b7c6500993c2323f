package position

import "testing"

func TestMoveValue(t *testing.T) {
	p := Position{Own: 0x0101, Opp: 0x0202, Side: 0}
	handover := Move{Pit: 1, Captured: 3, Next: Position{Side: 1}}
	if got := handover.Value(p, 5); got != -2 {
		t.Errorf("turn passes over: 3 captured, child worth 5 to its mover: got %d, want -2", got)
	}
	again := Move{Pit: 1, Captured: 1, Next: Position{Side: 0}}
	if got := again.Value(p, 5); got != 6 {
		t.Errorf("same mover again: 1 banked, child worth 5 to the same mover: got %d, want 6", got)
	}
	if Opponent(1) != 2 || Opponent(2) != 1 {
		t.Errorf("Opponent(1), Opponent(2) = %d, %d", Opponent(1), Opponent(2))
	}
}
