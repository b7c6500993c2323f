// Package oracle is the answering layer between the commands (and the web
// server) and the engine: given a position, or a whole game, it says what
// the position is worth and what to play, from a tablebase when one holds
// the position and by search otherwise.
//
// It decides which tablebase serves a variant (the one on disk, else a
// small one built in memory once per process, and only when a position
// needs it, or at once by Warm; Config.TBOptional lets a directory that
// lacks a variant serve the others, as `serve` wants; a start whose proof
// is within reach, SolveOptions.Reach and ReachOf, gets its own size, for
// any position, and no time limit), keeps one solver.Solver per variant whose transposition table
// lives across positions, settles forced passes (notation.md "Forced
// passes": the value stays with the side to move of the position as given
// and the best move is "pass"), values every legal move with
// position.Move.Value, surfaces tablebase read errors as errors, and builds
// principal variations from proven best moves only.
//
// Its answers are the commands' --json objects and the web API's, one Go
// type each: Answer (solve, query), Analysis (analyze), Played (play). A
// game is played by position.Game, whose Line holds every ply, each forced
// pass one of its own; Play and Analyze read that line and keep no pass
// bookkeeping of their own.
//
// Every value they give comes with its Result (result.go): the final
// score with best play and the winner, from position.Setup.ResultOf,
// refined by playing the principal variation out (its end, and where the
// 25-seed stop ends it); a start position with a proven result names it
// (KnownResult, known.go).
//
// # Values and history
//
// Every value is a score difference in seeds from the side to move of the
// position as given (rules.md section 6). A position met in a game is
// valued after the game's positions since its last capture (History): a
// move back to one of them is a repetition, which ends the game with the
// board's seeds counting for nobody (rules.md section 0). Without history
// the value is the one a tablebase stores.
//
// # Concurrency
//
// An Oracle is safe for concurrent use. Shared and how it is locked:
//   - the variants map: a mutex, held only to find or add a variant;
//   - each variant's tablebase on disk: opened once (sync.Once), then
//     probed concurrently (tablebase.Prober is safe for that);
//   - each variant's in-memory tablebase: built once, in the background,
//     started by the first call that needs it (under the variant's build
//     mutex); calls wait for it within their own time limit, then read it
//     concurrently (Close stops a build under way);
//   - each variant's Solver: one at a time, under the variant's solver
//     lock (a Solver is not safe for concurrent use; each search runs
//     Config.Threads goroutines itself). Calls on one variant that need a
//     search therefore queue (Solve takes the solver even for a position
//     the tablebase holds, to extend its principal variation by search
//     where the tablebase cannot), each for as long as its ctx lasts: the
//     lock is a semaphore of one, and a call whose ctx ends while it waits
//     returns ctx's error. Query and Lookup do not queue: they
//     never take the solver (Lookup answers only from a tablebase ready
//     now, and says so when none is, so that a server can run it beside
//     its searches).
//
// Nothing here prints.
package oracle
