package tablebase

import (
	"context"
	"sync/atomic"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

// graph is a layer's moves that stay in the layer, reversed, in
// compressed sparse rows: the predecessors of position q are
// from[start[q]:start[q+1]], once per move (a position with two moves to q
// appears twice). keep, when not nil, has bit e set when edge from[e] is
// a move after which the mover moves again (kalah's extra move); it is
// allocated only when the layer has such moves.
// mapped, when not nil, is the memory-mapped temporary file that start
// or from (or both) live in (build_spill_linux.go); release unmaps it.
type graph struct {
	start  []uint32
	from   []uint32
	keep   []uint64
	mapped []byte
}

// keepsMover reports whether edge e is a move that keeps the mover.
func (g *graph) keepsMover(e uint32) bool { return g.keep != nil && g.keep[e>>6]&(1<<(e&63)) != 0 }

// Where a graph layer's predecessor graph lives (graphPlacement.spill):
// all in memory, its moves (graph.from, 4 bytes a move) in a
// memory-mapped temporary file, or its moves and offsets (graph.start, 4
// bytes a position) there.
const (
	spillNone = iota
	spillFrom
	spillBoth
)

// methodSpilled is the method a layer built on a graph with arrays in a
// temporary file reports (LayerPlan.Method, LayerInfo.Method).
const methodSpilled = "graph-spilled"

// newGraph allocates the graph of a layer with s.edges moves, its arrays
// in memory or, as spill says, in a file mapped from s.spillPath (see
// mapSpill; an error there, such as one wrapping syscall.ENOSPC, is
// returned). The caller releases it.
func (s *layerSolver) newGraph(spill int) (*graph, error) {
	g := &graph{}
	disk := int64(0)
	if spill >= spillFrom {
		disk += 4 * s.edges
	}
	if spill >= spillBoth {
		disk += 4 * (s.size + 1)
	}
	if disk > 0 {
		data, err := mapSpill(s.spillPath, disk)
		if err != nil {
			return nil, err
		}
		g.mapped = data
		words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(data))), disk/4)
		if spill >= spillFrom {
			g.from, words = words[:s.edges:s.edges], words[s.edges:]
		}
		if spill >= spillBoth {
			g.start = words[: s.size+1 : s.size+1]
		}
	}
	if g.start == nil {
		g.start = make([]uint32, s.size+1)
		hugepage.Advise(g.start)
	}
	if g.from == nil {
		g.from = make([]uint32, s.edges)
		hugepage.Advise(g.from)
	}
	if s.keeps > 0 {
		g.keep = make([]uint64, (s.edges+63)/64)
	}
	return g, nil
}

// reverse fills g, allocated by newGraph, with the predecessor graph
// from the per-part in-degrees counted by scan. It generates the moves
// again rather than storing them: one more pass of move generation costs
// less than holding every move twice. Each part fills its own slice of
// each position's run, so the fill needs no atomics either.
func (s *layerSolver) reverse(ctx context.Context, g *graph, indeg [][]uint16) error {
	// start[q] is where q's run begins; indeg[t][q] becomes where part t's
	// slice of it begins, relative to start[q], and then its fill cursor.
	sum := uint32(0)
	for q := range s.size {
		g.start[q] = sum
		run := uint32(0)
		for _, counts := range indeg {
			counts[q], run = uint16(run), run+uint32(counts[q])
		}
		if run > 0xffff {
			return errInDegree
		}
		sum += run
	}
	g.start[s.size] = sum
	return s.forParts(ctx, func(part int, lo, hi int64) error {
		s.fillRange(lo, hi, g, indeg[part])
		s.prog.add(hi - lo)
		return nil
	})
}

// fillRange writes the predecessor entries of the moves of ranks [lo, hi).
func (s *layerSolver) fillRange(lo, hi int64, g *graph, cursor []uint16) {
	var buf [position.MaxPits]position.Move
	c := s.ix.newCursor(s.n, uint64(lo))
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		p := c.position()
		nm := s.v.Moves(p, &buf)
		for j := range buf[:nm] {
			if buf[j].Captured == 0 {
				q := s.ix.Rank(buf[j].Next)
				e := g.start[q] + uint32(cursor[q])
				g.from[e] = uint32(i)
				cursor[q]++
				if g.keep != nil && buf[j].MovesAgain(p) {
					atomic.OrUint64(&g.keep[e>>6], 1<<(e&63)) // words are shared between parts
				}
			}
		}
	}
}

// release unmaps the graph's temporary file, if it has one, which removes
// the file; the graph is empty afterwards. It returns munmap's error.
func (g *graph) release() error {
	data := g.mapped
	*g = graph{}
	if data == nil {
		return nil
	}
	return unmapSpill(data)
}
