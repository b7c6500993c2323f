package cmd

import "github.com/mancala-solver/mancala/position"

// endProse says in words why a game of v ended; JSON carries the short
// reason. A repetition's words follow v's repetition rule (nil v: the
// rules.md rule).
func endProse(v *position.Variant, r position.EndReason) string {
	switch r {
	case position.EndNoSeeds:
		return "the player to move has no seeds"
	case position.EndCannotFeed:
		return "the player to move cannot feed the opponent"
	case position.EndNoMove:
		return "no legal move"
	case position.EndOneEach:
		return "one seed each"
	case position.EndEmptyRow:
		return "the opponent's row is empty"
	case position.EndStopAt:
		return "captures reached the limit; values ignore this stop, play --no-stop too"
	case position.EndRepetition:
		if v != nil && v.Repetition == position.RepetitionOwnRows {
			return "repetition; each player takes the seeds on their own row"
		}
		return "repetition; the seeds on the board count for nobody"
	}
	return string(r)
}

// variantOf is the variant of a position as the commands print it, nil
// when it does not parse.
func variantOf(pos string) *position.Variant {
	s, err := position.Parse(pos)
	if err != nil {
		return nil
	}
	return s.Variant
}
