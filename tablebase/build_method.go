package tablebase

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"

	"github.com/dustin/go-humanize"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// The build method as one decision. A layer is solved by one layerMethod
// (un-sowing, the forward pass, the predecessor graph, value iteration),
// chosen once per layer by chooseMethod from the layer's shape alone
// (layerShape: sizes, the variant's properties, the options), and the
// plan it returns is both what LayerStart shows and what solve runs. A
// method that cannot solve the variant is refused there, before any
// layer is built (checkLayers), not announced and then failed.

// layerShape is what the planner knows of layer n before it is built:
// the sizes of it and of the layers below, the variant's properties that
// decide which methods apply, and the build's options. It is plain data:
// every plan is a function of it alone.
type layerShape struct {
	n            int
	sizes        []int64 // sizes[m]: positions of layer m, m = 0..n
	variant      string
	leastCapture int // position.Variant.LeastCapture
	maxSeeds     int
	budget       int64 // BuildOptions.MemBytes
	lowerCache   int64 // BuildOptions.LowerCacheBytes
	threads      int
	parts        int  // BuildOptions.Parts: above 1, the layer is built in parts
	cluster      bool // BuildOptions.Cluster: one rank of a build across processes
	stored       bool // a store backs the build (Build); false for BuildMemory
	forced       Method
	unsow        bool // the variant un-sows (awari, oware)
	forward      bool // no position of the variant recurs (kalah)
	spillOK      bool // the system can put graph arrays in a mapped file (Linux)
	// movesPerPosition is the moves inside the layer a position, from
	// the last layer built (3.3 for awari when nothing is known).
	movesPerPosition float64
}

// shape returns layer n's shape in this build.
func (b *builder) shape(n int, movesPerPosition float64) *layerShape {
	sizes := make([]int64, n+1)
	for m := range sizes {
		sizes[m] = b.ix.Size(m)
	}
	return &layerShape{n: n, sizes: sizes, variant: b.v.Name, leastCapture: b.v.LeastCapture(),
		maxSeeds: b.opts.MaxSeeds, budget: b.opts.MemBytes, lowerCache: b.opts.LowerCacheBytes,
		threads: b.opts.Threads, parts: b.opts.Parts, cluster: b.opts.Cluster != nil, stored: b.s != nil || b.stored, forced: b.opts.Method,
		unsow: canUnsow(b.v), forward: canForward(b.v), spillOK: spillSupported,
		movesPerPosition: movesPerPosition}
}

// size is the layer's positions.
func (sh *layerShape) size() int64 { return sh.sizes[sh.n] }

// layerMethod is one way of solving a layer.
type layerMethod interface {
	// name is the method as plans and LayerInfo.Method give it (a graph
	// whose arrays go to disk is "graph-spilled").
	name() string
	// applies returns nil when the method can solve layers of sh's
	// variant with sh's options, else an error saying why not.
	applies(sh *layerShape) error
	// plan returns the method's plan for the layer: its memory, the
	// lower layers' placement.
	plan(sh *layerShape) methodPlan
	// solve solves the layer as p plans it.
	solve(ctx context.Context, b *builder, p methodPlan) (solved, error)
}

// methodPlan is a layer's plan: the method that runs and the figures it
// runs with.
type methodPlan struct {
	LayerPlan                // what LayerStart shows (without PeakBytes until plan fills it)
	method    layerMethod    // the method that runs
	lower     lowerPlan      // where the lower layers are while the layer is built
	split     bool           // un-sowing in two scans (splitScan)
	narrow    bool           // un-sowing with the narrow state (build_state.go)
	place     graphPlacement // the graph's placement, for the graph method
}

// chooseMethod is the one decision of layer sh.n's method: the forced
// one (BuildOptions.Method), or, by default, the forward pass where no
// position recurs (kalah: the least memory of all), un-sowing where the
// variant allows it and it fits the budget (awari, oware), the graph
// where it fits in memory or, spilled, on disk, and value iteration when
// nothing else fits. It refuses a layer too large for one machine's
// ranks (MaxLayerPositions; across processes, a rank's range too large:
// clusterPlan), a method that cannot solve the variant, and
// a budget below the least any allowed method needs, each naming the
// layer and, for memory, the bytes in human units.
func chooseMethod(sh *layerShape) (methodPlan, error) {
	if sh.cluster {
		return clusterPlan(sh)
	}
	if size := sh.size(); size >= MaxLayerPositions {
		need := fitted(sh).MemBytes
		return methodPlan{}, fmt.Errorf("layer %d: %s positions, more than one machine's build ranks (2^32 a layer); it would need about %s of memory: a layer this large is built across machines (docs/distributed-build.md)",
			sh.n, humanize.Comma(size), humanize.IBytes(uint64(need)))
	}
	var m layerMethod
	switch sh.forced {
	case MethodUnsow:
		m = unsowMethod{}
	case MethodForward:
		m = forwardMethod{}
	case MethodGraph, MethodSpill:
		m = graphMethod{}
	case MethodIteration:
		m = iterationMethod{}
	default:
		m = autoMethod(sh)
	}
	if sh.parts > 1 {
		switch m.(type) {
		case unsowMethod, graphMethod:
			m = partsMethod{inner: m}
		}
	}
	if err := m.applies(sh); err != nil {
		return methodPlan{}, fmt.Errorf("layer %d: %w", sh.n, err)
	}
	if need := sh.leastBytes(); need > sh.budget {
		return methodPlan{}, fmt.Errorf("layer %d: a memory budget of %s is too small: this layer needs at least %s (--mem, on a machine that has it; beyond one machine: docs/distributed-build.md)",
			sh.n, humanize.IBytes(uint64(sh.budget)), humanize.IBytes(uint64(need)))
	}
	return m.plan(sh), nil
}

// clusterPlan is chooseMethod for a rank of a build across processes:
// un-sowing in parts, the only method split by range (awari and oware;
// another is refused), with the memory of this rank's range of the layer
// and of the lower layers (build_cluster.go). A layer may pass 2^32
// positions, but not a rank's range of it (MaxLayerPositions: the
// ranks inside a range are 32-bit); such a layer is refused, naming the
// ranks it needs.
func clusterPlan(sh *layerShape) (methodPlan, error) {
	if sh.forced != MethodAuto && sh.forced != MethodUnsow {
		return methodPlan{}, fmt.Errorf("a build across processes un-sows; it cannot use another method")
	}
	m := partsMethod{inner: unsowMethod{}}
	if err := m.applies(sh); err != nil {
		return methodPlan{}, fmt.Errorf("layer %d: %w: a build across processes un-sows (awari and oware)", sh.n, err)
	}
	span := partRanges(sh.size(), sh.parts)
	if span >= MaxLayerPositions {
		return methodPlan{}, fmt.Errorf("layer %d: %s positions: a rank's range of it at %d ranks is %s positions, and a range must be under 2^32: it needs at least %d ranks",
			sh.n, humanize.Comma(sh.size()), sh.parts, humanize.Comma(span), ranksNeeded(sh.size()))
	}
	lower := int64(0)
	for k := range sh.n {
		lower += partRanges(sh.sizes[k], sh.parts)
	}
	// The range's arrays and kept values, the lower layers' ranges, and
	// a lookup round's captures (about half a capture a position in
	// awari, 40 bytes each: lookupChunk).
	mem := unsowOwnBytes(span) + span + lower + 40*min(span, lookupChunk)
	p := methodPlan{LayerPlan: sh.basePlan(m.name(), mem), method: m}
	if mem > sh.budget {
		return methodPlan{}, fmt.Errorf("layer %d: a memory budget of %s is too small: a rank of %d needs at least %s (--mem, or more ranks)",
			sh.n, humanize.IBytes(uint64(sh.budget)), sh.parts, humanize.IBytes(uint64(mem)))
	}
	return p, nil
}

// ranksNeeded is the fewest ranks whose ranges of a layer of size
// positions (partRanges) are each under MaxLayerPositions.
func ranksNeeded(size int64) int {
	const most = MaxLayerPositions - BlockSize // the largest range under 2^32
	parts := int((size + most - 1) / most)
	for parts > 1 && partRanges(size, parts-1) < MaxLayerPositions {
		parts--
	}
	return max(parts, 1)
}

// fitted is the plan chooseMethod would make for sh with no bound on
// memory: what the layer needs when it is given what it asks for.
func fitted(sh *layerShape) methodPlan {
	wide := *sh
	wide.budget = math.MaxInt64
	m := autoMethod(&wide)
	if sh.forced != MethodAuto && sh.forced != MethodSpill {
		m = map[Method]layerMethod{MethodUnsow: unsowMethod{}, MethodForward: forwardMethod{},
			MethodGraph: graphMethod{}, MethodIteration: iterationMethod{}}[sh.forced]
	}
	return m.plan(&wide)
}

// autoMethod is MethodAuto's choice (chooseMethod).
func autoMethod(sh *layerShape) layerMethod {
	switch {
	case sh.forward:
		return forwardMethod{}
	case sh.unsow && sh.unsowLayerBytes() <= sh.budget:
		return unsowMethod{}
	}
	if p := (graphMethod{}).plan(sh); p.fits(sh) {
		return graphMethod{}
	}
	return iterationMethod{}
}

// fits reports whether the plan's memory is within the budget.
func (p methodPlan) fits(sh *layerShape) bool { return p.MemBytes <= sh.budget }

// basePlan is the LayerPlan fields every method fills alike.
func (sh *layerShape) basePlan(name string, mem int64) LayerPlan {
	return LayerPlan{Seeds: sh.n, Positions: sh.size(), Budget: sh.budget, Method: name, MemBytes: mem}
}

// unsowMethod: predecessors by un-sowing (build_unsow.go), awari and oware.
type unsowMethod struct{}

func (unsowMethod) name() string { return "unsow" }

func (unsowMethod) applies(sh *layerShape) error {
	if !sh.unsow {
		return fmt.Errorf("%s cannot be built by un-sowing (awari and oware only)", sh.variant)
	}
	return nil
}

func (m unsowMethod) plan(sh *layerShape) methodPlan {
	p := methodPlan{method: m, lower: sh.planLower(sh.unsowOwn()), narrow: sh.narrowState()}
	if lp, ok := sh.splitScan(); ok {
		p.lower, p.split = lp, true
	}
	p.LayerPlan = sh.basePlan(m.name(), sh.unsowLayerBytes())
	return p
}

func (unsowMethod) solve(ctx context.Context, b *builder, p methodPlan) (solved, error) {
	s, disk, err := b.newSolver(p)
	if err != nil {
		return solved{}, err
	}
	res, err := b.solveUnsow(ctx, s, p.split, p.narrow)
	return res, diskErr(err, disk)
}

// forwardMethod: kalah's forward pass (build_forward.go).
type forwardMethod struct{}

func (forwardMethod) name() string { return "forward" }

func (forwardMethod) applies(sh *layerShape) error {
	if !sh.forward {
		return fmt.Errorf("%s cannot be built by the forward pass (its positions can recur)", sh.variant)
	}
	return nil
}

func (m forwardMethod) plan(sh *layerShape) methodPlan {
	own, lower, _ := sh.forwardMemory()
	return methodPlan{LayerPlan: sh.basePlan(m.name(), own+lower), method: m, lower: sh.planLower(forwardOwnBytes(sh.size()))}
}

func (forwardMethod) solve(ctx context.Context, b *builder, p methodPlan) (solved, error) {
	s, disk, err := b.newSolver(p)
	if err != nil {
		return solved{}, err
	}
	if b.stored && p.Seeds == b.opts.MaxSeeds {
		s.exitsDone = b.dropLower
	}
	state, err := s.forward(ctx)
	b.edges = s.edges
	return solved{values: state.val, dist8: state.dist, method: "forward", rounds: s.rounds}, diskErr(err, disk)
}

// graphMethod: the predecessor graph (build_graph.go), in memory or with
// its largest arrays in a mapped file (graph-spilled). Its placement is
// final only once the first pass has counted the layer's moves; a graph
// that then does not fit is solved by value iteration under MethodAuto
// (LayerInfo.Method says so), and is an error when the graph is forced.
type graphMethod struct{}

func (graphMethod) name() string { return "graph" }

func (graphMethod) applies(sh *layerShape) error {
	if sh.forced == MethodSpill && !sh.canSpill() {
		return fmt.Errorf("the graph cannot be spilled to disk here (Linux and a tablebase directory only)")
	}
	return nil
}

func (m graphMethod) plan(sh *layerShape) methodPlan {
	size := sh.size()
	base := sh.minLayerBytes()
	edges := int64(sh.movesPerPosition * float64(size))
	graph := graphLayerBytes(base, size, edges, 0, int64(min(sh.threads, maxParts)))
	place, _ := sh.placeGraph(graph, 4*edges, 4*(size+1))
	p := methodPlan{LayerPlan: sh.basePlan(place.method(), place.ram), method: m,
		lower: sh.planLower(int64(iterationBytes * float64(size))), place: place}
	p.DiskBytes = place.disk
	return p
}

func (graphMethod) solve(ctx context.Context, b *builder, p methodPlan) (solved, error) {
	s, disk, err := b.newSolver(p)
	if err != nil {
		return solved{}, err
	}
	res, err := b.solveGraph(ctx, s, p)
	return res, diskErr(err, disk)
}

// partsMethod: the layer built in parts (build_partition.go), each part
// (a goroutine here, a process across machines) owning a range of the
// layer and propagating through an Exchange, on the predecessors of the
// inner method (un-sowing or the graph). Its values are the inner
// method's; only the propagation's schedule differs.
type partsMethod struct{ inner layerMethod }

func (m partsMethod) name() string { return m.inner.name() + "-parts" }

func (m partsMethod) applies(sh *layerShape) error { return m.inner.applies(sh) }

func (m partsMethod) plan(sh *layerShape) methodPlan {
	p := m.inner.plan(sh)
	p.method, p.Method = m, m.name()
	if p.place.spill != spillNone {
		p.Method = methodSpilled + "-parts"
	}
	return p
}

func (m partsMethod) solve(ctx context.Context, b *builder, p methodPlan) (solved, error) {
	res, err := m.inner.solve(ctx, b, p)
	if res.method != "iteration" { // a graph that did not fit (graphMethod)
		res.method += "-parts"
	}
	return res, err
}

// iterationMethod: value iteration (build_iterate.go), the least memory.
type iterationMethod struct{}

func (iterationMethod) name() string { return "iteration" }

func (iterationMethod) applies(*layerShape) error { return nil }

func (m iterationMethod) plan(sh *layerShape) methodPlan {
	return methodPlan{LayerPlan: sh.basePlan(m.name(), sh.minLayerBytes()), method: m,
		lower: sh.planLower(int64(iterationBytes * float64(sh.size())))}
}

func (iterationMethod) solve(ctx context.Context, b *builder, p methodPlan) (solved, error) {
	s, disk, err := b.newSolver(p)
	if err != nil {
		return solved{}, err
	}
	if err := s.scan(ctx, nil); err != nil {
		return solved{}, diskErr(err, disk)
	}
	b.edges = s.edges
	values, dist, err := s.iterate(ctx)
	return solved{values: values, dist: dist, method: "iteration"}, diskErr(err, disk)
}

// diskErr is err, or when there is none the lower layers' read error.
func diskErr(err error, disk *diskLower) error {
	if err == nil && disk != nil {
		return disk.err()
	}
	return err
}

// newSolver places the lower layers as p plans them and returns the
// layer's solver over them, with the block cache's reader when some are
// read from disk.
func (b *builder) newSolver(p methodPlan) (*layerSolver, *diskLower, error) {
	n := p.Seeds
	s := &layerSolver{v: b.v, ix: b.ix, n: n, size: p.Positions, hi: p.Positions, packed: b.packed,
		threads: b.opts.Threads, prog: newProgress(n, p.Positions, b.opts.Progress), partitions: b.opts.Parts,
		spillPath: b.spillPath(n)}
	if c := b.opts.Cluster; c != nil {
		// Across processes (un-sowing in parts, chooseMethod): this
		// rank's range of the layer, and of the lower layers, which
		// answer the other ranks' lookups.
		s.cluster, s.ownScan, s.origin = c, true, rankOrigin
		lo, hi := ownRange(s.size, c)
		s.lo, s.hi = lo+int64(rankOrigin), hi+int64(rankOrigin)
		s.lowerSpans = lowerSpans(b.ix, n, c.Size())
		s.ownLower = func(m int, rel uint32) int8 { return b.own[m][rel] }
		return s, nil, nil
	}
	b.keepValues = p.lower.keep
	if _, forward := p.method.(forwardMethod); !forward {
		b.unpackLower() // only the forward pass reads packed layers
	}
	lower, disk, err := b.lowerSource(n, p.lower)
	s.lower = lower
	return s, disk, err
}

// solveUnsow solves s's layer by un-sowing: a scan filling the exits and
// the counts (into the propagation state), then the propagation, which
// reads no lower layer. Split (splitScan), the exits are scanned first,
// the lower layers then dropped from memory (the layers above read them
// back), and the counts scanned after.
//
// With the narrow state (narrowState) a layer whose forced lines pass
// its distances (errNarrowDistance) is propagated again with the wide
// state, its counts scanned again: 2 bytes a position more than planned.
func (b *builder) solveUnsow(ctx context.Context, s *layerSolver, split, narrowState bool) (solved, error) {
	if split {
		s.pass = scanExits
		if err := s.scan(ctx, nil); err != nil {
			return solved{}, err
		}
		s.lower = nil
		clear(b.lower)
		debug.FreeOSMemory() // before the state, the largest array, is allocated
		s.pass = scanCounts
	}
	if narrowState {
		s.state16 = makeNarrowState(s.hi - s.lo) // scan writes the counts into it
		if err := s.scan(ctx, nil); err != nil {
			return solved{}, err
		}
		b.noteHeld(s)
		b.edges = s.edges
		s.prog.reach(2 * s.size) // no reverse pass
		state := s.state16
		s.state16 = nil
		state, err := propagateState(ctx, s, nil, state)
		if !errors.Is(err, errNarrowDistance) {
			return solved{narrow: state, method: "unsow", rounds: s.rounds}, err
		}
		state = nil
		freeLarge(s.size)
		s.pass, s.rounds = scanCounts, 0 // the exits are whole; the counts are scanned again
	}
	s.state = make([]uint32, s.hi-s.lo) // scan writes the counts into it
	hugepage.Advise(s.state)
	if err := s.scan(ctx, nil); err != nil {
		return solved{}, err
	}
	b.noteHeld(s)
	b.edges = s.edges
	s.prog.reach(2 * s.size) // no reverse pass
	state, err := s.propagateLayer(ctx, nil)
	b.edges = s.edges // across processes, the sum of every part's (propagateOwnPart)
	return solved{state: state, method: "unsow", rounds: s.rounds}, err
}

// solveGraph is the graph method's solve: the first pass counts each
// position's predecessors from each part (when the counters fit), then
// the graph is placed by the moves counted and solved (solveOnGraph), or,
// when it does not fit, the layer is solved by value iteration (MethodAuto)
// or refused (the graph forced).
func (b *builder) solveGraph(ctx context.Context, s *layerSolver, p methodPlan) (solved, error) {
	sh := b.shape(s.n, b.movesPerPosition)
	size := s.size
	base := sh.minLayerBytes()
	// The graph method's peak (graphLayerBytes): the per-part counters
	// with start and from while reversing, then start, from, the
	// propagation state, values and distances; from and start may go to
	// disk (placeGraph), the counters may not.
	parts := int64(s.parts())
	var indeg [][]uint16
	if base+2*parts*size <= b.opts.MemBytes {
		for range parts {
			indeg = append(indeg, make([]uint16, size))
		}
	}
	if err := s.scan(ctx, indeg); err != nil {
		return solved{}, err
	}
	b.edges = s.edges
	graphBytes := graphLayerBytes(base, size, s.edges, s.keeps, parts)
	place, fits := sh.placeGraph(graphBytes, 4*s.edges, 4*(size+1))
	if indeg != nil && s.edges < 1<<32 && fits {
		return solveOnGraph(ctx, s, indeg, place)
	}
	if b.opts.Method == MethodGraph || b.opts.Method == MethodSpill {
		return solved{}, fmt.Errorf("a memory budget of %s is too small for the graph method: it needs %s (%s with the graph on disk)",
			humanize.IBytes(uint64(b.opts.MemBytes)), humanize.IBytes(uint64(graphBytes)), humanize.IBytes(uint64(place.ram)))
	}
	values, dist, err := s.iterate(ctx)
	return solved{values: values, dist: dist, method: "iteration"}, err
}

// The planner: every figure below is a function of the layer's shape.

// lowerSum returns the bytes of layers 0..k-1's values.
func (sh *layerShape) lowerSum(k int) int64 {
	total := int64(0)
	for m := 0; m < k; m++ {
		total += sh.sizes[m]
	}
	return total
}

// planLower plans the lower layers for the layer, whose own arrays take
// own bytes: its values are kept too (one byte a position more) when a
// layer up to MaxSeeds reads them and everything it reads then still
// fits in memory. Without a store every layer is held and kept.
func (sh *layerShape) planLower(own int64) lowerPlan {
	size := sh.size()
	if !sh.stored {
		return sh.placeLower(own+size, true)
	}
	if sh.n+sh.leastCapture <= sh.maxSeeds {
		if p := sh.placeLower(own+size, true); !p.disk() {
			return p
		}
	}
	return sh.placeLower(own, false)
}

// placeLower places the layers below beside own bytes of the layer's
// arrays: all of them in memory when they fit (or there is no store);
// else, of the layers a move can reach (up to n-LeastCapture), the
// highest in memory as far as they fit with the least cache beside them
// (captures of few seeds, the most frequent, read those) and the rest
// from disk through a block cache of what the budget leaves (at least
// minLowerCache, at most the layers it caches).
// BuildOptions.LowerCacheBytes, when set, reads every reachable layer
// from disk through a cache of that size.
func (sh *layerShape) placeLower(own int64, keep bool) lowerPlan {
	n := sh.n
	p := lowerPlan{inMem: make([]bool, n), keep: keep}
	reach := n - sh.leastCapture
	reachable := sh.lowerSum(reach + 1)
	switch all := sh.lowerSum(n); {
	case !sh.stored || sh.lowerCache <= 0 && own+all <= sh.budget:
		for m := range p.inMem {
			p.inMem[m] = true
		}
		p.held = all
		return p
	case sh.lowerCache > 0:
		p.cache = min(reachable, sh.lowerCache)
		return p
	}
	avail := sh.budget - own
	for m := reach; m >= 0 && p.held+sh.sizes[m]+minLowerCache <= avail; m-- {
		p.inMem[m], p.held = true, p.held+sh.sizes[m]
	}
	if rest := reachable - p.held; rest > 0 {
		p.cache = min(rest, max(avail-p.held, minLowerCache))
	}
	return p
}

// narrowState reports whether the layer un-sows with the narrow state
// (build_state.go): on one machine, not in parts, when its values fit.
func (sh *layerShape) narrowState() bool {
	return !sh.cluster && sh.parts <= 1 && narrowStateFits(sh.n)
}

// unsowOwn is the layer's own memory by un-sowing, its values not kept:
// unsowNarrowBytes a position with the narrow state, else unsowBytes.
func (sh *layerShape) unsowOwn() int64 {
	if sh.narrowState() {
		return unsowNarrowOwnBytes(sh.size())
	}
	return unsowOwnBytes(sh.size())
}

// unsowMemory returns the layer's memory by un-sowing: its own arrays
// (its values kept for the layers above included), the lower layers'
// share (planLower), and whether some of those are read from disk.
//
// A layer whose scan is split (splitScan) peaks either in its first scan
// (the exits and terminal bits beside the lower layers) or after it (the
// propagation arrays, the lower layers dropped): own is the larger, and
// lower is 0.
func (sh *layerShape) unsowMemory() (own, lower int64, disk bool) {
	if p, ok := sh.splitScan(); ok {
		size := sh.size()
		return max(sh.unsowOwn(), scanExitBytes(size)+p.bytes()), 0, false
	}
	return sh.layerMemory(func(int64) int64 { return sh.unsowOwn() })
}

// splitScan reports whether the layer, by un-sowing, scans twice: the
// exits first, with the lower layers in memory (p places them), then,
// the lower layers dropped, the counts into the propagation state. It
// does when the one scan for both would read lower layers from disk
// beside the state and the exits' scan holds all it reads: through the
// block cache a capture's child is a cache miss and a block decoded
// (awari's layer 30 on 2 cores and an 18 GiB budget scanned about a
// quarter of its positions in 3.5 h, layer 29, all held, took 16 min),
// while the second scan only generates moves again. Its values are not
// kept (the next layer reads them back).
func (sh *layerShape) splitScan() (p lowerPlan, ok bool) {
	if !sh.stored || sh.lowerCache > 0 {
		return lowerPlan{}, false
	}
	size := sh.size()
	if !sh.planLower(sh.unsowOwn()).disk() {
		return lowerPlan{}, false
	}
	p = sh.placeLower(scanExitBytes(size), false)
	return p, !p.disk()
}

// layerMemory returns the layer's own bytes by a method whose arrays
// take ownBytes(size) (one byte a position more when its values are
// kept), the lower layers' share (planLower) and whether some are read
// from disk.
func (sh *layerShape) layerMemory(ownBytes func(int64) int64) (own, lower int64, disk bool) {
	own = ownBytes(sh.size())
	p := sh.planLower(own)
	if p.keep {
		own += sh.size()
	}
	return own, p.bytes(), p.disk()
}

// forwardMemory is layerMemory of the forward pass, whose values array
// is its own (forwardBytes), so that keeping it for the layers above
// costs nothing more.
func (sh *layerShape) forwardMemory() (own, lower int64, disk bool) {
	own, lower, disk = sh.layerMemory(forwardOwnBytes)
	if sh.planLower(forwardOwnBytes(sh.size())).keep {
		own -= sh.size()
	}
	return own, lower, disk
}

// unsowLayerBytes is the layer's memory by un-sowing.
func (sh *layerShape) unsowLayerBytes() int64 {
	own, lower, _ := sh.unsowMemory()
	return own + lower
}

// minLayerBytes is the least memory the layer needs: the layers below it
// (in memory, or the least cache of them) and the iteration method's
// arrays.
func (sh *layerShape) minLayerBytes() int64 {
	own := int64(math.Ceil(iterationBytes * float64(sh.size())))
	lower := sh.planLower(own).bytes()
	if sh.stored {
		lower = min(lower, sh.lowerSum(sh.n), minLowerCache)
	}
	return lower + own
}

// leastBytes is the least memory any method allowed for the layer needs:
// iteration's (minLayerBytes), or un-sowing's with the smallest cache of
// lower layers where the variant un-sows, or the forward pass's.
func (sh *layerShape) leastBytes() int64 {
	need := sh.minLayerBytes()
	if sh.unsow && (sh.forced == MethodAuto || sh.forced == MethodUnsow) {
		own, lower, disk := sh.unsowMemory()
		if disk {
			lower = min(lower, minLowerCache)
		}
		need = min(need, own+lower)
	}
	if sh.forward && (sh.forced == MethodAuto || sh.forced == MethodForward) {
		own, lower, disk := sh.forwardMemory()
		if disk {
			lower = min(lower, minLowerCache)
		}
		need = min(need, own+lower)
	}
	return need
}

// canSpill reports whether this build may put graph arrays in a file:
// on Linux, with a tablebase directory for the file (not BuildMemory),
// unless the method is forced to something else.
func (sh *layerShape) canSpill() bool {
	m := sh.forced
	return sh.spillOK && sh.stored && (m == MethodAuto || m == MethodGraph || m == MethodSpill)
}

// placeGraph places a graph layer that needs inMem bytes with its whole
// graph in memory, fromBytes of them the moves' array and startBytes the
// offsets': in memory when that fits the budget, else with the moves and
// then also the offsets in a temporary file, the first that fits
// (MethodSpill: always both in the file). ok is false when none fits;
// the placement returned then is the last one tried.
func (sh *layerShape) placeGraph(inMem, fromBytes, startBytes int64) (p graphPlacement, ok bool) {
	first, last := spillNone, spillNone
	if sh.canSpill() {
		last = spillBoth
	}
	if sh.forced == MethodSpill {
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
		if p.ram <= sh.budget {
			return p, true
		}
	}
	return p, false
}
