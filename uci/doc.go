// Package uci is the engine's protocol: the adapted Universal Chess
// Interface that the Aualé GUI, the Aalina oware engine and the samurai
// tournament framework (`test battle`) speak, read from one stream and
// answered on another (`mancala engine`: stdin and stdout).
// docs/engine.md describes the dialect as implemented here.
//
// # The dialect
//
// Commands come one a line: uci, debug [on|off], isready, setoption name N
// [value V], ucinewgame, position startpos|fen F [moves M], go [depth N]
// [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]
// [infinite] [ponder], stop, ponderhit, wait (return once the search has
// answered) and quit. South is player 1, who moves first from startpos;
// South's pits are A..F and North's a..f, each row in its owner's sowing
// order, and a list of moves is written together ("AfCb"). A pass has no
// letter: the next letter's case says who moves. A fen is the 12 pit
// counts (A..F, a..f), South's store, North's store (the captures) and S
// or N, joined by "-" (position.ParseFEN), 48 seeds in all.
//
// A search answers with info lines (depth, score cp S, nodes, time in ms,
// pv as letters together) and then bestmove M [ponder M], or bestmove 0000
// when the game is over. A score is the value (rules.md section 6) from
// the side to move: an estimate at 100 cp a seed, below ±2500; a proven
// value as the result it decides given the captures so far, ±2500 (Aalina's
// infinity) or 0 for a draw, followed by `info string exact value V`.
//
// # Searching
//
// The position and the moves played since it are a position.Game, so the
// game's end rules (the 25-seed stop, repetition, the variant's end) decide
// when it is over, and its positions are the search's history: a move back
// to one is a repetition, scored by the variant (position.Variant.
// RepetitionShares). Search is oracle.Reply, cancelled by stop; go infinite
// and go ponder hold their bestmove until stop or ponderhit, as UCI says.
// The time for a move is goParams.budget's.
//
// # Bad input
//
// As in samurai's service: an unknown command, a bad position, an illegal
// move or bad arguments are dropped (the position in force stays), with an
// `info string` line naming the problem when debug is on; nothing ends the
// session but quit and the end of the input. Nothing is written anywhere
// but the output stream.
package uci
