package bench

import (
	"math/rand/v2"
	"slices"

	"github.com/mancala-solver/mancala/position"
)

// SampleSize is the number of (position, move) pairs of a make-move sample.
const SampleSize = 8192

// Sampling bounds. A game is cut at samplePlies plies or at its first
// repeated position: in an endless shuffle of a few seeds (a djenon game
// with only endless moves left, say) the same positions would otherwise
// fill the pool. sampleGames bounds the games played, so that a seed count
// that play seldom reaches cannot hold the sampling up.
const (
	samplePlies = 400
	sampleGames = 1000
)

// Sample is a fixed set of positions met in play, each with one of its
// legal moves.
type Sample struct {
	Variant   *position.Variant
	Positions []position.Position
	Pits      []int
}

// PlaySample returns SampleSize (position, legal move) pairs from games
// between two greedy players (each takes the move that captures most, ties
// broken at random, and one move in four is random instead), drawn evenly
// over the seed counts on the board: every count that play reaches gets
// the same share, SampleSize over the number of counts, while it has that
// many distinct positions, and the counts with fewer give up their share
// to the others. The games are played until every count reached has its
// share or sampleGames games were played. The seed is fixed, so the sample
// changes only when the rules do.
func PlaySample(v *position.Variant) Sample {
	rng := rand.New(rand.NewPCG(2026, uint64(v.ID)))
	pool := playPool(v, rng)
	s := Sample{Variant: v}
	for len(s.Positions) < SampleSize {
		took := false
		for seeds := range pool {
			if len(pool[seeds]) == 0 || len(s.Positions) == SampleSize {
				continue
			}
			e := pool[seeds][0]
			pool[seeds] = pool[seeds][1:]
			s.Positions, s.Pits = append(s.Positions, e.p), append(s.Pits, e.pit)
			took = true
		}
		if !took && len(s.Positions) == 0 {
			return s // play met no position with a move
		}
		for !took && len(s.Positions) < SampleSize { // the pool is used up: repeat what it gave
			k := min(len(s.Positions), SampleSize-len(s.Positions))
			s.Positions, s.Pits = append(s.Positions, s.Positions[:k]...), append(s.Pits, s.Pits[:k]...)
		}
	}
	// Mixed order, so that the timed loop does not walk the seed counts
	// one after another.
	rng.Shuffle(SampleSize, func(i, j int) {
		s.Positions[i], s.Positions[j] = s.Positions[j], s.Positions[i]
		s.Pits[i], s.Pits[j] = s.Pits[j], s.Pits[i]
	})
	return s
}

// sampled is one position met in play with the move played there.
type sampled struct {
	p   position.Position
	pit int
}

// playPool plays greedy games and returns, for each seed count on the
// board, the distinct positions met with their moves, each list shuffled.
func playPool(v *position.Variant, rng *rand.Rand) [][]sampled {
	pool := make([][]sampled, v.Total()+1)
	seen := map[position.Position]bool{}
	var buf [position.MaxPits]position.Move
	for games := 0; games < sampleGames && !poolFull(pool); games++ {
		p, inGame := v.Start(), map[position.Position]bool{}
		for ply := 0; ply < samplePlies && !inGame[p]; ply++ {
			inGame[p] = true
			n := v.Moves(p, &buf)
			if n == 0 {
				break
			}
			if buf[0].IsPass() {
				p = buf[0].Next
				continue
			}
			m := greedyMove(rng, buf[:n])
			if !seen[p] {
				seen[p] = true
				pool[p.Seeds()] = append(pool[p.Seeds()], sampled{p, int(m.Pit)})
			}
			p = m.Next
		}
	}
	for _, list := range pool {
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	}
	return pool
}

// poolFull reports whether every seed count that play has reached holds
// its even share of the sample.
func poolFull(pool [][]sampled) bool {
	counts := 0
	for _, list := range pool {
		if len(list) > 0 {
			counts++
		}
	}
	if counts == 0 {
		return false
	}
	share := (SampleSize + counts - 1) / counts
	for _, list := range pool {
		if len(list) > 0 && len(list) < share {
			return false
		}
	}
	return true
}

// greedyMove picks the move capturing most, ties at random; one move in
// four is random.
func greedyMove(rng *rand.Rand, moves []position.Move) position.Move {
	if rng.IntN(4) == 0 {
		return moves[rng.IntN(len(moves))]
	}
	best, ties := moves[0], 1
	for _, m := range moves[1:] {
		switch {
		case m.Captured > best.Captured:
			best, ties = m, 1
		case m.Captured == best.Captured:
			if ties++; rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// MakeUp describes a sample: how its positions spread over the seeds on
// the board, and how many seeds its moves sow.
type MakeUp struct {
	Variant   string `json:"variant"`
	Positions int    `json:"positions"`
	// BySeeds[n] is the number of positions with n seeds on the board.
	BySeeds  []int `json:"by_seeds"`
	MinSeeds int   `json:"min_seeds"`
	MaxSeeds int   `json:"max_seeds"`
	// SeedCounts is the number of seed counts present; LargestShare the
	// fraction of the positions that the most frequent count holds.
	SeedCounts   int     `json:"seed_counts"`
	LargestShare float64 `json:"largest_share"`
	// OneSeedSowings is the fraction of moves that sow one seed; MeanSown
	// the mean number of seeds a move sows.
	OneSeedSowings float64 `json:"one_seed_sowings"`
	MeanSown       float64 `json:"mean_sown"`
}

// MakeUp returns the sample's make-up.
func (s Sample) MakeUp() MakeUp {
	mu := MakeUp{Variant: s.Variant.Name, Positions: len(s.Positions), BySeeds: make([]int, s.Variant.Total()+1)}
	if len(s.Positions) == 0 {
		return mu
	}
	ones, sown := 0, 0
	for i, p := range s.Positions {
		mu.BySeeds[p.Seeds()]++
		seeds := position.Pit(p.Own, s.Pits[i]-1)
		sown += seeds
		if seeds == 1 {
			ones++
		}
	}
	mu.MinSeeds = slices.IndexFunc(mu.BySeeds, func(n int) bool { return n > 0 })
	largest := 0
	for n, count := range mu.BySeeds {
		if count > 0 {
			mu.MaxSeeds, mu.SeedCounts, largest = n, mu.SeedCounts+1, max(largest, count)
		}
	}
	total := float64(len(s.Positions))
	mu.LargestShare, mu.OneSeedSowings, mu.MeanSown = float64(largest)/total, float64(ones)/total, float64(sown)/total
	return mu
}
