package position

import (
	"math/rand/v2"
	"testing"
)

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

// TestMovesAgainAndStartsLayer works the two rules out by hand on start
// positions. Kalah's pit 3 holds 4 seeds: they fall into pits 4, 5, 6 and
// the store, so the mover moves again; pit 1's four end in pit 5. Awari's
// pit 1 sows into pits 2..5 and captures nothing, so it neither keeps the
// mover nor starts a layer, while every kalah move starts one (kalah
// cannot repeat a position).
func TestMovesAgainAndStartsLayer(t *testing.T) {
	kalah, awari := mustLookup(t, "kalah"), mustLookup(t, "awari")
	cases := []struct {
		v            *Variant
		p            Position
		pit          int
		again, layer bool
	}{
		{kalah, kalah.Start(), 3, true, true},
		{kalah, kalah.Start(), 1, false, true},
		{awari, awari.Start(), 1, false, false},
		// Awari, player 1 to move: pit 6's one seed lands in the
		// opponent's pit 1, which holds 1, and captures 2 (pit 3 keeps
		// its seed: no grand slam).
		{awari, Position{Own: 0x01_00_00_00_00_00, Opp: 0x01_00_01, Side: 0}, 6, false, true},
	}
	for _, c := range cases {
		m, err := c.v.MakeMove(c.p, c.pit)
		if err != nil {
			t.Fatalf("%s pit %d: %v", c.v.Name, c.pit, err)
		}
		if got := m.MovesAgain(c.p); got != c.again {
			t.Errorf("%s pit %d: MovesAgain = %v, want %v", c.v.Name, c.pit, got, c.again)
		}
		if got := c.v.StartsLayer(m); got != c.layer {
			t.Errorf("%s pit %d (captured %d): StartsLayer = %v, want %v", c.v.Name, c.pit, m.Captured, got, c.layer)
		}
	}
	pass := Move{Pit: PassPit, Next: awari.Start().Swapped()}
	if pass.MovesAgain(awari.Start()) || awari.StartsLayer(pass) {
		t.Errorf("a pass hands the turn over and captures nothing")
	}
}

func mustLookup(t *testing.T, name string) *Variant {
	t.Helper()
	v, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSeedParity: the rule holds for every kalah size (no position
// recurs) and for oware-own (a repetition gives each player their own
// row), not where a repetition gives the board to nobody; and where it
// holds, every end met in random playouts, by the end rule or (oware-own)
// by repetition, is worth the parity of the seeds on the board. The
// solver's tests compare whole values with plain minimax
// (solver/kalah_test.go, TestKalahValueParity).
func TestSeedParity(t *testing.T) {
	want := map[string]bool{"awari": false, "oware": false, "akon": false, "djenon-abe": false,
		"djenon-aboure": false, "oware-own": true, "kalah": true, "kalah-std-3x5": true, "kalah-1x1": true}
	for name, holds := range want {
		v := mustLookup(t, name)
		if v.SeedParity() != holds {
			t.Errorf("%s: SeedParity() = %v, want %v", name, !holds, holds)
			continue
		}
		if !holds {
			continue
		}
		rng := rand.New(rand.NewPCG(7, uint64(v.ID)))
		var buf [MaxPits]Move
		for game := 0; game < 200; game++ {
			p := v.Start()
			for ply := 0; ply < 300; ply++ {
				if v.CanRepeat() && (v.RepetitionValue(p)-p.Seeds())%2 != 0 {
					t.Fatalf("%s %s: repetition value %d, %d seeds", name, Format(v, p), v.RepetitionValue(p), p.Seeds())
				}
				n := v.Moves(p, &buf)
				if n == 0 {
					if (v.TerminalValue(p)-p.Seeds())%2 != 0 {
						t.Fatalf("%s %s: terminal value %d, %d seeds", name, Format(v, p), v.TerminalValue(p), p.Seeds())
					}
					break
				}
				p = buf[rng.IntN(n)].Next
			}
		}
	}
}
