package match

import "math"

// Score is a match's tally from the first engine's side.
type Score struct {
	Wins, Draws, Losses int
}

// Games is the number of games tallied.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Ratio is the first engine's score a game: (wins + draws/2) / games, in
// 0..1; 0.5 with no games.
func (s Score) Ratio() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(n)
}

// variance is the variance of one game's score (1, 1/2 or 0) about the
// mean score r, as the tally's frequencies give it.
func (s Score) variance() float64 {
	n := float64(s.Games())
	r := s.Ratio()
	return (float64(s.Wins)*(1-r)*(1-r) + float64(s.Draws)*(0.5-r)*(0.5-r) + float64(s.Losses)*r*r) / n
}

// EloOf is the Elo difference that the logistic model gives a score ratio
// r (0..1): -400 log10(1/r - 1); ±Inf at 0 and 1.
func EloOf(r float64) float64 {
	switch {
	case r <= 0:
		return math.Inf(-1)
	case r >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/r-1)
}

// ratioOf is EloOf's inverse: the expected score of a player elo points
// stronger.
func ratioOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Elo is the first engine's Elo difference and its 95% confidence
// interval: the score ratio ± 1.96 standard errors (the games' own
// variance, wins, draws and losses as counted, over the number of games),
// each mapped by EloOf, as cutechess-cli reports it. With no games, or
// every game alike, the interval is the point (±Inf for all wins or all
// losses).
func (s Score) Elo() (elo, lo, hi float64) {
	r := s.Ratio()
	elo = EloOf(r)
	if s.Games() == 0 {
		return 0, 0, 0
	}
	se := math.Sqrt(s.variance() / float64(s.Games()))
	return elo, EloOf(r - z95*se), EloOf(r + z95*se)
}

// SPRT is a sequential probability ratio test of H0: the first engine is
// Elo0 stronger, against H1: Elo1 stronger, with false-positive rate
// Alpha and false-negative rate Beta (0.05 each when zero).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Verdict is an SPRT's state after some games.
type Verdict int

const (
	Continue Verdict = iota // neither bound reached
	AcceptH0                // the log-likelihood ratio is at or below the lower bound
	AcceptH1                // at or above the upper bound
)

func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Bounds are the test's log-likelihood ratio bounds: ln(β/(1-α)) and
// ln((1-β)/α) (Wald); ±2.94 at α = β = 0.05.
func (t SPRT) Bounds() (lower, upper float64) {
	a, b := t.Alpha, t.Beta
	if a == 0 {
		a = 0.05
	}
	if b == 0 {
		b = 0.05
	}
	return math.Log(b / (1 - a)), math.Log((1 - b) / a)
}

// LLR is the log-likelihood ratio of H1 over H0 after the games of s, by
// the normal approximation of the generalised SPRT (as fishtest computes
// it for a trinomial of wins, draws and losses): with r the score ratio,
// σ² one game's variance, and s0, s1 the expected scores at Elo0 and Elo1
// (logistic model),
//
//	LLR = n (s1 - s0) (2r - s0 - s1) / (2σ²).
//
// It is 0 with no games or when every game is alike (σ² = 0).
func (t SPRT) LLR(s Score) float64 {
	n := float64(s.Games())
	v := 0.0
	if n > 0 {
		v = s.variance()
	}
	if v == 0 {
		return 0
	}
	s0, s1 := ratioOf(t.Elo0), ratioOf(t.Elo1)
	return n * (s1 - s0) * (2*s.Ratio() - s0 - s1) / (2 * v)
}

// Verdict says whether the test stops after the games of s.
func (t SPRT) Verdict(s Score) Verdict {
	lo, hi := t.Bounds()
	switch llr := t.LLR(s); {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
