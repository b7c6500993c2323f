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
// +2.9444. H0 Elo 0, H1 Elo 10: s0 = 0.5, s1 = 1/(1 + 10^(-1/40)) =
// 0.5143871841. For 50-21-29 the generalised LLR is 0.71337 (the most
// likely distributions found by maximising the likelihood over the draw
// rate, sprtByDrawRate below, and by a separate Python script the same
// way); the normal approximation gave 0.7546.
func TestSPRT(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10}
	lo, hi := test.Bounds()
	if !near(lo, -2.9444, 1e-4) || !near(hi, 2.9444, 1e-4) {
		t.Errorf("bounds %.4f %.4f", lo, hi)
	}
	s := Score{Wins: 50, Draws: 21, Losses: 29}
	if llr := test.LLR(s); !near(llr, 0.71337, 1e-4) {
		t.Errorf("LLR = %.5f; want 0.71337", llr)
	}
	// Mirror: swapping wins and losses and negating the hypotheses negates the LLR.
	mirror := SPRT{Elo0: -10, Elo1: 0}
	if a, b := test.LLR(s), mirror.LLR(Score{Wins: 29, Draws: 21, Losses: 50}); !near(a, -b, 1e-9) {
		t.Errorf("LLR %v, mirrored %v", a, b)
	}
	if v := test.Verdict(s); v != Continue {
		t.Errorf("verdict %v; want continue", v)
	}
	// Five times the games at the same ratio: LLR 5 · 0.71337 = 3.567, past the upper bound.
	if v := test.Verdict(Score{Wins: 250, Draws: 105, Losses: 145}); v != AcceptH1 {
		t.Errorf("verdict %v; want H1", v)
	}
	if v := test.Verdict(Score{Wins: 145, Draws: 105, Losses: 250}); v != AcceptH0 {
		t.Errorf("verdict %v; want H0", v)
	}
}

// TestSPRTOneResult: a match whose games all have one result stops. The
// most likely distribution of mean s with the most wins puts s on a win
// (the rest on a loss), so n wins give LLR n ln(s1/s0) = n · 0.0283682 at
// Elo 0 against 10: H1 after 104 wins (2.9503), not 103 (2.9219). Losses:
// most likely 1 - s on a loss, n ln((1-s1)/(1-s0)) = n · -0.0291965, H0
// after 101 (-2.9488), not 100. Draws: at most 1 - |2s - 1| a draw,
// n ln(2(1-s1)) = n · -0.0291965, H0 after 101 draws. With Elo 0 against
// 300 (s1 = 0.8490204) a win is worth ln(1.6980408) = 0.529473: H1 after
// 6 wins (3.1768), not 5 (2.6474).
func TestSPRTOneResult(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10}
	for _, c := range []struct {
		score    func(n int) Score
		perGame  float64
		n        int // the first number of games that decides
		decision Verdict
	}{
		{func(n int) Score { return Score{Wins: n} }, 0.0283682, 104, AcceptH1},
		{func(n int) Score { return Score{Losses: n} }, -0.0291965, 101, AcceptH0},
		{func(n int) Score { return Score{Draws: n} }, -0.0291965, 101, AcceptH0},
	} {
		for _, n := range []int{1, 10, c.n - 1, c.n} {
			s := c.score(n)
			if llr := test.LLR(s); !near(llr, float64(n)*c.perGame, 1e-5) {
				t.Errorf("%+v: LLR %.5f; want %.5f", s, llr, float64(n)*c.perGame)
			}
			want := Continue
			if n == c.n {
				want = c.decision
			}
			if v := test.Verdict(s); v != want {
				t.Errorf("%+v: %v; want %v", s, v, want)
			}
		}
	}
	wide := SPRT{Elo0: 0, Elo1: 300}
	if llr := wide.LLR(Score{Wins: 6}); !near(llr, 3.17685, 1e-5) {
		t.Errorf("6 wins at 0,300: LLR %.4f; want 3.1768", llr)
	}
	if v5, v6 := wide.Verdict(Score{Wins: 5}), wide.Verdict(Score{Wins: 6}); v5 != Continue || v6 != AcceptH1 {
		t.Errorf("5 and 6 wins at 0,300: %v, %v; want continue, H1", v5, v6)
	}
	if llr := test.LLR(Score{}); llr != 0 {
		t.Errorf("no games: LLR %v", llr)
	}
}

// TestSPRTAgainstDrawRate cross-checks LLR's root finding against a
// second method: the likelihood of mean s maximised over the draw rate d
// alone (wins s - d/2, losses 1 - s - d/2) by golden-section search.
func TestSPRTAgainstDrawRate(t *testing.T) {
	for _, c := range []struct {
		s          Score
		elo0, elo1 float64
	}{
		{Score{Wins: 50, Draws: 21, Losses: 29}, 0, 10},
		{Score{Wins: 3, Draws: 40, Losses: 2}, 0, 5},
		{Score{Wins: 12, Draws: 1, Losses: 30}, -20, 20},
		{Score{Wins: 7, Draws: 7, Losses: 7}, 0, 50},
	} {
		want := sprtByDrawRate(c.s, ratioOf(c.elo1)) - sprtByDrawRate(c.s, ratioOf(c.elo0))
		if got := (SPRT{Elo0: c.elo0, Elo1: c.elo1}).LLR(c.s); !near(got, want, 1e-6) {
			t.Errorf("%+v at %g,%g: LLR %.7f; by the draw rate %.7f", c.s, c.elo0, c.elo1, got, want)
		}
	}
}

// sprtByDrawRate is the largest log-likelihood of s's games (every count
// positive) under a distribution of mean score m.
func sprtByDrawRate(s Score, m float64) float64 {
	ll := func(d float64) float64 {
		return float64(s.Wins)*math.Log(m-d/2) + float64(s.Draws)*math.Log(d) + float64(s.Losses)*math.Log(1-m-d/2)
	}
	a, b := 1e-12, 2*math.Min(m, 1-m)-1e-12
	g := (math.Sqrt(5) - 1) / 2
	for range 300 {
		c, d := b-g*(b-a), a+g*(b-a)
		if ll(c) > ll(d) {
			b = d
		} else {
			a = c
		}
	}
	return ll((a + b) / 2)
}
