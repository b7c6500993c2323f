package reference

import (
	"fmt"
	"strings"
)

// Kalah(m,n), written from the rules of docs/kalah.md (after Irving, Donkers and Uiterwijk,
// "Solving Kalah", 2000) without the packed engine's tables:
//
//   - m pits a row (1..6), n seeds in each at the start (1..6); a store for each player after that
//     player's pit m. The stores are not part of a State: what a move puts into the mover's store
//     is the seeds it captures.
//   - A move lifts every seed of one of the mover's non-empty pits and drops them one at a time
//     forward: the mover's later pits, the mover's store, the opponent's pits 1..m, the mover's
//     pits from 1, and so on round, never into the opponent's store.
//   - Last seed in the mover's store: the same player moves again.
//   - Last seed in a pit of the mover's own row that was empty before it (so it holds 1 seed now):
//     under the empty-capture rules of Irving, Donkers and Uiterwijk ("kalah", "kalah-MxN") that
//     seed and the seeds of the opponent's pit facing it, if any, go to the mover's store (a
//     capture from an empty facing pit banks the one seed); under the standard rule ("kalah-std",
//     "kalah-std-MxN") the same happens only when the facing pit holds seeds, and otherwise the
//     seed stays where it fell. The mover's pit i faces the opponent's pit m+1-i.
//   - The game ends as soon as either row is empty (both rule sets); each player then keeps the
//     seeds of their own row, which means the player whose row still holds seeds takes them all.
const (
	kalah    = "kalah"
	kalahStd = "kalah-std"
)

// kalahSize reads a kalah variant name: "kalah" and "kalah-std" are Kalah(6,4), "kalah-MxN" and
// "kalah-std-MxN" are Kalah(M,N) for M and N in 1..6. ok is false for any other name.
func kalahSize(variant string) (pits, seeds int, ok bool) {
	if variant == kalah || variant == kalahStd {
		return 6, 4, true
	}
	rest, found := strings.CutPrefix(variant, kalahStd+"-")
	if !found {
		rest, found = strings.CutPrefix(variant, kalah+"-")
	}
	if !found {
		return 0, 0, false
	}
	if _, err := fmt.Sscanf(rest, "%dx%d", &pits, &seeds); err != nil {
		return 0, 0, false
	}
	if fmt.Sprintf("%dx%d", pits, seeds) != rest || pits < 1 || pits > 6 || seeds < 1 || seeds > 6 {
		return 0, 0, false
	}
	return pits, seeds, true
}

// capturesFromEmpty reports whether a kalah variant lets a last seed in an empty own pit capture
// when the facing pit is empty: true for "kalah" and "kalah-MxN", false for the "kalah-std" names.
func capturesFromEmpty(variant string) bool {
	return variant != kalahStd && !strings.HasPrefix(variant, kalahStd+"-")
}

// isKalah reports whether variant names a kalah size.
func isKalah(variant string) bool {
	_, _, ok := kalahSize(variant)
	return ok
}

// kalahMove plays pit (1..m) for s.ToMove on a copy of the board, seed by seed.
func kalahMove(s State, pit int) outcome {
	rows := s.Clone().Rows
	mine, theirs := s.ToMove-1, 2-s.ToMove
	m := len(rows[mine])

	// A place the sowing can drop a seed in: a pit of one row, or the mover's store.
	type place struct {
		row, pit int // row index 0/1 and pit index 0..m-1; row -1 is the mover's store
	}
	step := func(p place) place {
		switch {
		case p.row == mine && p.pit == m-1:
			return place{row: -1}
		case p.row == -1:
			return place{row: theirs, pit: 0}
		case p.pit == m-1:
			return place{row: mine, pit: 0}
		}
		return place{row: p.row, pit: p.pit + 1}
	}

	here := place{row: mine, pit: pit - 1}
	hand := rows[mine][pit-1]
	rows[mine][pit-1] = 0
	store := 0
	for ; hand > 0; hand-- {
		here = step(here)
		if here.row == -1 {
			store++
		} else {
			rows[here.row][here.pit]++
		}
	}

	again := here.row == -1
	if here.row == mine && rows[mine][here.pit] == 1 {
		facing := m - 1 - here.pit
		if rows[theirs][facing] > 0 || capturesFromEmpty(s.Variant) {
			store += 1 + rows[theirs][facing]
			rows[mine][here.pit], rows[theirs][facing] = 0, 0
		}
	}
	board := append(append(ring{}, rows[0]...), rows[1]...)
	return outcome{board: board, captured: store, again: again}
}
