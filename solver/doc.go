// Package solver owns search: it finds the value of a position (rules.md
// section 6: the score difference in seeds, from the side to move, for the
// rest of the game) and its best moves, exactly when it can, with an
// alpha-beta search over the position engine.
//
// Search (or a Solver, which keeps its table between positions) is the
// whole API. A Result says whether its value is exact; a search stopped by
// its context, a depth or a node limit returns its deepest completed
// iteration and says it is not exact.
//
// # Values
//
// A move's value is position.Move.Value: the seeds it captures minus the
// value of the position it leads to when the turn passes over, plus it
// when the mover moves again (kalah's extra move; negamax then searches
// the child with the window less the seeds banked, not negated). A pass is
// a move that captures nothing. A position with no
// moves is worth Variant.TerminalValue. A position that repeats one on the
// current line is worth 0 from there (rules.md section 0: the board's
// seeds count for nobody), or in oware-own the difference of the two rows
// (Variant.RepetitionValue: each player takes their own row, as Aalina's
// referee scores it). There fact 2 below does not hold, so nothing proven
// on one line serves another (a node with a line before it takes from the
// board entry only its move), and no tablebase is used (retrograde
// analysis values endless play at 0). The 25-seed stop of awari and oware is not
// applied. The value of a position with S seeds lies in -S..S, which the
// search uses as bounds.
//
// # The game's history
//
// SearchRequest takes the game's positions before the root since its last
// capture (Request.History). They are the start of the root's layer: a
// move back to one is a repetition worth 0, as rules.md section 0 has it,
// so the value found is the position's value on that game's line, between
// 0 and its history-free value (fact 2 below). They enter the line hash of
// the root's children, so line entries of one history never serve
// another, and a repetition of one counts as hitting ply 0 (the top of the
// line), so nothing resting on it reaches a board entry.
//
// # The search
//
// negamax is a fail-soft alpha-beta search (its doc comment states the
// contract) with a transposition table (tt.go: two atomic words an entry,
// lower and upper bounds, each proven or not), move ordering by table
// move, then extra moves (kalah; the one nearest the store first, which
// spoils no other), then captures, then the history
// heuristic, enhanced transposition cutoffs (a child's table bound that
// already refutes the window ends the node unsearched), and a horizon
// estimate (below). In kalah only a move that
// banks seeds and hands the turn over uses up depth: an extra move is the
// same player's turn, and a move that banks nothing only moves seeds
// towards a store, so lines of such moves are finite; an iteration of
// depth d thus sees every line with d such moves, whatever its length in
// plies (up to MaxPly). Iterative deepening drives it; at each
// depth MTD(f) (Plaat, Schaeffer, Pijls and de Bruin, "Best-first
// fixed-depth minimax algorithms", Artificial Intelligence 87, 1996) pins
// the value with null-window probes.
//
// Exact values come from proof, not from depth: every score carries a
// proven flag, set when every leaf it rests on is a game end, a repetition
// or a tablebase value, and cleared by any horizon estimate. Proven bounds
// on each root move's value are kept apart from the estimates and only
// ever tighten; the position's value is exact when the largest proven
// lower bound of its moves meets the largest proven upper bound. The
// search deepens until then, and then probes each other move with a null
// window at that value until it is proven to reach it or not, so that
// BestMoves lists every best move. A node limit (MaxNodes) gives that
// second phase a budget of its own, so that which best moves a limited
// search finds seldom depends on how the threads shared the first. With AllMoves it runs MTD(f) on every
// root move until each value is proven. Because proven values are the
// game's values, the exact result does not depend on the thread count,
// the table size or the order of events; only estimates do.
//
// # The horizon estimate
//
// Where the depth runs out, negamax returns an estimate of the node's
// value, never marked proven, so it changes which line is searched first
// and which move an unfinished search plays, never a proven value (the
// tablebase cross-check searches with both estimates). Options.Estimate
// selects it:
//
//   - EstimateRows: a quarter of the seeds on the mover's row beyond the
//     opponent's. It was the only estimate before, and stays the default
//     for the variants nobody tuned one for (kalah, akon, the djenons).
//   - EstimateTuned, the default for oware, oware-own and awari: a
//     weighted sum (tunedWeights) of twelve features of the position from
//     the mover's side (estimate.go): the row difference, the largest
//     capture the mover has and the largest the opponent would have were
//     it to move, each row's pits with 1 or 2 seeds (what a sowing makes
//     capturable), each side's legal moves (mobility), each row's largest
//     pit beyond 11 seeds (a kroo, whose sowing laps and comes back to
//     capture) and each row's pits whose sowing reaches the other row,
//     and a constant for having the move.
//
// The tuned weights are a least-squares fit to the exact values of
// 200,000 oware positions of 10 to 18 seeds (seeded random playouts from
// the start) in an oware tablebase of 18 seeds:
//
//	MANCALA_TUNE=/work/scratch/tb-oware go test ./solver -run TestTuneEstimate -v
//
// which prints the weights and the fit: a root-mean-square error of 3.86
// seeds, against 5.05 for EstimateRows. The fit shows what an endgame
// values: the capture at hand (1.66 a seed), mobility (+2.06 a move of
// one's own, -2.31 one of the opponent's), and seeds kept home rather
// than sown into the opponent's row (-1.44 a pit that reaches it). The
// features cost a second move generation at each leaf: 343 ns of CPU a
// node against 286 (medians of 4 runs, a loaded 2-core machine):
//
//	go test ./solver -run '^$' -bench SearchEstimate -count 4
//
// In self-play (TestSelfPlay: every oware opening of two plies and every
// sixth of three, each with both colours, 134 games, one thread, no
// tablebase, a fixed node budget a move so that the machine's load does
// not bias it) the tuned estimate beat the rows estimate 106-5-23 (wins,
// draws, losses) at 2,000 nodes a move, 102-9-23 at 20,000, 103-8-23 at
// 100,000, and 97-11-26
// at 20,000 with the rows side given 1.2 times as many nodes (equal CPU
// time); in awari, 87-18-29 at 2,000, and in oware-own 105-5-24 at 2,000:
//
//	MANCALA_SELFPLAY=20000 go test ./solver -run TestSelfPlay -v -timeout 2h
//	MANCALA_SELFPLAY_ROWS=1.2 (the rows side's budget factor)
//	MANCALA_SELFPLAY_VARIANT=awari
//
// Tried and not kept: a second fit that adds 2,000 midgame positions of
// 19 to 40 seeds valued by 50,000-node searches (MANCALA_TUNE_DEEP=2000:
// a TD-leaf-like target) beat these weights 90-5-39 at 2,000 nodes a
// move but lost 55-10-69 at 20,000; and killer moves (two a ply, ahead
// of the history heuristic) searched more nodes to the same depth, not
// fewer, in a trial over midgame positions.
//
// # Repetitions and the transposition table
//
// In kalah no position can recur (position.Variant.CanRepeat): every node
// is history-free, and everything below about lines does not arise.
//
// A repetition scores 0, so the value of a node can depend on the line
// that reached it: the graph-history-interaction problem (Palay 1983;
// Campbell, "The graph-history interaction: on ignoring position history",
// 1985; Kishimoto and Müller, "A general solution to the graph history
// interaction problem", AAAI 2004). A flag on scores that touched a
// repetition is not enough on its own: a result computed without touching
// the line can still be wrong on another line that contains a position it
// passed through. This package is exact about it, from three facts:
//
//  1. Seeds only leave the board, so a position can repeat only one reached
//     since the last capture (its layer). A node's value V(p|H) depends on
//     its position p and the set H of earlier positions of its layer; a
//     node first in its layer (the root, or just after a capture) is
//     history-free: H is empty and V(p|∅) is the value of rules.md
//     section 6, which a tablebase stores.
//  2. A repetition only ever pulls a value toward 0: V(p|H) lies between 0
//     and V(p|∅). (Each player has a memoryless optimal strategy in the
//     game where endless play is worth 0; against it, leaving the line
//     early through a repetition gains the other side nothing beyond 0.
//     The tests check the consequence, that value iteration, which has no
//     lines, agrees with plain minimax.)
//  3. A proof whose repetition leaves all lie at or below the node holds
//     on any line that does not pass through the proof's positions, in
//     particular with H empty.
//
// So the table has two kinds of entry, both in the board's bucket:
//
//   - A board entry (key: the board, without the player, since the rules
//     never name one) holds bounds on V(p|∅) and estimates. A
//     history-free node uses it as it is. Any other node takes from it
//     only proven bounds, pulled toward 0 by fact 2 (a lower bound l
//     serves as min(l, 0), an upper bound u as max(u, 0)), and its move.
//     The tablebase is used the same way. Estimates are not taken across
//     lines: the same board recurs inside its own subtree on other lines,
//     and estimates passed round that cycle would never give way to proof.
//   - A line entry (key: the board, the player, and the XOR of hashes of
//     H's positions; keyFor) is for the node with that exact H, which has
//     the same value: it holds that node's estimates and proven bounds.
//
// negamax returns with each score the lowest ply of a line position that
// a repetition in its subtree hit. A proven result that hit nothing above
// the node goes to the board entry too (fact 3); one that did goes only to
// the line entry, except a positive lower or a negative upper bound, which
// by fact 2 holds for V(p|∅) as well. Bounds taken from a line entry, or
// pulled toward 0, count as hitting the top of the layer.
//
// Hence an exact result equals plain minimax of the game with repetitions
// of the line scoring 0 (the tests check this against plain minimax and
// against value iteration), up to 64-bit hash collisions (see table). The
// price: transpositions within a layer share only proven bounds, so long
// cycling endgames (awari's and oware's, with few seeds spread out) are
// slow to prove.
//
// # Searching for play
//
// Options.Play is for the engine (mancala engine), which must choose a
// move in half a second rather than prove a value. It changes three
// things, none of which can change a proven value (proofs may only come
// later): estimates cross lines (a node with earlier positions of its
// layer before it also reads and writes its board entry's estimates, so
// that transpositions within a layer share them); nodes within
// playNoTable plies of the horizon neither probe nor fill the table,
// whose cache misses were a third of a node's time (on 20 oware-own
// midgame positions searched to 14 plies, the same nodes, 30% less CPU);
// and with Options.EstimateTablebase a variant whose repetitions are
// not worth 0 (oware-own) takes the values of its neutral twin's
// tablebase (oware's) as estimates, searching no deeper below a
// position it holds. The two games differ only where a position
// repeats, so the estimate is close, and it is never marked proven.
//
// # Threads
//
// Lazy SMP (Daniel Homan's 2013 proposal on TalkChess, as in Stockfish and
// ChizhovVadim/CounterGo's lazysmp.go): Options.Threads goroutines, under
// an errgroup, run the same iterative deepening on one shared table,
// helpers starting one ply deeper and at other root moves, so that they
// fill the table for each other. Entries are read and written with
// sync/atomic and verified by an XOR of key and data (Hyatt and Mann, "A
// lockless transposition table implementation for parallel search", ICGA
// Journal 25, 2002), so a torn read is a miss, not a wrong value. Any
// thread may prove the value; the main thread's return stops the others.
// Every 1024 nodes each thread adds its count to the shared one and reads
// the clock against the context's deadline itself: the context's timer
// alone, whose goroutine waits for a free processor, let searches on a
// loaded machine run tens of milliseconds past their time.
//
// Nothing here prints; package cmd does.
package solver
