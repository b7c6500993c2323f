package solver

import (
	"math/rand/v2"
	"slices"

	"github.com/mancala-solver/mancala/position"
)

// This file holds the tests' independent references, which share no code
// with the search: plain minimax, which is the definition but explodes on
// long games, and layered value iteration, which scales further and which
// the tests check against plain minimax wherever both finish.

// plainMinimax is minimax over the whole game tree (rules.md section 6):
// no pruning, no table. A position that repeats one on the line (path)
// scores 0. It counts nodes against *budget and reports ok=false once the
// budget is spent.
func plainMinimax(v *position.Variant, p position.Position, path []position.Position, budget *int) (int, bool) {
	return plainMinimaxRep(v, p, path, budget, func(position.Position) int { return 0 })
}

// plainMinimaxRep is plainMinimax with a repetition of p scoring rep(p).
func plainMinimaxRep(v *position.Variant, p position.Position, path []position.Position, budget *int, rep func(position.Position) int) (int, bool) {
	if *budget--; *budget < 0 {
		return 0, false
	}
	if slices.Contains(path, p) {
		return rep(p), true
	}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	if n == 0 {
		return v.TerminalValue(p), true
	}
	path = append(path, p)
	best := -1 << 20
	for _, m := range buf[:n] {
		child, ok := plainMinimaxRep(v, m.Next, path, budget, rep)
		if !ok {
			return 0, false
		}
		best = max(best, int(m.Captured)-child)
	}
	return best, true
}

// minimaxMoveValues returns each legal move's value (by pit) by plain
// minimax, the root on the line, and the position's value.
func minimaxMoveValues(v *position.Variant, p position.Position, budget int) (map[int]int, int, bool) {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	vals := map[int]int{}
	best := -1 << 20
	for _, m := range buf[:n] {
		child, ok := plainMinimax(v, m.Next, []position.Position{p}, &budget)
		if !ok {
			return nil, 0, false
		}
		vals[int(m.Pit)] = int(m.Captured) - child
		best = max(best, vals[int(m.Pit)])
	}
	return vals, best, true
}

// edge is a move in the explicit game graph of valueIteration.
type edge struct {
	to       position.Position
	captured int
}

// gameGraph is every position reachable from a root, with its moves.
type gameGraph struct {
	v     *position.Variant
	moves map[position.Position][]edge
}

// reachable builds the graph of positions reachable from root; ok=false
// if there are more than limit.
func reachable(v *position.Variant, root position.Position, limit int) (*gameGraph, bool) {
	g := &gameGraph{v: v, moves: map[position.Position][]edge{}}
	queue := []position.Position{root}
	g.moves[root] = nil
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		var buf [position.MaxPits]position.Move
		n := v.Moves(p, &buf)
		out := make([]edge, n)
		for i, m := range buf[:n] {
			out[i] = edge{to: m.Next, captured: int(m.Captured)}
			if _, seen := g.moves[m.Next]; !seen {
				if len(g.moves) >= limit {
					return nil, false
				}
				g.moves[m.Next] = nil
				queue = append(queue, m.Next)
			}
		}
		g.moves[p] = out
	}
	return g, true
}

// values computes the value of every position of the graph with infinite
// play worth 0, layer by layer (seed counts ascending): within a layer,
// V_0 = 0 and V_k+1(X) = max over moves (captured - V_k(child)), children
// in lower layers taking their final values, until nothing changes. V_k
// is the k-ply game with 0 at the horizon; each player's memoryless
// optimal strategy makes it equal the infinite game's value once k passes
// the longest forced sequence, and a repetition ends the real game with
// the same 0 as infinite play, so these are the history-free values of
// rules.md section 6. pinned positions are held at 0 (the game ends there):
// pinning the root gives its children's values with the root on the line.
func (g *gameGraph) values(pinned ...position.Position) map[position.Position]int {
	layers := map[int][]position.Position{}
	for p := range g.moves {
		layers[p.Seeds()] = append(layers[p.Seeds()], p)
	}
	seeds := make([]int, 0, len(layers))
	for s := range layers {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds)
	val := map[position.Position]int{}
	for _, s := range seeds {
		g.solveLayer(layers[s], val, pinned)
	}
	return val
}

// solveLayer runs the value iteration of one layer into val.
func (g *gameGraph) solveLayer(layer []position.Position, val map[position.Position]int, pinned []position.Position) {
	for _, p := range layer {
		val[p] = 0
		if len(g.moves[p]) == 0 {
			val[p] = g.v.TerminalValue(p)
		}
	}
	for changed := true; changed; {
		changed = false
		next := make(map[position.Position]int, len(layer))
		for _, p := range layer {
			next[p] = val[p]
			if len(g.moves[p]) == 0 || slices.Contains(pinned, p) {
				continue
			}
			best := -1 << 20
			for _, e := range g.moves[p] {
				best = max(best, e.captured-val[e.to])
			}
			if best != val[p] {
				next[p], changed = best, true
			}
		}
		for p, x := range next {
			val[p] = x
		}
	}
}

// iterationMoveValues returns each legal move's value (by pit) with the
// root on the line, and the root's history-free value.
func iterationMoveValues(g *gameGraph, root position.Position) (map[int]int, int) {
	free := g.values()
	onLine := g.values(root)
	vals := map[int]int{}
	for _, e := range g.moves[root] {
		pit := pitOf(g.v, root, e.to)
		vals[pit] = e.captured - onLine[e.to]
	}
	return vals, free[root]
}

// pitOf returns the pit of root's move that leads to next.
func pitOf(v *position.Variant, root, next position.Position) int {
	var buf [position.MaxPits]position.Move
	n := v.Moves(root, &buf)
	for _, m := range buf[:n] {
		if m.Next == next {
			return int(m.Pit)
		}
	}
	return -1
}

// randomPlayout plays random legal moves from the start until at most
// maxSeeds seeds are left and the mover has moves, and returns that
// position; ok=false if the game ended (or went on too long) first.
func randomPlayout(v *position.Variant, rng *rand.Rand, maxSeeds int) (position.Position, bool) {
	p := v.Start()
	var buf [position.MaxPits]position.Move
	for ply := 0; ply < 2000; ply++ {
		n := v.Moves(p, &buf)
		if n == 0 {
			return p, false
		}
		if p.Seeds() <= maxSeeds {
			return p, true
		}
		p = buf[rng.IntN(n)].Next
	}
	return p, false
}

// randomBoard spreads seeds at random over both rows, the mover having at
// least one move; ok=false if 100 tries give no such board.
func randomBoard(v *position.Variant, rng *rand.Rand, seeds int) (position.Position, bool) {
	for range 100 {
		pits := make([]int, 2*v.Pits)
		for range seeds {
			pits[rng.IntN(len(pits))]++
		}
		p := position.Position{Own: position.PackRow(pits[:v.Pits]), Opp: position.PackRow(pits[v.Pits:]),
			Side: uint8(rng.IntN(2))}
		var buf [position.MaxPits]position.Move
		if v.Moves(p, &buf) > 0 {
			return p, true
		}
	}
	return position.Position{}, false
}
