package oracle

import (
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// KnownResult is the proven result of a game from its start position,
// where one is known (docs/kalah.md "Values from the start",
// docs/performance.md): player 1's value with best play, the final score
// it makes, who wins, and who established it.
type KnownResult struct {
	// Game names the game: "Kalah(6,4)" for a kalah size, else the
	// variant's name.
	Game string `json:"game"`
	// Value is player 1's value from the start, in seeds (rules.md
	// section 6).
	Value      int    `json:"value"`
	FinalScore [2]int `json:"final_score"`
	Winner     int    `json:"winner"` // 1 or 2, 0 for a draw
	Margin     int    `json:"margin"`
	// Source says who proved it: a publication, or this tool and the
	// page that records the proof.
	Source string `json:"source"`
}

// Sources of the known results.
const (
	sourceIrving   = "Irving, Donkers and Uiterwijk, Solving Kalah (2000); proven here too, docs/kalah.md"
	sourceRawlings = "Rawlings (2015); proven here too, docs/kalah.md"
	sourceKalahMD  = "proven by mancala solve, docs/kalah.md"
	sourcePerfMD   = "proven by mancala solve, docs/performance.md"
)

// kalahStarts are the values from the start of kalah-MxN (empty
// captures) and kalah-std-MxN, [pits-1][seeds-1], as docs/kalah.md's
// tables give them; unknown marks a size not proven.
const unknown = 99

var kalahStarts = [2][position.KalahMaxPits][position.KalahMaxSeeds]int{
	position.KalahEmptyCapture: {
		{0, -2, 6, -2, 2, 0},
		{2, -2, -2, -12, 6, 8},
		{0, 4, 2, 2, 6, -10},
		{2, 6, 8, 2, 2, 0},
		{0, 0, 8, 12, unknown, unknown},
		{2, 10, 2, 10, 12, unknown},
	},
	position.KalahStandard: {
		{0, -2, 6, -2, 2, 0},
		{2, -2, -2, -10, 6, 8},
		{0, 4, 2, 2, 6, -8},
		{2, 6, 6, 2, 4, 0},
		{0, 2, 6, 10, unknown, unknown},
		{2, 6, 2, 8, 10, unknown},
	},
}

// otherStarts are the known values from the start of the other games.
var otherStarts = map[string]int{"djenon-abe": -2, "djenon-aboure": 4}

// KnownResultOf returns the known result of s's game when s is its start
// position (player 1 to move, nothing captured) and one is known, else
// nil.
func KnownResultOf(s position.Setup) *KnownResult {
	v := s.Variant
	if s.Position != v.Start() || s.CapturesKnown && s.Captured != [2]int{} {
		return nil
	}
	k := &KnownResult{Game: v.Name, Value: unknown}
	if rules, ok := v.KalahRuleSet(); ok {
		k.Game = fmt.Sprintf("Kalah(%d,%d)", v.Pits, v.StartSeeds)
		if rules == position.KalahStandard {
			k.Game += " under the standard capture rule"
		}
		k.Value, k.Source = kalahStarts[rules][v.Pits-1][v.StartSeeds-1], sourceKalahMD
		switch {
		case v.Pits == 6 && rules == position.KalahEmptyCapture && v.StartSeeds >= 3:
			k.Source = sourceIrving
		case v.Pits == 6 && rules == position.KalahStandard && v.StartSeeds >= 4:
			k.Source = sourceRawlings
		}
	} else if val, ok := otherStarts[v.Name]; ok {
		k.Value, k.Source = val, sourcePerfMD
	}
	if k.Value == unknown {
		return nil
	}
	r := s.ResultOf(k.Value)
	k.FinalScore, k.Winner, k.Margin = r.Final, r.Winner, r.Margin
	return k
}
