package tablebase

import (
	"fmt"
	"path/filepath"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

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

// graphPlacement is where a layer's graph goes and what that costs.
type graphPlacement struct {
	spill int   // spillNone, spillFrom or spillBoth
	ram   int64 // the layer's memory in bytes, with the spilled arrays taken out
	disk  int64 // bytes of the temporary file (0 for spillNone)
}

// method names the graph method of a placement: "graph" or methodSpilled.
func (p graphPlacement) method() string {
	if p.spill == spillNone {
		return "graph"
	}
	return methodSpilled
}

// canSpill reports whether this build may put graph arrays in a file:
// on Linux, with a tablebase directory for the file (not BuildMemory),
// unless the method is forced to something else.
func (b *builder) canSpill() bool {
	m := b.opts.Method
	return spillSupported && b.s != nil && (m == MethodAuto || m == MethodGraph || m == MethodSpill)
}

// placeGraph places a graph layer that needs inMem bytes with its whole
// graph in memory, fromBytes of them the moves' array and startBytes the
// offsets': in memory when that fits the budget, else with the moves and
// then also the offsets in a temporary file, the first that fits
// (MethodSpill: always both in the file). ok is false when none fits;
// the placement returned then is the last one tried.
func (b *builder) placeGraph(inMem, fromBytes, startBytes int64) (p graphPlacement, ok bool) {
	first, last := spillNone, spillNone
	if b.canSpill() {
		last = spillBoth
	}
	if b.opts.Method == MethodSpill {
		first = spillBoth
	}
	for level := first; level <= last; level++ {
		p = graphPlacement{spill: level, ram: inMem}
		if level >= spillFrom {
			p.ram, p.disk = p.ram-fromBytes, p.disk+fromBytes
		}
		if level >= spillBoth {
			p.ram, p.disk = p.ram-startBytes, p.disk+startBytes
		}
		if p.ram <= b.opts.MemBytes {
			return p, true
		}
	}
	return p, false
}

// spillPath is the temporary file of layer n's graph: in the variant's
// directory, named like a staging directory so that a build started
// after a crash deletes it (removeLeftovers) should it still exist.
func (b *builder) spillPath(n int) string {
	if b.s == nil {
		return ""
	}
	return filepath.Join(b.s.vdir, fmt.Sprintf("%s%02d.graph", stagePrefix, n))
}

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
