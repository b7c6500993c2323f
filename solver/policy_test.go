package solver

import "testing"

// policyModes are the search modes as policies: every combination the
// search can be in, kalah's (every node history-free) included.
var policyModes = []struct {
	name    string
	opts    Options
	neutral bool
	kalah   bool // every node is history-free
	// wanted: what the mode is made of
	tbMax, etbMax int
	play          bool
}{
	{name: "proof", neutral: true, tbMax: -1, etbMax: -1},
	{name: "proof+tb", opts: Options{Tablebase: hashTablebase{max: 6}}, neutral: true, tbMax: 6, etbMax: -1},
	{name: "play", opts: Options{Play: true}, neutral: true, tbMax: -1, etbMax: -1, play: true},
	{name: "play+tb", opts: Options{Play: true, Tablebase: hashTablebase{max: 6}}, neutral: true, tbMax: 6, etbMax: -1, play: true},
	{name: "kalah proof+tb", opts: Options{Tablebase: hashTablebase{max: 6}}, neutral: true, kalah: true, tbMax: 6, etbMax: -1},
	{name: "kalah play+tb", opts: Options{Play: true, Tablebase: hashTablebase{max: 6}}, neutral: true, kalah: true, tbMax: 6, etbMax: -1, play: true},
	// No tablebase holds own-row values: one given is not used.
	{name: "own proof+tb", opts: Options{Tablebase: hashTablebase{max: 6}}, tbMax: -1, etbMax: -1},
	// An estimate tablebase serves only play of own-row repetition.
	{name: "own proof+etb", opts: Options{EstimateTablebase: hashTablebase{max: 6}}, tbMax: -1, etbMax: 6},
	{name: "own play+etb", opts: Options{Play: true, EstimateTablebase: hashTablebase{max: 6}}, tbMax: -1, etbMax: 6, play: true},
	{name: "neutral play+etb", opts: Options{Play: true, EstimateTablebase: hashTablebase{max: 6}}, neutral: true, tbMax: -1, etbMax: -1, play: true},
}

// policyKnown is worker.known with the lookups' answers given: the
// tablebase's value tbv (tbOK: held), the board entry and the line entry.
func policyKnown(pol *policy, n *node, seeds, depth int, tbv int, tbOK bool, board entry, boardOK bool, line entry, lineOK bool) bounds {
	b := bounds{lo: -inf, hi: inf, loHit: noHit, hiHit: noHit, elo: -inf, ehi: inf}
	tb, useBoard, useLine := pol.probes(seeds, depth, n.historyFree())
	if tb && tbOK && pol.takeTablebase(&b, tbv, n) {
		return b
	}
	if useBoard && boardOK {
		pol.takeBoard(&b, board, n, depth)
	}
	if useLine && lineOK {
		pol.takeLine(&b, line, n, depth)
	}
	return b
}

func TestPolicyModes(t *testing.T) {
	for _, m := range policyModes {
		pol := newPolicy(m.opts, m.neutral)
		if pol.tbMax != m.tbMax || pol.etbMax != m.etbMax || pol.play != m.play || pol.neutral != m.neutral {
			t.Errorf("%s: policy %+v; want tbMax %d etbMax %d play %v", m.name, pol, m.tbMax, m.etbMax, m.play)
		}
		for depth := 0; depth <= 4; depth++ {
			// Play skips the table within playNoTable (2) plies of the horizon.
			if got, want := pol.tableless(depth), m.play && depth <= 2; got != want {
				t.Errorf("%s: tableless(%d) = %v", m.name, depth, got)
			}
			for _, seeds := range []int{5, 6, 7, 40} {
				for _, free := range []bool{true, false} {
					tb, board, line := pol.probes(seeds, depth, free)
					held := seeds <= m.tbMax
					skip := m.play && depth <= 2 && !held
					if tb != held || board != !skip || line != (!skip && !free) {
						t.Errorf("%s: probes(%d seeds, depth %d, free %v) = %v %v %v", m.name, seeds, depth, free, tb, board, line)
					}
				}
				if got := pol.estimated(seeds); got != (seeds <= m.etbMax) {
					t.Errorf("%s: estimated(%d) = %v", m.name, seeds, got)
				}
			}
		}
	}
}

// TestProofSkipsTableNearTablebase: a kalah proof with a tablebase of 6
// seeds skips the table at nodes of 7..6+tablelessAbove seeds and uses it
// above; play, proofs of variants that repeat and proofs without a
// tablebase never skip it by seeds.
func TestProofSkipsTableNearTablebase(t *testing.T) {
	for _, m := range policyModes {
		pol := newPolicy(m.opts, m.neutral)
		pol.proofToEnd(!m.kalah)
		for seeds := 0; seeds <= 20; seeds++ {
			skip := m.kalah && !m.play && m.tbMax >= 0 && seeds > m.tbMax && seeds <= m.tbMax+tablelessAbove
			if got := pol.tablelessSeeds(seeds) && seeds > m.tbMax; got != skip {
				t.Errorf("%s: tablelessSeeds(%d) = %v; want %v", m.name, seeds, got, skip)
			}
			tb, board, _ := pol.probes(seeds, 10, true)
			if tb != (seeds <= m.tbMax) || board == skip {
				t.Errorf("%s: probes(%d seeds, depth 10) = tb %v board %v; want the table skipped: %v", m.name, seeds, tb, board, skip)
			}
		}
	}
}

// TestPolicyTakes: worked cases of what a node takes from each source.
func TestPolicyTakes(t *testing.T) {
	proof := newPolicy(Options{Tablebase: hashTablebase{max: 6}}, true)
	play := newPolicy(Options{Play: true, Tablebase: hashTablebase{max: 6}}, true)
	own := newPolicy(Options{}, false)
	ownPlay := newPolicy(Options{Play: true}, false)
	free := &node{ply: 4, layer: 4}
	lined := &node{ply: 6, layer: 4}
	est := entry{lo: 2, hi: 5, draft: 5, move: 3}                                          // estimates 2..5 to draft 5
	prov := entry{lo: 3, hi: 3, loProven: true, hiProven: true, draft: 9, move: 2}         // proven +3
	provNeg := entry{lo: -2, hi: -2, loProven: true, hiProven: true, draft: 9}             // proven -2
	lineProv := entry{lo: 1, hi: 4, loProven: true, hiProven: true, loLine: true, move: 5} // 1 on the line .. 4
	cases := []struct {
		name                 string
		pol                  *policy
		n                    *node
		seeds, depth         int
		tbv                  int
		tbOK                 bool
		board                entry
		boardOK              bool
		line                 entry
		lineOK               bool
		lo, loHit, hi, hiHit int
		elo, ehi, move       int
	}{
		{"free node: the tablebase's value, exact", &proof, free, 5, 4, 3, true, prov, true, entry{}, false, 3, noHit, 3, noHit, -inf, inf, 0},
		{"line node: a positive tablebase value pulled to 0..3", &proof, lined, 5, 4, 3, true, entry{}, false, entry{}, false, 0, 4, 3, noHit, -inf, inf, 0},
		{"line node: a negative value pulled to -2..0", &proof, lined, 5, 4, -2, true, entry{}, false, entry{}, false, -2, noHit, 0, 4, -inf, inf, 0},
		{"free node: board estimates at draft 5 >= depth 4", &proof, free, 30, 4, 0, false, est, true, entry{}, false, -inf, noHit, inf, noHit, 2, 5, 3},
		{"free node: no estimates from draft 5 < depth 6", &proof, free, 30, 6, 0, false, est, true, entry{}, false, -inf, noHit, inf, noHit, -inf, inf, 3},
		{"line node, proof: no board estimates", &proof, lined, 30, 4, 0, false, est, true, entry{}, false, -inf, noHit, inf, noHit, -inf, inf, 3},
		{"line node, play: board estimates cross lines", &play, lined, 30, 4, 0, false, est, true, entry{}, false, -inf, noHit, inf, noHit, 2, 5, 3},
		{"line node: board's proven +3 as 0..3", &proof, lined, 30, 4, 0, false, prov, true, entry{}, false, 0, 4, 3, noHit, -inf, inf, 2},
		{"line node: board's proven -2 as -2..0", &play, lined, 30, 4, 0, false, provNeg, true, entry{}, false, -2, noHit, 0, 4, -inf, inf, 0},
		{"own line node: nothing proven from the board", &own, lined, 30, 4, 0, false, prov, true, entry{}, false, -inf, noHit, inf, noHit, -inf, inf, 2},
		{"own free node: the board's proven +3", &own, free, 30, 4, 0, false, prov, true, entry{}, false, 3, noHit, 3, noHit, -inf, inf, 2},
		{"own line node, play: board estimates only", &ownPlay, lined, 30, 4, 0, false, est, true, entry{}, false, -inf, noHit, inf, noHit, 2, 5, 3},
		{"line entry: a bound on the line rests on the layer", &proof, lined, 30, 4, 0, false, prov, true, lineProv, true, 1, 4, 3, noHit, -inf, inf, 5},
		{"line entry in own: all of it", &own, lined, 30, 4, 0, false, entry{}, false, lineProv, true, 1, 4, 4, noHit, -inf, inf, 5},
		{"play near the horizon: nothing", &play, lined, 30, 2, 0, false, prov, true, lineProv, true, -inf, noHit, inf, noHit, -inf, inf, 0},
		{"play near the horizon, held: the tablebase still", &play, free, 5, 1, -4, true, prov, true, entry{}, false, -4, noHit, -4, noHit, -inf, inf, 0},
	}
	for _, c := range cases {
		b := policyKnown(c.pol, c.n, c.seeds, c.depth, c.tbv, c.tbOK, c.board, c.boardOK, c.line, c.lineOK)
		want := bounds{lo: c.lo, loHit: c.loHit, hi: c.hi, hiHit: c.hiHit, elo: c.elo, ehi: c.ehi, move: c.move}
		if b != want {
			t.Errorf("%s: %+v; want %+v", c.name, b, want)
		}
	}
}

// TestPolicyStores: worked cases of what a node stores where.
func TestPolicyStores(t *testing.T) {
	proof := newPolicy(Options{}, true)
	play := newPolicy(Options{Play: true}, true)
	own := newPolicy(Options{}, false)
	free := &node{ply: 4, layer: 4}
	lined := &node{ply: 6, layer: 4}
	lower3 := result{score: 3, lower: true, proven: true, draft: 5, move: 2}
	upper3 := result{score: 3, upper: true, proven: true, draft: 5}
	estimate := result{score: 1, lower: true, upper: true, draft: 5}
	lineOf := func(r result, onLine bool) result { r.line, r.onLine = true, onLine; return r }
	none := result{}
	cases := []struct {
		name    string
		pol     *policy
		n       *node
		r       result
		hit     int
		line    result
		toLine  bool
		board   result
		toBoard bool
	}{
		{"free node: the board entry", &proof, free, lower3, noHit, none, false, lower3, true},
		{"free node, own: the board entry", &own, free, lower3, 2, none, false, lower3, true},
		{"line node, proof off the line: both", &proof, lined, lower3, noHit, lineOf(lower3, false), true, lower3, true},
		{"line node, hit at the node's ply: not on the line", &proof, lined, lower3, 6, lineOf(lower3, false), true, lower3, true},
		{"line node, +3 lower on the line: holds for the board", &proof, lined, lower3, 5, lineOf(lower3, true), true, lower3, true},
		{"line node, +3 upper on the line: line only", &proof, lined, upper3, 5, lineOf(upper3, true), true, result{score: 3, proven: true, draft: 5}, false},
		{"own line node, +3 lower on the line: line only", &own, lined, lower3, 5, lineOf(lower3, true), true, result{score: 3, proven: true, draft: 5, move: 2}, false},
		{"line node, proof: an estimate to the line only", &proof, lined, estimate, noHit, lineOf(estimate, false), true, none, false},
		{"line node, play: an estimate to both", &play, lined, estimate, noHit, lineOf(estimate, false), true, estimate, true},
		{"play near the horizon: nothing", &play, lined, result{score: 3, lower: true, proven: true, draft: 2}, noHit, none, false, none, false},
	}
	for _, c := range cases {
		line, toLine, board, toBoard := c.pol.stores(c.n, c.r, c.hit)
		if toLine != c.toLine || toLine && line != c.line || toBoard != c.toBoard || toBoard && board != c.board {
			t.Errorf("%s: line %v %+v, board %v %+v; want line %v %+v, board %v %+v",
				c.name, toLine, line, toBoard, board, c.toLine, c.line, c.toBoard, c.board)
		}
	}
}

// TestPlayTakesLessProof is play mode's promise, checked on the policy
// over every node, source and entry of a grid: the proven bounds a play
// policy takes are a subset of those the proof policy of the same variant
// and tablebase takes (a bound no tighter, resting on no less of the
// line), and the proven bounds it stores, of those the proof policy
// stores; what play adds is estimates only.
func TestPlayTakesLessProof(t *testing.T) {
	var entries []entry
	for _, lo := range []int{noLower, -3, 0, 2} {
		for _, hi := range []int{noUpper, -1, 0, 3} {
			if lo != noLower && hi != noUpper && lo > hi {
				continue
			}
			for flags := 0; flags < 16; flags++ {
				e := entry{lo: lo, hi: hi, loProven: flags&1 != 0 && lo != noLower, hiProven: flags&2 != 0 && hi != noUpper,
					loLine: flags&4 != 0, hiLine: flags&8 != 0, move: 1 + flags%3}
				for _, draft := range []int{1, 4} {
					e.draft = draft
					entries = append(entries, e)
				}
			}
		}
	}
	var results []result
	for _, score := range []int{-3, 0, 2} {
		for bounds := 1; bounds < 4; bounds++ {
			for _, proven := range []bool{false, true} {
				for _, draft := range []int{1, 2, 3, 5} {
					results = append(results, result{score: score, lower: bounds&1 != 0, upper: bounds&2 != 0, proven: proven, draft: draft, move: 1})
				}
			}
		}
	}
	nodes := []*node{{ply: 3, layer: 3}, {ply: 7, layer: 3}}
	checked := 0
	for _, neutral := range []bool{true, false} {
		for _, tb := range []Tablebase{nil, hashTablebase{max: 6}} {
			proof := newPolicy(Options{Tablebase: tb}, neutral)
			play := newPolicy(Options{Play: true, Tablebase: tb}, neutral)
			for _, n := range nodes {
				for _, seeds := range []int{4, 20} {
					for depth := 0; depth <= 5; depth++ {
						for _, tbv := range []int{-2, 0, 3} {
							for i, board := range entries {
								line := entries[(i*7+3)%len(entries)]
								for _, ok := range []bool{false, true} {
									a := policyKnown(&proof, n, seeds, depth, tbv, ok, board, true, line, ok)
									b := policyKnown(&play, n, seeds, depth, tbv, ok, board, true, line, ok)
									checked++
									if b.lo > a.lo || b.lo == a.lo && b.lo > -inf && b.loHit > a.loHit ||
										b.hi < a.hi || b.hi == a.hi && b.hi < inf && b.hiHit > a.hiHit {
										t.Fatalf("neutral %v tb %v node %+v seeds %d depth %d tb %d board %+v line %+v: play takes %+v, proof %+v",
											neutral, tb != nil, *n, seeds, depth, tbv, board, line, b, a)
									}
								}
							}
						}
					}
				}
				for _, r := range results {
					for _, hit := range []int{1, 5, noHit} {
						checked++
						al, aToL, ab, aToB := proof.stores(n, r, hit)
						bl, bToL, bb, bToB := play.stores(n, r, hit)
						if !provenSubset(bl, bToL, al, aToL) || !provenSubset(bb, bToB, ab, aToB) {
							t.Fatalf("neutral %v node %+v result %+v hit %d: play stores line %v %+v board %v %+v; proof line %v %+v board %v %+v",
								neutral, *n, r, hit, bToL, bl, bToB, bb, aToL, al, aToB, ab)
						}
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// provenSubset reports whether a proven bound stored as r (when to) is
// also stored, the same, as s (when sto).
func provenSubset(r result, to bool, s result, sto bool) bool {
	if !to || !r.proven {
		return true
	}
	return sto && s.proven && s.score == r.score && (!r.lower || s.lower) && (!r.upper || s.upper) && (!r.onLine || s.onLine)
}

// An estimate tablebase's 0 ends no search (a cycle that own-row counting
// may score); every other value does, in every mode.
func TestPolicyTakesEstimate(t *testing.T) {
	for _, m := range policyModes {
		pol := newPolicy(m.opts, m.neutral)
		for v := -48; v <= 48; v++ {
			if got := pol.takesEstimate(v); got != (v != 0) {
				t.Errorf("%s: takesEstimate(%d) = %v", m.name, v, got)
			}
		}
	}
}
