package oracle

import (
	"context"
	"slices"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// distancer is a tablebase that also stores each position's distance:
// the plies to the capture or game end that realises its value (as DTZ in
// chess tablebases). The tablebase package offers it on *Prober and
// *Memory where it stores distances; without it, principal variations are
// built by search instead.
type distancer interface {
	ProbeDistance(p position.Position) (value, plies int, ok bool)
}

// pvBuilder builds principal variations from proven best moves only, so
// that playing one out realises the value it belongs to.
//
// Each step takes a proven best move. Where the tablebase holds the
// step's position and its layer started at a position the tablebase
// served (no history from the game), the tablebase picks: with distances,
// value-keeping moves that shorten the distance to a win and lengthen it
// to a loss, so the line makes progress and cannot repeat; without them,
// value-keeping moves that capture or at least do not return to the line,
// and the variation stops (incomplete) when there is none. Since no
// position repeats on such a line, one that reaches the end of the game
// realises the value. Elsewhere a history-aware search of the step's
// position picks (its best moves are best on this line, repetitions
// included).
type pvBuilder struct {
	ctx    context.Context
	v      *position.Variant
	srv    served
	solver *solver.Solver // nil: tablebase steps only
	off    bool           // build nothing
	// oneBest searches a step only until one best move is proven
	// (solver.Request.OneBest), as the search of the root did: a step
	// needs no more.
	oneBest bool
}

const (
	// maxPV is the longest principal variation built, in plies.
	maxPV = 400
	// pvStepNodes bounds the search of one step of a principal variation.
	pvStepNodes = 300_000
)

// build returns the principal variation from p, after history (the
// positions of p's layer before it), and whether it reaches the end of
// the game or a repetition. first, when not -1, is the first move (a
// proven best move of p found by the caller's search).
func (b *pvBuilder) build(p position.Position, history []position.Position, first int) ([]Move, bool) {
	if b.off {
		return []Move{}, false
	}
	line := slices.Clone(history)
	clean := len(line) == 0 // the layer so far follows the distances from its start
	pv := []Move{}
	for q := p; len(pv) < maxPV; {
		if b.ctx.Err() != nil {
			return pv, false
		}
		if slices.Contains(line, q) {
			return pv, true // a repetition ends the game
		}
		moves := legalMoves(b.v, q)
		if len(moves) == 0 {
			return pv, true
		}
		var m position.Move
		probed := false
		switch {
		case moves[0].IsPass():
			m, probed = moves[0], true
		case first >= 0:
			m, _ = pick(moves, first)
			first = -1
		default:
			var ok bool
			if m, probed, ok = b.step(q, moves, line, clean); !ok {
				return pv, false
			}
		}
		pv = append(pv, Move(m.Pit))
		clean = clean && probed
		if m.Captured > 0 {
			line, clean = line[:0], true
		} else {
			line = append(line, q)
		}
		q = m.Next
	}
	return pv, false
}

// step picks a proven best move of q after line, and says whether the
// tablebase picked it. Where the tablebase holds q and the layer so far
// was picked by it from its start (clean), it picks by distance, or
// without distances by value (byValue); elsewhere a history-aware search
// picks.
func (b *pvBuilder) step(q position.Position, moves []position.Move, line []position.Position, clean bool) (position.Move, bool, bool) {
	if q.Seeds() <= b.srv.maxSeeds() && (clean || b.solver == nil) {
		if d, ok := b.srv.tb.(distancer); ok {
			m, ok := byDistance(d, q, moves, line)
			return m, true, ok
		}
		m, ok := b.byValue(q, moves, line)
		return m, true, ok
	}
	if b.solver == nil {
		return position.Move{}, false, false
	}
	res, err := b.solver.SearchRequest(b.ctx, b.v, q, solver.Request{History: line, MaxNodes: pvStepNodes, NoEstimateTablebase: true, OneBest: b.oneBest}) // a step needs a proof, which estimates prevent
	if err != nil || !res.Exact {
		return position.Move{}, false, false
	}
	m, ok := pick(moves, preferred(moves, res.BestMoves))
	return m, false, ok
}

// byDistance picks among q's value-keeping moves the one whose distance
// realises q's value soonest when it is a gain and latest when a loss; at
// value 0, a capture or a move off the line.
func byDistance(d distancer, q position.Position, moves []position.Move, line []position.Position) (position.Move, bool) {
	qv, _, ok := d.ProbeDistance(q)
	if !ok {
		return position.Move{}, false
	}
	best, bestScore := -1, 0
	for i, m := range moves {
		cv, cd, ok := d.ProbeDistance(m.Next)
		if !ok {
			return position.Move{}, false
		}
		onLine := m.Captured == 0 && (m.Next == q || slices.Contains(line, m.Next))
		if m.Value(q, cv) != qv || onLine && qv != 0 {
			continue
		}
		dist := 1
		if m.Captured == 0 {
			dist += cd
		}
		score := dist // smaller is better
		switch {
		case qv < 0:
			score = -dist
		case qv == 0 && onLine:
			score += 1 << 20
		}
		if best < 0 || score < bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return position.Move{}, false
	}
	return moves[best], true
}

// byValue picks, without distances or search, a value-keeping move of q
// that captures (largest first), else one whose position is not on the
// line; false if there is none.
func (b *pvBuilder) byValue(q position.Position, moves []position.Move, line []position.Position) (position.Move, bool) {
	qv, ok := b.srv.tb.Probe(q)
	if !ok {
		return position.Move{}, false
	}
	best := -1
	for i, m := range moves {
		cv, ok := b.srv.tb.Probe(m.Next)
		if !ok {
			return position.Move{}, false
		}
		if m.Value(q, cv) != qv || m.Captured == 0 && (m.Next == q || slices.Contains(line, m.Next)) {
			continue
		}
		if best < 0 || m.Captured > moves[best].Captured {
			best = i
		}
	}
	if best < 0 {
		return position.Move{}, false
	}
	return moves[best], true
}

// preferred returns the move of best (pits) to follow in a principal
// variation: the largest capture, which leaves the layer, else the first;
// -1 if best is empty.
func preferred(moves []position.Move, best []int) int {
	pit := -1
	bestCap := -1
	for _, m := range moves {
		if slices.Contains(best, int(m.Pit)) && int(m.Captured) > bestCap {
			pit, bestCap = int(m.Pit), int(m.Captured)
		}
	}
	return pit
}

// pick returns the move of moves played from pit.
func pick(moves []position.Move, pit int) (position.Move, bool) {
	for _, m := range moves {
		if int(m.Pit) == pit {
			return m, true
		}
	}
	return position.Move{}, false
}
