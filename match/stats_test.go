package match

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestElo: README's Aalina match, 50 wins, 21 draws, 29 losses, was
// reported as +74 Elo,
// +14 .. +139 at 95%. By hand: r = 60.5/100 = 0.605, Elo = -400
// log10(1/0.605 - 1) = -400 log10(0.65289) = 74.06; σ² = (50·0.395² +
// 21·0.105² + 29·0.605²)/100 = 0.186475, se = sqrt(σ²/100) = 0.043183,
// r ± 1.96 se = 0.52036 .. 0.68964, Elo 14.16 .. 138.70.
func TestElo(t *testing.T) {
	s := Score{Wins: 50, Draws: 21, Losses: 29}
	elo, lo, hi := s.Elo()
	if !near(elo, 74.06, 0.01) || !near(lo, 14.16, 0.02) || !near(hi, 138.70, 0.02) {
		t.Errorf("Elo = %.2f (%.2f .. %.2f); want 74.06 (14.16 .. 138.70)", elo, lo, hi)
	}
	for _, c := range []struct {
		s    Score
		want float64
	}{
		{Score{Wins: 3, Losses: 1}, 190.85}, // r = 0.75: -400 log10(1/3)
		{Score{Draws: 7}, 0},
		{Score{Wins: 1, Losses: 3}, -190.85},
	} {
		if elo, _, _ := c.s.Elo(); !near(elo, c.want, 0.01) {
			t.Errorf("%+v: Elo %.2f; want %.2f", c.s, elo, c.want)
		}
	}
	if elo, lo, hi := (Score{Wins: 4}).Elo(); !math.IsInf(elo, 1) || !math.IsInf(lo, 1) || !math.IsInf(hi, 1) {
		t.Errorf("all wins: %v %v %v; want +Inf", elo, lo, hi)
	}
}

// TestSPRT: Wald's bounds at α = β = 0.05 are ln(0.05/0.95) = -2.9444 and
// +2.9444. For 50-21-29 and H0 Elo 0, H1 Elo 10: s0 = 0.5, s1 = 1/(1 +
// 10^(-1/40)) = 0.514387; LLR = 100 · 0.014387 · (1.21 - 1.014387) / (2 ·
// 0.186475) = 0.7546.
func TestSPRT(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10}
	lo, hi := test.Bounds()
	if !near(lo, -2.9444, 1e-4) || !near(hi, 2.9444, 1e-4) {
		t.Errorf("bounds %.4f %.4f", lo, hi)
	}
	s := Score{Wins: 50, Draws: 21, Losses: 29}
	if llr := test.LLR(s); !near(llr, 0.7546, 1e-3) {
		t.Errorf("LLR = %.4f; want 0.7546", llr)
	}
	// Mirror: swapping wins and losses and negating the hypotheses negates the LLR.
	mirror := SPRT{Elo0: -10, Elo1: 0}
	if a, b := test.LLR(s), mirror.LLR(Score{Wins: 29, Draws: 21, Losses: 50}); !near(a, -b, 1e-9) {
		t.Errorf("LLR %v, mirrored %v", a, b)
	}
	if v := test.Verdict(s); v != Continue {
		t.Errorf("verdict %v; want continue", v)
	}
	// Four times the games at the same ratio: LLR 4 · 0.7546 = 3.02, past the upper bound.
	if v := test.Verdict(Score{Wins: 200, Draws: 84, Losses: 116}); v != AcceptH1 {
		t.Errorf("verdict %v; want H1", v)
	}
	if v := test.Verdict(Score{Wins: 116, Draws: 84, Losses: 200}); v != AcceptH0 {
		t.Errorf("verdict %v; want H0", v)
	}
}
