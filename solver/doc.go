// Package solver owns search: it finds the value of a position (rules.md
// section 6: the score difference in seeds, from the side to move, for the
// rest of the game) and its best moves, exactly when it can, with an
// alpha-beta search over the position engine. docs/solver-design.md
// explains the design: MTD(f) over a transposition table that stays exact
// under repetitions, the horizon estimate and its tuning, the search for
// play, and how threads share the work (Lazy SMP where positions repeat;
// in kalah, shared probes with ABDADA marks).
//
// Search (or a Solver, which keeps its table between positions) is the
// whole API. A Result says whether its value is exact; a search stopped by
// its context, a depth or a node limit returns its deepest completed
// iteration and says it is not exact.
//
// # Files
//
//   - search.go: the API: Options, Request, Result, Solver, Search and
//     SearchRequest.
//   - driver.go: one Search call's shared state: the root's moves and
//     their proven bounds, the threads, the deepest completed iteration.
//   - worker.go: one search thread: iterative deepening, MTD(f) at the
//     root, proving each best move, valuing every move (AllMoves), and
//     adopting a probe another thread finished.
//   - busy.go: the marks of the nodes the threads are in (ABDADA).
//   - negamax.go: the fail-soft alpha-beta search of a node in three
//     parts (prelude, probe, expansion), its move ordering and its
//     lookups in the table and the tablebase.
//   - policy.go: the table rules of every search mode (proof, play,
//     kalah's, own-row repetition, estimate tablebase): what a node takes
//     from the table and the tablebase and what it stores.
//   - tt.go, hash.go: the transposition table (board and line entries)
//     and its keys; tablemem_linux.go puts it on huge pages outside the
//     Go heap; internal/prefetch prefetches a node's buckets.
//   - estimate.go: the horizon estimates (Estimate, tunedWeights).
//   - tablebase.go: Tablebase, what the search needs of an endgame
//     database.
//
// # Contracts
//
//   - A move's value is position.Move.Value; a position with no moves is
//     worth Variant.TerminalValue; a repetition of a position on the
//     current line is worth Variant.RepetitionValue from there (0, or the
//     own-row difference in oware-own). The 25-seed stop of awari and
//     oware is not applied. A value with S seeds on the board lies in
//     -S..S.
//   - Request.History holds the game's positions before the root since its
//     last capture; the value found is the position's value on that line,
//     between 0 and its history-free value.
//   - A value marked exact is proven: every leaf it rests on is a game
//     end, a repetition or a tablebase value, never a horizon estimate.
//     So an exact result does not depend on the thread count, the table
//     size, the estimate, Options.Play or the order of events; only
//     estimates do. An exact result's BestMoves is every best move when
//     BestMovesComplete says so (a limit may stop the search before).
//   - Where a repetition is not worth 0 (oware-own), no tablebase is used
//     for proof and nothing proven on one line serves another.
//   - Options.Threads goroutines share one table; every entry is read and
//     written atomically, so a torn read is a miss, never a wrong value.
//   - Nothing here prints; package cmd does.
package solver
