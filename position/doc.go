// Package position is the rules engine: the packed board, the five
// variants of rules.md and the kalah family, sowing, captures, legal moves,
// game ends and the position notation. Everything else (solver,
// tablebases, benchmarks) stands on it.
//
// # The board
//
// A Position is two uint64 words, one row each, seen from the side to move
// (Own is the mover's row, Opp the opponent's), 8 bits a pit, plus the
// player to move:
//
//	Own: byte 0 = mover's pit 1, byte 1 = pit 2, ... byte n-1 = pit n
//	Opp: byte 0 = opponent's pit 1, ...                 (bytes >= n are 0)
//
// For awari's start position both words are 0x0000_0404_0404_0404.
// Because a whole row is one word, "the opponent's row is empty" is
// Opp == 0, a row's seed total is one multiplication, and a lap of k seeds
// from a pit is two additions of precomputed words (see lapDelta), however
// many times it goes round. Making a move swaps the words, so the engine
// only ever sows from Own.
//
// # Variants
//
// A Variant is data: the sowing, capture, grand-slam, feeding, passing and
// end rules as enums (rules.md sections 1-5). Lookup finds one by name.
//
// Kalah(m,n) (kalah.go, docs/kalah.md) is the same data with m pits a row
// and n seeds a pit: sowing passes through the mover's store, which is not
// on the board. Seeds banked there count in Move.Captured, so the stores
// are the captures of the notation, and a move whose last seed falls into
// the store keeps the mover (Move.MovesAgain: Move.Next has the same Side,
// rows unswapped), which is why a move's value is always Move.Value.
// Variant.StartsLayer says when a move leaves every earlier position of
// the game behind for the repetition rule (a capture; any kalah move).
//
// # Moves and values
//
// Variant.AppendUnsown goes the other way for awari and oware: the
// positions from which a quiet move (legal, capturing nothing) leads to a
// given one, the lap table inverted; the tablebase's retrograde analysis
// walks a layer backwards with it.
//
// Variant.Moves lists legal moves with the positions they lead to; a mover
// who must pass has one move, the pass; no moves means the game is over and
// Variant.Shares gives the seeds each side takes. Values (rules.md section
// 6) are score differences in seeds from the side to move; the solver and
// tablebase packages compute them from this engine. Game plays a game out
// with every end rule, repetition and the 25-seed stop included, and
// records its Line: every ply, each forced pass a ply of its own, which is
// what every command and the web API report of a game. Setup.ResultOf
// tells a value as the game's end (each player's final score and the
// winner, result.go), and Game.Result a game played out.
//
// # Notation
//
// Parse and Setup.String read and write position strings
// (`awari:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0`, notation.md); errors name the bad
// part. Other programs' notations live here too, so that every command,
// the web and the engine read them alike: the engine dialect of Aalina and
// Aualé (dialect.go: ParseFEN, FormatFEN, move letters), which Parse and
// Variant.ParseMoveAt accept; PlayStrategy's squares (playstrategy.go);
// Aualé's game files (ogn.go: ParseOGN, FormatOGN); and FormatRecord,
// which writes a game in any of them (record.go). Subpackage reference is a slow, plain restatement of the rules used
// to test this engine.
package position
