package cmd

import "github.com/mancala-solver/mancala/position"

// endProse says in words why a game ended; JSON carries the short reason.
func endProse(r position.EndReason) string {
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
		return "repetition; the seeds on the board count for nobody"
	}
	return string(r)
}
