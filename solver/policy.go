package solver

// policy is the search's table rules in one place: which of the
// tablebase, a node's board entry and its line entry a node probes, what
// it takes from each, and what it stores where. Every search mode is a
// setting of its fields:
//
//   - proof (the default): a history-free node (ply == layer) takes its
//     board entry and the tablebase as they are; a node with a line before
//     it takes its line entry, and from the board entry and the tablebase
//     only proven bounds, pulled toward 0 (fact 2 of doc.go), and no
//     estimates (an estimate passed round a cycle of its own subtree would
//     never be replaced by proof);
//   - kalah's (Variant.CanRepeat false): every child starts a layer, so
//     every node is history-free and the first rule is the only one used;
//   - own-row repetition (oware-own, neutral false): fact 2 fails, so a node
//     with a line takes nothing from the board entry's proven bounds, and
//     no tablebase serves (none holds such values);
//   - play (Options.Play): estimates cross lines (a node with a line takes
//     and leaves board-entry estimates too), and nodes within playNoTable
//     plies of the horizon neither probe nor fill the table, unless the
//     tablebase holds them;
//   - estimate tablebase (Options.EstimateTablebase, with own-row
//     repetition, for play and analysis alike): a position it holds is
//     estimated by it, never proven (estimated);
//   - kalah's proof (Variant.CanRepeat false, not Play): a node at the
//     horizon with few seeds is searched to the end, not estimated
//     (exactMax).
//
// The promise of play mode, that it never changes a proven value, is that
// the proven bounds a play policy takes and stores are a subset of those
// the proof policy of the same variant and tablebase takes and stores
// (policy_test.go).
type policy struct {
	play    bool // Options.Play
	neutral bool // a repetition is worth 0 (position.RepetitionNobody)
	tbMax   int  // the tablebase holds every position of at most tbMax seeds; -1 none
	etbMax  int  // the estimate tablebase's, likewise; -1 none
	// exactMax: a node at the horizon with at most exactMax seeds is
	// searched on (searchesToEnd); -1 none.
	exactMax int
	// tablelessMax: a node of at most tablelessMax seeds, and more than
	// the tablebase holds, neither probes nor fills the table
	// (tablelessSeeds); -1 none.
	tablelessMax int
}

// newPolicy is the policy of a search with opts in a variant whose
// repetitions are worth 0 when neutral. A tablebase serves only where a
// repetition is worth 0 (no tablebase holds other values); an estimate
// tablebase only where it is not.
func newPolicy(opts Options, neutral bool) policy {
	pol := policy{play: opts.Play, neutral: neutral, tbMax: -1, etbMax: -1, exactMax: -1, tablelessMax: -1}
	if opts.Tablebase != nil && neutral {
		pol.tbMax = opts.Tablebase.MaxSeeds()
	}
	if opts.EstimateTablebase != nil && !neutral {
		pol.etbMax = opts.EstimateTablebase.MaxSeeds()
	}
	return pol
}

// playNoTable is the deepest remaining depth at which a search for play
// (Options.Play) neither probes nor fills the table, as game-playing
// searches skip it near the horizon: the entries there save little, and
// their cache misses were a third of a node's time. On 20 oware-own
// midgame positions searched to 14 plies (seeded random openings of 16 to
// 35 plies, one thread, the searches' CPU time), skipping depths 0..2
// kept the node count (-0.2%) and cut the CPU time by 30%.
const playNoTable = 2

// exactAbove and exactLeast set a kalah proof's exactMax (proofToEnd): a
// node at the horizon is searched on when it has at most exactAbove seeds
// more than the tablebase holds, or at most exactLeast seeds. Such a node
// is at most exactAbove banking moves from the tablebase's exact values
// (or has few seeds, so that its whole game tree is small): searched to
// the end, its subtree is proven at once and every later iteration takes
// it from the table, where an estimate there would be searched again,
// deeper, at each iteration. One thread, --one-best, nodes to the proof
// against an estimate at every horizon node: Kalah(6,4) with the 20-seed
// tablebase 14.47 M against 16.36 M (2, 4 and 6 seeds above it: 14.48 M,
// 15.19 M, 16.41 M), and on 12 positions 6 to 11 random plies into it
// 9.9% fewer in sum, 10 of 12 fewer (2 above: 7.2%); Kalah(6,3) with no
// tablebase 1.41 M against 1.52 M (at most 6, 10, 12 seeds: 1.48 M,
// 1.76 M, 1.43 M), and on 20 positions 2 to 7 random plies into it 3.2%
// fewer in sum, 12 of 20 fewer. Kalah-5x4 took 26% more (chance: a small
// change to the estimates moves a proof's size by tens of percent either
// way).
const (
	exactAbove = 3
	exactLeast = 8
)

// tablelessAbove: in a kalah proof with a tablebase (proofToEnd), a node
// with at most tablelessAbove seeds more than the tablebase holds skips
// the table, as a search for play skips it near the horizon
// (playNoTable). Its subtree is small, a few banking moves from the
// tablebase's values, and the probe of its bucket is a cache miss that
// costs more than the transpositions it finds save: Kalah(6,4) with the
// 20-seed tablebase, one thread, --one-best, 5 interleaved rounds under
// chrt -r 1 on a host loaded by other work: 6.49 CPU-s with the table at
// every node (14.21 M nodes), 5.12 s with 3 seeds above it (15.44 M),
// 4.96 (4: 16.25 M), 4.32 (5: 17.10 M), 4.30 (6: 18.06 M); at 5, four
// random positions 2-5 plies from the start (randpos -seed 7), one thread,
// 3 rounds: 31.0 -> 23.5 CPU-s, 67.2 M -> 83.2 M nodes. Its entries
// would also crowd out those of the larger subtrees, and the table grows
// less (less system time for its pages). Without a tablebase nothing
// changes much (Kalah(6,3), at most 5 seeds: 1.40 M nodes against 1.36 M),
// so it is not used there.
//
// 6 rather than 5 for the table's growth: at 5 one thread ends Kalah(6,4)
// with 95% of the entries that double the table from 128 to 256 MiB
// (table.quarter), and two threads, with 9% more nodes, cross it near the
// end of the proof, paying for a table they no longer use (its split and
// its new pages, 0.27 s of one thread on this VM, whose pages reach the
// host on first touch) and for misses in the larger table. At 6 both end
// at 68-75% of it. chrt -r 1, 8 interleaved rounds, wall medians: one
// thread 3.81 -> 3.73 s (17.10 M -> 18.06 M nodes), two threads 2.28 ->
// 2.12 s (per round 10% faster), two against one 1.71x -> 1.75x; the four
// random positions above, 3 rounds, one thread 22.6 -> 20.7 CPU-s, two
// threads 22.5 -> 22.9 (the noise); 7 did as 6 but leaves one thread's
// Kalah(6,4) at the edge of the 64 MiB growth instead.
const tablelessAbove = 6

// proofToEnd sets exactMax for a proof (not Play) in a variant where no
// position recurs (kalah): only there is every line below a node finite
// without the path's repetitions, and only a proof wants the exact
// values more than the time. With a tablebase it also sets tablelessMax.
func (pol *policy) proofToEnd(repeats bool) {
	if !repeats && !pol.play {
		pol.exactMax = max(pol.tbMax+exactAbove, exactLeast)
		if pol.tbMax >= 0 {
			pol.tablelessMax = pol.tbMax + tablelessAbove
		}
	}
}

// tablelessSeeds reports whether a node of seeds seeds skips the table
// (tablelessAbove).
func (pol *policy) tablelessSeeds(seeds int) bool { return seeds <= pol.tablelessMax }

// searchesToEnd reports whether a node at the horizon with seeds seeds
// is searched on rather than estimated (exactMax). Below it every node
// has as few seeds or fewer, so the search ends at the game's end or the
// tablebase.
func (pol *policy) searchesToEnd(seeds int) bool { return seeds <= pol.exactMax }

// tableless reports whether a node with depth plies left skips the table
// (play within playNoTable plies of the horizon).
func (pol *policy) tableless(depth int) bool { return pol.play && depth <= playNoTable }

// estimated reports whether a position of seeds seeds is valued by the
// estimate tablebase, with no search below it.
func (pol *policy) estimated(seeds int) bool { return seeds <= pol.etbMax }

// takesEstimate reports whether an estimate tablebase's value v ends the
// search of its node. A value of 0 does not: under oware's rules 0 is
// often a cycle ended by the repetition rule, which own-row counting
// (oware-own) scores for the side whose row holds the seeds, so the node
// is searched on instead. Games against Aalina lost by repetition were
// such positions: 7 of 11 losses in 21 games at 500 ms a move.
func (pol *policy) takesEstimate(v int) bool { return v != 0 }

// held reports whether the tablebase holds the positions of seeds seeds.
func (pol *policy) held(seeds int) bool { return seeds <= pol.tbMax }

// probes says which sources a node of seeds seeds, depth plies from the
// horizon, history-free or not, looks up: the tablebase, its board entry,
// its line entry. A history-free node that the tablebase values looks no
// further (takeTablebase).
func (pol *policy) probes(seeds, depth int, free bool) (tb, board, line bool) {
	tb = pol.held(seeds)
	if !tb && (pol.tableless(depth) || pol.tablelessSeeds(seeds)) {
		return false, false, false
	}
	return tb, true, !free
}

// takeTablebase adds the tablebase's value v of n's position to b and
// reports whether that is all n needs (n is history-free: v is its value).
func (pol *policy) takeTablebase(b *bounds, v int, n *node) bool {
	free := n.historyFree()
	b.freeLower(v, free, pol.neutral, n.layer)
	b.freeUpper(v, free, pol.neutral, n.layer)
	return free
}

// takeBoard adds n's board entry e to b: its move, its proven bounds (as
// bounds on the history-free value), and its estimates if n is
// history-free or the search is for play, and they were searched to depth.
func (pol *policy) takeBoard(b *bounds, e entry, n *node, depth int) {
	free := n.historyFree()
	b.move = e.move
	if e.loProven {
		b.freeLower(e.lo, free, pol.neutral, n.layer)
	}
	if e.hiProven {
		b.freeUpper(e.hi, free, pol.neutral, n.layer)
	}
	if free || pol.play {
		b.estimates(e, depth)
	}
}

// takeLine adds n's line entry e to b: all of it (the same position after
// the same line is the same node); its proven bounds rest on the layer's
// first ply when they rest on the line.
func (pol *policy) takeLine(b *bounds, e entry, n *node, depth int) {
	if e.loProven {
		b.lower(e.lo, lineHit(e.loLine, n.layer))
	}
	if e.hiProven {
		b.upper(e.hi, lineHit(e.hiLine, n.layer))
	}
	b.estimates(e, depth)
	if e.move != 0 {
		b.move = e.move
	}
}

// storesFree reports whether a history-free node stores its result r (to
// its board entry, as it is): unless it is tableless.
func (pol *policy) storesFree(r result) bool { return !pol.tableless(r.draft) }

// stores says what n's result r, resting on the line from ply hit, goes to
// the table as: line for its line entry and board for its board entry,
// each when its flag is set (the line entry first). A history-free node's
// result goes to its board entry. Any other node's goes to its line entry;
// a proven result that rests on nothing before the node holds on any line,
// so it goes to the board entry too; since a repetition only moves a value
// toward 0, so does a positive lower or a negative upper bound that rests
// on the line (where a repetition is worth 0); and for play, an estimate
// goes there too.
func (pol *policy) stores(n *node, r result, hit int) (line result, toLine bool, board result, toBoard bool) {
	if n.historyFree() {
		return line, false, r, pol.storesFree(r)
	}
	if pol.tableless(r.draft) {
		return line, false, board, false
	}
	onLine := r.proven && hit < n.ply
	line = r
	line.line, line.onLine = true, onLine
	if !r.proven {
		return line, true, r, pol.play
	}
	board = r
	if onLine {
		// Fact 2 of doc.go, which holds only where a repetition is worth 0.
		board.lower = r.lower && r.score > 0 && pol.neutral
		board.upper = r.upper && r.score < 0 && pol.neutral
	}
	return line, true, board, board.lower || board.upper
}
