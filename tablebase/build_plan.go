package tablebase

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// MachineMemBytes returns the memory this process may use: the physical
// memory (MemTotal in /proc/meminfo), lowered to the lowest memory limit
// set on the process's cgroup or one of its ancestors (cgroupMemLimit:
// cgroup v2 memory.max, v1 memory.limit_in_bytes), as under
// `systemd-run -p MemoryMax=...`, a container or a Slurm job with its
// memory confined; 0 when neither can be read (not Linux).
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
	self, _ := os.ReadFile("/proc/self/cgroup")
	if limit := cgroupMemLimit("/sys/fs/cgroup", string(self)); limit > 0 && (total == 0 || limit < total) {
		total = limit
	}
	return total
}

// cgroupMemLimit returns the lowest memory limit, in bytes, on the cgroup
// that self (the text of /proc/self/cgroup) names and on its ancestors,
// read under root (where cgroupfs is mounted: v2 at root or root/unified,
// v1's memory controller at root/memory); 0 when none is set or readable.
// Inside a container with its own cgroup namespace the path is "/" and
// the container's limit is root's file.
func cgroupMemLimit(root, self string) int64 {
	lowest := int64(0)
	for _, line := range strings.Split(strings.TrimSpace(self), "\n") {
		id, rest, _ := strings.Cut(line, ":")
		controllers, path, ok := strings.Cut(rest, ":")
		var dirs []string
		var file string
		switch {
		case !ok:
			continue
		case id == "0" && controllers == "":
			dirs, file = []string{root, filepath.Join(root, "unified")}, "memory.max"
		case slices.Contains(strings.Split(controllers, ","), "memory"):
			dirs, file = []string{filepath.Join(root, "memory")}, "memory.limit_in_bytes"
		default:
			continue
		}
		for _, dir := range dirs {
			for p := filepath.Clean("/" + path); ; p = filepath.Dir(p) {
				if limit := readLimit(filepath.Join(dir, p, file)); limit > 0 && (lowest == 0 || limit < lowest) {
					lowest = limit
				}
				if p == "/" {
					break
				}
			}
		}
	}
	return lowest
}

// readLimit returns the number in a cgroup limit file, or 0 when the file
// is missing or sets no limit: v2's "max", v1's largest page-aligned
// int64 (9223372036854771712).
func readLimit(file string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	limit, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || limit <= 0 || limit >= 1<<62 {
		return 0
	}
	return limit
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
	Method    string // "unsow", "forward", "graph", "graph-spilled" or "iteration", with "-parts" for a layer built in parts (BuildOptions.Parts): the method that runs (chooseMethod; a graph that the first pass finds too large runs as iteration)
	MemBytes  int64  // expected peak of the build's arrays in memory for the layer, lower layers included
	DiskBytes int64  // expected size of the temporary file of a spilled graph (not in MemBytes), else 0
	PeakBytes int64  // expected peak of the Go heap for the layer (heapPeak of MemBytes): the arrays, the propagation's frontier lists and heapFixed; the store's memory-mapped files are not in it
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
	// unsowNarrowBytes is unsowBytes with the narrow propagation state
	// (build_state.go): 2 bytes a position instead of 4; while the
	// layer is encoded, the state and the blocks take less.
	unsowNarrowBytes = 3.125
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

// PlanBuild returns the plans of v's layers 0..opts.MaxSeeds as a build
// into an empty directory would start them (Build, BuildOptions.LayerStart),
// with nothing built or written: each layer's method, its memory
// (MemBytes, PeakBytes) and the spilled graph's disk. Before a layer is
// built the moves a position inside a layer are not known; the graph's
// plans take 3.3, as a build does before its first layer (un-sowing and
// the forward pass do not depend on it). It returns the error Build
// gives before any work for a layer that cannot be built (a budget too
// small, a layer past 2^32 positions), with the plans of the layers
// below it. The plan of a build across processes (BuildOptions.Cluster)
// is not given.
func PlanBuild(v *position.Variant, opts BuildOptions) ([]LayerPlan, error) {
	if opts.MaxSeeds < 0 || opts.MaxSeeds > min(v.Total(), maxLayer) {
		return nil, fmt.Errorf("max seeds %d: want 0..%d for %s", opts.MaxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	if err := buildable(v); err != nil {
		return nil, err
	}
	if opts.Cluster != nil {
		return nil, fmt.Errorf("the plan of a build across processes is not given: its ranks plan their own ranges")
	}
	v = VariantOf(v)
	b := &builder{stored: true, v: v, ix: NewIndex(v.Pits), opts: withDefaults(opts), movesPerPosition: 3.3}
	var plans []LayerPlan
	for n := 0; n <= opts.MaxSeeds; n++ {
		p, err := b.choose(n, b.movesPerPosition)
		if err != nil {
			return plans, err
		}
		plans = append(plans, p.LayerPlan)
	}
	return plans, nil
}
