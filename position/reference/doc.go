// Package reference is a slow, deliberately plain statement of the game rules in
// docs/rules.md, used to cross-check the fast packed engine in package position.
//
// It knows the five two-row mancala games of rules.md, named as there:
//
//	awari          rules.md section 1   2x6, 4 seeds a pit
//	oware          rules.md section 2   2x6, 4 seeds a pit (abapa tournament rules)
//	akon           rules.md section 3   2x7, 5 seeds a pit
//	djenon-abe     rules.md section 4   2x6, 4 seeds a pit, relay sowing
//	djenon-aboure  rules.md section 5   2x6, 4 seeds a pit, relay sowing, first seed back into the origin
//
// and the kalah family, Kalah(m,n) with m pits a row and n seeds a pit (1..6 each), as
// docs/kalah.md states it (kalah.go), under two capture rules: named "kalah" for Kalah(6,4) and
// "kalah-MxN" otherwise with the empty captures of Irving, Donkers and Uiterwijk, and "kalah-std"
// and "kalah-std-MxN" with the standard rule (a capture needs seeds in the facing pit).
//
// Everything is written for obvious correctness, not speed: the board is a plain slice laid out as
// the sowing ring (rules.md section 0), every move is simulated seed by seed on a copy, and a move's
// legality is judged by simulating it. The package shares no code with the packed engine and must
// stay independent of it: it is derived from the rule texts alone.
//
// A State holds the board and the player to move. Start gives the start position; GameOver,
// MustPass, Normalize and LegalMoves describe a position; Apply plays one move. The end rules that
// need a game's history (the 25-seed stop of awari and oware, rules.md 1.4, and repetition,
// rules.md section 0) are left to the caller.
//
// Passes (rules.md 4.5 and 5.4) are automatic: Apply returns the position after any pass, and
// Normalize applies the pass a position string may call for.
package reference
