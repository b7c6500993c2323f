package tablebase

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// MachineMemBytes returns the memory this process may use: the physical
// memory (MemTotal in /proc/meminfo), lowered to the cgroup's limit when
// one is set (cgroup v2 memory.max, else v1 memory.limit_in_bytes); 0
// when neither can be read (not Linux).
func MachineMemBytes() int64 {
	total := int64(0)
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(kb, "kB")), 10, 64)
				total = n << 10
			}
		}
		f.Close()
	}
	for _, file := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		limit, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err == nil && limit > 0 && (total == 0 || limit < total) {
			total = limit // "max" (no limit) does not parse and is skipped
		}
		break
	}
	return total
}

// DefaultMemBytes returns the build's memory budget when none is given:
// three quarters of MachineMemBytes (the rest for Badger, the Go runtime
// and the system), or 8 GiB when the machine's memory is unknown.
func DefaultMemBytes() int64 {
	if m := MachineMemBytes(); m > 0 {
		return m / 4 * 3
	}
	return 8 << 30
}

// LayerPlan is what the build expects of a layer before it starts.
type LayerPlan struct {
	Seeds     int
	Positions int64
	Method    string // "unsow", "forward", "graph", "graph-spilled" or "iteration": expected (the graph is decided after the first pass)
	MemBytes  int64  // expected peak of the build's arrays in memory for the layer, lower layers included
	DiskBytes int64  // expected size of the temporary file of a spilled graph (not in MemBytes), else 0
	Budget    int64  // BuildOptions.MemBytes
}

// Bytes a position of the layer being built needs (see builder.solve):
// the least, for value iteration (exit, count, two value arrays,
// distances, terminal bit); the graph method's are graphLayerBytes.
// Un-sowing needs exit, the terminal bits and the propagation state
// (scan writes the counts into it) while it propagates, then the state
// and the compressed blocks (about 1 byte a position) while the layer is
// encoded; and 1 byte more when the values are kept in memory for the
// layers above.
const (
	iterationBytes = 6.125
	unsowBytes     = 5.125
)

// graphLayerBytes is the memory in bytes of a graph layer of size
// positions and edges moves inside it, keeps of them keeping the mover,
// reversed in parts parts, with its whole graph in memory: base (the
// iteration method's, minLayerBytes) plus the offsets and the moves (4
// bytes each), the keep bits when there are such moves, and the larger of
// the per-part counters (while reversing, 2 bytes a position a part) and
// the propagation state beside the values and distances (8 bytes a
// position).
func graphLayerBytes(base, size, edges, keeps, parts int64) int64 {
	return base + 4*(size+1) + 4*edges + edges/8*min(keeps, 1) + max(2*parts*size, 8*size)
}

// unsowMemory returns layer n's memory by un-sowing: its own arrays, the
// lower layers' share, and whether those are read from disk (then the
// layer's values are not kept, and the cache gets what the budget leaves).
func (b *builder) unsowMemory(n int) (own, lower int64, disk bool) {
	size := b.ix.Size(n)
	own = int64(math.Ceil(unsowBytes * float64(size)))
	if lower, disk = b.lowerHeld(n, own+size); !disk || b.opts.LowerCacheBytes > 0 {
		if !disk {
			own += size
		}
		return own, lower, disk
	}
	return own, min(b.lowerSum(n), max(b.opts.MemBytes-own, minLowerCache)), true
}

// unsowLayerBytes is the memory of layer n by un-sowing.
func (b *builder) unsowLayerBytes(n int) int64 {
	own, lower, _ := b.unsowMemory(n)
	return own + lower
}

// minLayerBytes is the least memory layer n needs: the layers below it
// (in memory, or the least cache of them) and the iteration method's
// arrays.
func (b *builder) minLayerBytes(n int) int64 {
	own := int64(math.Ceil(iterationBytes * float64(b.ix.Size(n))))
	lower, _ := b.lowerHeld(n, own)
	if b.s != nil {
		lower = min(lower, b.lowerSum(n), minLowerCache)
	}
	return lower + own
}

// leastLayerBytes is the least memory any method allowed for layer n
// needs: iteration's (minLayerBytes), or un-sowing's with the smallest
// cache of lower layers where the variant un-sows.
func (b *builder) leastLayerBytes(n int) int64 {
	need := b.minLayerBytes(n)
	if canUnsow(b.v) && (b.opts.Method == MethodAuto || b.opts.Method == MethodUnsow) {
		own, lower, disk := b.unsowMemory(n)
		if disk {
			lower = min(lower, minLowerCache)
		}
		need = min(need, own+lower)
	}
	return need
}

// checkBudget fails, before any layer is built, when the budget is too
// small for a layer from..MaxSeeds, naming the first such layer and the
// bytes it needs.
func (b *builder) checkBudget(from int) error {
	for n := from; n <= b.opts.MaxSeeds; n++ {
		if need := b.leastLayerBytes(n); need > b.opts.MemBytes {
			return fmt.Errorf("layer %d: a memory budget of %d bytes is too small: this layer needs at least %d", n, b.opts.MemBytes, need)
		}
	}
	return nil
}

// plan predicts layer n's method and memory, taking the moves a position
// from the last layer built (3.3 for awari when nothing is known).
func (b *builder) plan(n int, movesPerPosition float64) LayerPlan {
	size := b.ix.Size(n)
	p := LayerPlan{Seeds: n, Positions: size, Budget: b.opts.MemBytes, Method: "iteration", MemBytes: b.minLayerBytes(n)}
	if b.useUnsow(n) {
		p.Method, p.MemBytes = "unsow", b.unsowLayerBytes(n)
		return p
	}
	if b.useForward(n) {
		own, lower, _ := b.forwardMemory(n)
		p.Method, p.MemBytes = "forward", own+lower
		return p
	}
	if b.opts.Method == MethodIteration {
		return p
	}
	edges := int64(movesPerPosition * float64(size))
	graph := graphLayerBytes(p.MemBytes, size, edges, 0, int64(min(b.opts.Threads, maxParts)))
	place, fits := b.placeGraph(graph, 4*edges, 4*(size+1))
	if fits || b.opts.Method == MethodGraph || b.opts.Method == MethodSpill {
		p.Method, p.MemBytes, p.DiskBytes = place.method(), place.ram, place.disk
	}
	return p
}

// EstimateSeconds estimates the seconds the layers of the given sizes
// still take, from the layers built so far: the time a position grows
// with the layer's size as a power (cache misses grow with the arrays),
// fitted by least squares on the logarithms over the last four layers
// that took at least half a second (shorter ones are mostly noise). It
// returns -1 until one layer has.
func EstimateSeconds(built []LayerInfo, remaining []int64) float64 {
	var xs, ys []float64
	for _, l := range built {
		if l.Seconds >= 0.5 && l.Positions > 0 {
			xs = append(xs, math.Log(float64(l.Positions)))
			ys = append(ys, math.Log(l.Seconds/float64(l.Positions)))
		}
	}
	if len(xs) == 0 {
		return -1
	}
	if len(xs) > 4 {
		xs, ys = xs[len(xs)-4:], ys[len(ys)-4:]
	}
	exp := slope(xs, ys)
	exp = min(max(exp, 0), 1)
	lastX, lastY := xs[len(xs)-1], ys[len(ys)-1]
	total := 0.0
	for _, size := range remaining {
		x := math.Log(float64(size))
		total += float64(size) * math.Exp(lastY+exp*(x-lastX))
	}
	return total
}

// slope returns the least-squares slope of ys on xs, 0 for fewer than two
// distinct xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den < 1e-9 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}

// boundHeap bounds the Go heap while layer n is built: the collector runs
// when the heap has grown by a quarter over what is live (rather than
// doubled, Go's default), and the runtime's soft memory limit is lowered to
// the layer's plan plus an eighth (for the frontier lists) and 32 MiB,
// when that is below the limit set already. It returns the function that
// restores both. Without it the dead frontiers of the propagation make the
// peak RSS about double the plan. (Badger's memory-mapped files come on
// top in the RSS: about the size of the tablebase, reclaimable page cache.)
func (b *builder) boundHeap(planned int64) func() {
	prevPercent := debug.SetGCPercent(25)
	prev := debug.SetMemoryLimit(-1)
	if limit := planned + planned/8 + 32<<20; limit < prev {
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetMemoryLimit(prev)
		debug.SetGCPercent(prevPercent)
	}
}
