package reference

import (
	"errors"
	"fmt"
)

// The variant names of rules.md.
const (
	awari        = "awari"
	oware        = "oware"
	akon         = "akon"
	djenonAbe    = "djenon-abe"
	djenonAboure = "djenon-aboure"
)

// State is a board in absolute terms.
type State struct {
	Variant string   // one of the five names, or a kalah size ("kalah", "kalah-MxN", "kalah-std", "kalah-std-MxN")
	Rows    [2][]int // Rows[0] = player 1's pits, Rows[1] = player 2's pits, each in that player's sowing order from pit 1 (len 6, 7 for akon, m for Kalah(m,n))
	ToMove  int      // 1 or 2
}

// Pits returns the number of pits per row of the variant: 7 for akon, 6 for the others.
// It panics on an unknown variant.
func Pits(variant string) int {
	n, ok := pitsOf(variant)
	if !ok {
		panic(fmt.Sprintf("reference: unknown variant %q", variant))
	}
	return n
}

// StartSeeds returns the seeds per pit at the start: 5 for akon, n for Kalah(m,n), 4 for the
// others. It panics on an unknown variant.
func StartSeeds(variant string) int {
	if _, seeds, ok := kalahSize(variant); ok {
		return seeds
	}
	if Pits(variant) == 7 {
		return 5
	}
	return 4
}

// Start returns the start position of the variant, player 1 to move.
func Start(variant string) State {
	s := State{Variant: variant, ToMove: 1}
	for r := range s.Rows {
		s.Rows[r] = make([]int, Pits(variant))
		for i := range s.Rows[r] {
			s.Rows[r][i] = StartSeeds(variant)
		}
	}
	return s
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := s
	for r := range s.Rows {
		c.Rows[r] = append([]int(nil), s.Rows[r]...)
	}
	return c
}

// pitsOf returns the pits per row of a variant, and false if the variant is unknown.
func pitsOf(variant string) (int, bool) {
	switch variant {
	case awari, oware, djenonAbe, djenonAboure:
		return 6, true
	case akon:
		return 7, true
	}
	pits, _, ok := kalahSize(variant)
	return pits, ok
}

// validate reports what is wrong with s, or nil if it is a well-formed state.
func validate(s State) error {
	n, ok := pitsOf(s.Variant)
	if !ok {
		return fmt.Errorf("unknown variant %q", s.Variant)
	}
	if s.ToMove != 1 && s.ToMove != 2 {
		return fmt.Errorf("player to move is %d, want 1 or 2", s.ToMove)
	}
	for r, row := range s.Rows {
		if len(row) != n {
			return fmt.Errorf("row %d has %d pits, want %d", r+1, len(row), n)
		}
		for i, seeds := range row {
			if seeds < 0 {
				return fmt.Errorf("row %d pit %d holds %d seeds", r+1, i+1, seeds)
			}
		}
	}
	return nil
}

// mustBeValid panics if s is not a well-formed state.
func mustBeValid(s State) {
	if err := validate(s); err != nil {
		panic(errors.New("reference: " + err.Error()))
	}
}

// other returns the opponent of player (1 or 2).
func other(player int) int {
	return 3 - player
}

// seedsOf returns the seeds in player's row.
func seedsOf(s State, player int) int {
	return sum(s.Rows[player-1])
}

// sum returns the sum of xs.
func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}
