package tablebase

import (
	"github.com/mancala-solver/mancala/position"
)

// This file holds two references for values, written from the
// definitions and sharing no code with the build (no Index, no cursor, no
// counters, no predecessor graph):
//
//   - firstCycle is minimax to the end of the game where a position
//     repeated on the current line scores 0 (rules.md sections 0 and 6),
//     the rule of a game actually played. It is exponential within a
//     layer, so it runs with alpha-beta cut-offs (which never change a
//     minimax value) and a node budget, on the positions TestFirstCycle
//     lists.
//   - thresholdRef computes every position of every layer up to a bound
//     from the definition of the value as a game where infinite play is
//     worth 0: value >= k > 0 exactly when the mover can force, in finitely
//     many moves, a capture or game end worth at least k (and symmetrically
//     for <= -k), each threshold computed on its own by repeated sweeps
//     until nothing changes. It is cheap enough for all positions up to 8
//     seeds.

// firstCycle is minimax with repetition = 0. A capture lowers the seeds,
// so nothing on the line before it can recur: the value after a capture
// is the child's value with an empty line, taken from ref (the lower
// layers, themselves checked layer by layer). nodes counts calls; past
// limit the search gives up with ok=false.
type firstCycle struct {
	v     *position.Variant
	ref   map[position.Position]int // boards with Side 0
	nodes int
	limit int
}

// value returns p's minimax value given the positions on the line since
// the last capture, fail-soft within (alpha, beta): exact inside, a
// bound outside.
func (f *firstCycle) value(p position.Position, line map[position.Position]bool, alpha, beta int) (int, bool) {
	if f.nodes++; f.nodes > f.limit {
		return 0, false
	}
	if line[p] {
		return 0, true
	}
	var buf [position.MaxPits]position.Move
	nm := f.v.Moves(p, &buf)
	if nm == 0 {
		return f.v.TerminalValue(p), true
	}
	best := -1 << 30
	for _, m := range buf[:nm] {
		if m.Captured > 0 {
			child := m.Next
			child.Side = 0
			best = max(best, int(m.Captured)-f.ref[child])
		}
	}
	line[p] = true
	defer delete(line, p)
	for _, m := range buf[:nm] {
		if best >= beta {
			break
		}
		if m.Captured > 0 {
			continue
		}
		child, ok := f.value(m.Next, line, -beta, -max(alpha, best))
		if !ok {
			return 0, false
		}
		best = max(best, -child)
	}
	return best, true
}

// thresholdRef returns the value of every board (Side 0) with up to
// maxSeeds seeds, layer by layer.
func thresholdRef(v *position.Variant, maxSeeds int) map[position.Position]int {
	values := map[position.Position]int{}
	for n := 0; n <= maxSeeds; n++ {
		refLayer(v, boards(v.Pits, n), values)
	}
	return values
}

// refNode is one board of the layer being solved: the values to the mover
// of its moves that leave the layer (captures, or the game end), and the
// local numbers of the boards its other moves lead to.
type refNode struct {
	exits []int
	inner []int
}

// refLayer adds the values of one layer's boards to values, which must
// hold every lower layer.
func refLayer(v *position.Variant, layer []position.Position, values map[position.Position]int) {
	id := map[position.Position]int{}
	for i, p := range layer {
		id[p] = i
	}
	nodes := make([]refNode, len(layer))
	for i, p := range layer {
		var buf [position.MaxPits]position.Move
		nm := v.Moves(p, &buf)
		if nm == 0 {
			nodes[i].exits = []int{v.TerminalValue(p)}
		}
		for _, m := range buf[:nm] {
			next := m.Next
			next.Side = 0
			if m.Captured > 0 {
				nodes[i].exits = append(nodes[i].exits, int(m.Captured)-values[next])
			} else {
				nodes[i].inner = append(nodes[i].inner, id[next])
			}
		}
	}
	value := make([]int, len(layer))
	n := layer[0].Seeds()
	for k := 1; k <= n; k++ {
		win, lose := forcing(nodes, k)
		for i := range value {
			if win[i] {
				value[i] = k
			}
			if lose[i] {
				value[i] = -k
			}
		}
	}
	for i, p := range layer {
		values[p] = value[i]
	}
}

// forcing returns, for threshold k >= 1, the boards whose mover can force
// an exit worth at least k (win) and those whose opponent can force one
// worth at most -k to the mover (lose): least fixed points, grown by
// sweeps until a sweep adds nothing.
func forcing(nodes []refNode, k int) (win, lose []bool) {
	win, lose = make([]bool, len(nodes)), make([]bool, len(nodes))
	for changed := true; changed; {
		changed = false
		for i, nd := range nodes {
			if !win[i] && wins(nd, k, lose) {
				win[i], changed = true, true
			}
			if !lose[i] && loses(nd, k, win) {
				lose[i], changed = true, true
			}
		}
	}
	return win, lose
}

// wins: some move is worth at least k.
func wins(nd refNode, k int, lose []bool) bool {
	for _, e := range nd.exits {
		if e >= k {
			return true
		}
	}
	for _, c := range nd.inner {
		if lose[c] {
			return true
		}
	}
	return false
}

// loses: every move is worth at most -k.
func loses(nd refNode, k int, win []bool) bool {
	for _, e := range nd.exits {
		if e > -k {
			return false
		}
	}
	for _, c := range nd.inner {
		if !win[c] {
			return false
		}
	}
	return true
}
