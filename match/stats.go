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

// LLR is the generalised log-likelihood ratio of H1 over H0 after the
// games of s, as fishtest and fastchess compute it for a trinomial of
// losses, draws and wins (M. Van den Bergh, "Comments on normalized Elo",
// Proposition 1.1): each game scores a = 0, 1/2 or 1, with the observed
// frequencies p̂; under a hypothesis of expected score s (Elo0's or Elo1's,
// logistic model) the most likely distribution is
//
//	p_i = p̂_i / (1 + θ (a_i - s)), θ the root of Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0,
//
// and LLR = n Σ p̂_i ln(p1_i / p0_i). When no root keeps every p_i ≥ 0 (s
// outside the scores seen, as when every game so far has one result), θ
// stops at its bound and the missing weight goes to the unseen extreme
// result: after n wins LLR = n ln(s1/s0), after n losses n ln((1-s1) /
// (1-s0)), after n draws n ln((1-|2s1-1|) / (1-|2s0-1|)). (Fishtest and
// fastchess mix a prior of 1/1000 of a game into unseen results instead,
// which moves the ratio by up to 0.003; the normal approximation n (s1-s0)
// (2r-s0-s1) / (2σ²) divides by σ² = 0 there and never stops.) It is 0
// with no games.
func (t SPRT) LLR(s Score) float64 {
	return gsprtLLR([]float64{0, 0.5, 1}, []float64{float64(s.Losses), float64(s.Draws), float64(s.Wins)},
		ratioOf(t.Elo0), ratioOf(t.Elo1))
}

// gsprtLLR is the generalised log-likelihood ratio of expected score s1
// over s0 (each strictly between the first and last score) for counts[i]
// games that scored scores[i] (ascending).
func gsprtLLR(scores, counts []float64, s0, s1 float64) float64 {
	n := 0.0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0
	}
	p := make([]float64, len(counts))
	for i, c := range counts {
		p[i] = c / n
	}
	p0, p1 := mostLikely(scores, p, s0), mostLikely(scores, p, s1)
	llr := 0.0
	for i := range p {
		if p[i] > 0 {
			llr += p[i] * math.Log(p1[i]/p0[i])
		}
	}
	return n * llr
}

// mostLikely is the distribution over scores of expected score s that
// makes the observed frequencies p most likely, given for the scores seen
// (p_i > 0): p_i / (1 + θ (a_i - s)), with θ the root of the decreasing
// function f below in [-1/(a_last - s), 1/(s - a_first)], the range where
// no weight is negative, found by bisection; when f keeps one sign over
// the range, θ is the bound it points to (the unseen extreme score there
// takes the rest of the weight, which the ratio never reads).
func mostLikely(scores, p []float64, s float64) []float64 {
	f := func(theta float64) float64 {
		sum := 0.0
		for i, a := range scores {
			if p[i] > 0 {
				sum += p[i] * (a - s) / (1 + theta*(a-s))
			}
		}
		return sum
	}
	last := len(scores) - 1
	lo, hi := -1/(scores[last]-s), 1/(s-scores[0])
	var theta float64
	switch {
	case f(0) == 0: // every game scored s
	case p[0] == 0 && f(hi) >= 0: // too few low scores even with the lowest unseen
		theta = hi
	case p[last] == 0 && f(lo) <= 0:
		theta = lo
	default:
		for range 200 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if f(mid) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		theta = (lo + hi) / 2
	}
	q := make([]float64, len(p))
	for i, a := range scores {
		if p[i] > 0 {
			q[i] = p[i] / (1 + theta*(a-s))
		}
	}
	return q
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
