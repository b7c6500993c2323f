package tablebase

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"time"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/mancala-solver/mancala/position"
)

// A build across processes (issue 38; docs/distributed-build.md): P
// processes, the ranks of an MPI job, each run Build with the same
// options and a Cluster, the transport between them. Each layer is built
// by un-sowing in P parts (partsMethod), part t by rank t, which holds
// only range t (partRanges) of the layer and of every layer below it,
// as in Romein and Bal's distributed awari build: it scans its own range
// (exits, counts), asking the captures' values of the ranks that own the
// children (build_lookup.go: two Cluster.AllToAll a lookup round), and
// propagates it, exchanging update batches with the other ranks every
// round (Cluster.Exchange) and ending each level with a global sum. It
// then keeps its range's values for the layers above, and the layer is
// stored (gatherToStore: for now rank 0 gathers every range's encoded
// blocks and stores the layer in the normal store, metadata last, so its
// checksums and every reader are those of a one-machine build). On a
// start, rank 0 resumes from its store at the first missing layer and
// sends each rank its ranges of the complete layers (scatterResumed).
// Memory a rank is about 1/P of a one-machine build's (heldBytes; rank 0
// holds a layer's compressed blocks beside it while it stores them).
//
// Kalah's forward pass, value iteration and the graph are not split:
// such a build is refused (chooseMethod).

// Cluster is the transport of a build across processes: this process's
// rank among Size processes, the per-round Exchange (called with part ==
// Rank()), and an all-to-all of bytes. Every rank makes the same calls in
// the same order; a rank that fails ends the job (the transport aborts
// every process), so no call needs to give up on the others.
type Cluster interface {
	Exchange
	// Rank is this process's rank, 0..Size()-1; rank 0 stores.
	Rank() int
	// Size is the number of ranks.
	Size() int
	// AllToAll sends out[to] to every rank to and returns in[from], the
	// bytes every rank from sent this one (the captures' lookups, the
	// layers' ranges sent and gathered). The slices sent must not change
	// until the next collective.
	AllToAll(ctx context.Context, out [][]byte) ([][]byte, error)
}

// ownRange returns this rank's range [lo, hi) of a layer of size
// positions.
func ownRange(size int64, c Cluster) (int64, int64) {
	span, t := partRanges(size, c.Size()), int64(c.Rank())
	return min(t*span, size), min((t+1)*span, size)
}

// propagateOwnPart is propagateParts for a build across processes: only
// this rank's part runs here, the others in their processes; state is
// the part's range. The moves inside the layer, counted by each rank over
// its own range, are summed over the ranks.
func (s *layerSolver) propagateOwnPart(ctx context.Context, g *graph, state []uint32, span int64) ([]uint32, error) {
	c, t := s.cluster, s.cluster.Rank()
	r := &rankPart{s: s, g: g, state: state, t: t, lo: s.lo, hi: s.hi, span: span, parts: s.partitions, ex: c}
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	edges, err := c.Sum(ctx, t, s.edges)
	if err != nil {
		return nil, err
	}
	s.edges = edges
	s.exit = nil
	freeLarge(s.hi - s.lo)
	s.prog.reach(3 * s.size)
	return state, nil
}

// checkCluster checks the options of a build across processes.
func checkCluster(opts BuildOptions) error {
	c := opts.Cluster
	if c == nil {
		return nil
	}
	if c.Size() < 1 || c.Rank() < 0 || c.Rank() >= c.Size() {
		return fmt.Errorf("cluster: rank %d of %d", c.Rank(), c.Size())
	}
	if opts.Parts != c.Size() {
		return fmt.Errorf("cluster of %d ranks: parts %d, want %d", c.Size(), opts.Parts, c.Size())
	}
	return nil
}

// scatterResumed is rank 0's side of a start: it tells the other ranks
// how many layers are complete and the moves a position of the last of
// them (which plans the next layer alike everywhere), and sends each rank
// its ranges of their values (AllToAll); rank 0 keeps its own ranges
// only.
func (b *builder) scatterResumed(ctx context.Context) error {
	c := b.opts.Cluster
	if _, err := c.Sum(ctx, 0, int64(len(b.lower))); err != nil {
		return err
	}
	if _, err := c.Sum(ctx, 0, int64(math.Float64bits(b.movesPerPosition))); err != nil {
		return err
	}
	infos, err := b.s.layers()
	if err != nil {
		return err
	}
	for n := range b.lower {
		values := b.lower[n]
		if values == nil { // not held in memory on rank 0 (trimLower)
			if values, err = b.s.loadLayer(infos[n]); err != nil {
				return err
			}
		}
		b.lower[n] = nil
		span := partRanges(int64(len(values)), c.Size())
		out := make([][]byte, c.Size())
		for t := range out {
			lo, hi := min(int64(t)*span, int64(len(values))), min(int64(t+1)*span, int64(len(values)))
			out[t] = int8Bytes(values[lo:hi])
		}
		if err := b.receiveRange(ctx, n, out); err != nil {
			return err
		}
	}
	return nil
}

// receiveRange is every rank's side of scatterResumed for layer n: out
// is what this rank sends (rank 0's ranges, nothing from the others); it
// keeps its range of the layer as b.own[n].
func (b *builder) receiveRange(ctx context.Context, n int, out [][]byte) error {
	in, err := b.opts.Cluster.AllToAll(ctx, out)
	if err != nil {
		return err
	}
	lo, hi := ownRange(b.ix.Size(n), b.opts.Cluster)
	if int64(len(in[0])) != hi-lo {
		return fmt.Errorf("layer %d: received %d values of rank 0, want %d", n, len(in[0]), hi-lo)
	}
	b.own = append(b.own, slices.Clone(bytesInt8(in[0])))
	return nil
}

// sameMethod checks that every rank built layer n in parts, or none did:
// the ranks' collective calls must match, so a difference (plans made
// from different budgets) is an error on every rank rather than a hang.
func (b *builder) sameMethod(ctx context.Context, n int, p methodPlan) error {
	c := b.opts.Cluster
	parts := int64(0)
	if _, ok := p.method.(partsMethod); ok {
		parts = 1
	}
	got, err := c.Sum(ctx, c.Rank(), parts)
	if err != nil {
		return err
	}
	if got != 0 && got != int64(c.Size()) {
		return fmt.Errorf("layer %d: %d of %d ranks build it in parts (%s here): give every rank the same --mem", n, got, c.Size(), p.Method)
	}
	return nil
}

// buildRank is Build on a rank other than 0 of a build across processes:
// it opens no store; it receives its ranges of the complete layers from
// rank 0, then builds each missing layer's part with the other ranks and
// keeps its range's values for the layers above. Its BuildStats count
// the layers it took part in.
func buildRank(ctx context.Context, v *position.Variant, opts BuildOptions) (BuildStats, error) {
	began := time.Now()
	stats := BuildStats{Variant: v.Name, MaxSeeds: -1}
	c := opts.Cluster
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: opts, movesPerPosition: 3.3, codec: newCodec()}
	defer b.codec.close()
	if err := b.checkLayers(0); err != nil {
		return stats, err
	}
	done, err := c.Sum(ctx, c.Rank(), 0)
	if err != nil {
		return stats, err
	}
	bits, err := c.Sum(ctx, c.Rank(), 0)
	if err != nil {
		return stats, err
	}
	if done > 0 {
		b.movesPerPosition = math.Float64frombits(uint64(bits))
	}
	for n := range int(done) {
		if err := b.receiveRange(ctx, n, make([][]byte, c.Size())); err != nil {
			return stats, err
		}
		b.lower = append(b.lower, nil)
	}
	stats.Resumed, stats.MaxSeeds = int(done), int(done)-1
	for n := int(done); n <= opts.MaxSeeds; n++ {
		p, err := b.choose(n, b.movesPerPosition)
		if err != nil {
			return stats, err
		}
		if err := b.sameMethod(ctx, n, p); err != nil {
			return stats, err
		}
		if opts.LayerStart != nil {
			opts.LayerStart(p.LayerPlan)
		}
		if _, err := b.clusterLayer(ctx, p); err != nil {
			return stats, err
		}
		b.movesPerPosition = float64(b.edges) / float64(p.Positions)
		stats.Positions += p.Positions
		stats.MaxSeeds = n
	}
	stats.Seconds = time.Since(began).Seconds()
	stats.heldBytes = b.heldBytes
	return stats, nil
}

// clusterLayer solves layer p's range on this rank of a build across
// processes, keeps the range's values (b.own) and stores the layer
// (gatherToStore); on rank 0 it returns the layer to store.
func (b *builder) clusterLayer(ctx context.Context, p methodPlan) (solvedLayer, error) {
	began := time.Now()
	n := p.Seeds
	defer b.boundHeap(p.PeakBytes, gcPercent(p.method))()
	res, err := p.method.solve(ctx, b, p)
	if err != nil {
		return solvedLayer{}, fmt.Errorf("layer %d: %w", n, err)
	}
	l, err := b.gatherToStore(ctx, p, res, began)
	if err != nil {
		return solvedLayer{}, fmt.Errorf("layer %d: %w", n, err)
	}
	b.lower = append(b.lower, nil) // the layers built: this rank holds its ranges, b.own
	debug.FreeOSMemory()
	return l, nil
}

// gatherToStore is the one place a build across processes stores a
// layer, from every rank's range of its final state (res.state): each
// rank encodes its range's blocks (a range starts at a block) and keeps
// its values (b.own); the ranks hash their ranges in order (chainedSums);
// then every rank sends rank 0 its blocks, and rank 0 returns the whole
// layer, which it stores as a one-machine build does. A store by range
// (each rank writing its own part of the layer) replaces this function.
func (b *builder) gatherToStore(ctx context.Context, p methodPlan, res solved, began time.Time) (solvedLayer, error) {
	c := b.opts.Cluster
	enc, err := encodeLayer(ctx, b.codec, b.opts.Threads, solved{state: res.state}, true)
	if err != nil {
		return solvedLayer{}, err
	}
	if p.Seeds+b.v.LeastCapture() > b.opts.MaxSeeds {
		enc.values = nil // no layer of this build reads it
	}
	b.own = append(b.own, enc.values)
	checksum, distChecksum, longest, err := chainedSums(ctx, c, res.state, b.opts.Threads)
	if err != nil {
		return solvedLayer{}, err
	}
	out := make([][]byte, c.Size())
	if c.Rank() != 0 { // rank 0's own blocks need no copy
		out[0] = appendBlocks(appendBlocks(nil, enc.blocks), enc.distBlocks)
	}
	in, err := c.AllToAll(ctx, out)
	if err != nil || c.Rank() != 0 {
		return solvedLayer{}, err
	}
	blocks, distBlocks := enc.blocks, enc.distBlocks
	for from, buf := range in[1:] {
		from++
		if blocks, buf, err = readBlocks(blocks, buf); err == nil {
			distBlocks, buf, err = readBlocks(distBlocks, buf)
		}
		if err == nil && len(buf) != 0 {
			err = fmt.Errorf("%d bytes left over", len(buf))
		}
		if err != nil {
			return solvedLayer{}, fmt.Errorf("the blocks of rank %d: %w", from, err)
		}
	}
	info := LayerInfo{
		Variant: b.v.Name, RulesVersion: int(b.v.RulesVersion()), Seeds: p.Seeds,
		Positions: p.Positions, BlockSize: BlockSize, Blocks: len(blocks),
		Checksum: checksum, StoredBytes: blocksBytes(blocks),
		InnerMoves: b.edges, Method: res.method, BuiltAt: began.UTC(), ToolVersion: ToolVersion,
		Seconds: time.Since(began).Seconds(), Format: Format,
		DistanceChecksum: distChecksum, DistanceBytes: blocksBytes(distBlocks), MaxDistance: longest,
		Rounds: res.rounds,
	}
	return solvedLayer{info: info, blocks: blocks, distBlocks: distBlocks}, nil
}

// chainedSums returns, on rank 0, the checksums of the whole layer's values
// and distances and its longest distance, from every rank's range of the
// final state: xxHash64 is sequential, so the ranks hash their ranges in
// rank order, each handing its digests (MarshalBinary) to the next, the
// last to rank 0: P all-to-alls of some hundred bytes.
func chainedSums(ctx context.Context, c Cluster, state []uint32, threads int) (uint64, uint64, int, error) {
	hv, hd := xxhash.New(), xxhash.New()
	longest, me, ranks := 0, c.Rank(), c.Size()
	for step := range ranks {
		out := make([][]byte, ranks)
		if step == me {
			longest = max(longest, stateSumsInto(state, threads, hv, hd))
			buf, err := appendDigests(nil, hv, hd, longest)
			if err != nil {
				return 0, 0, 0, err
			}
			out[(me+1)%ranks] = buf
		}
		in, err := c.AllToAll(ctx, out)
		if err != nil {
			return 0, 0, 0, err
		}
		if me == (step+1)%ranks {
			if longest, err = readDigests(in[step], hv, hd); err != nil {
				return 0, 0, 0, fmt.Errorf("the checksums from rank %d: %w", step, err)
			}
		}
	}
	return hv.Sum64(), hd.Sum64(), longest, nil
}

// appendDigests appends the two digests' states and the longest
// distance so far to buf.
func appendDigests(buf []byte, hv, hd *xxhash.Digest, longest int) ([]byte, error) {
	for _, d := range []*xxhash.Digest{hv, hd} {
		state, err := d.MarshalBinary()
		if err != nil {
			return nil, err
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(state)))
		buf = append(buf, state...)
	}
	return binary.LittleEndian.AppendUint32(buf, uint32(longest)), nil
}

// readDigests sets hv and hd from appendDigests' bytes and returns the
// longest distance.
func readDigests(buf []byte, hv, hd *xxhash.Digest) (int, error) {
	for _, d := range []*xxhash.Digest{hv, hd} {
		if len(buf) < 4 || len(buf)-4 < int(binary.LittleEndian.Uint32(buf)) {
			return 0, errors.New("truncated")
		}
		k := int(binary.LittleEndian.Uint32(buf))
		if err := d.UnmarshalBinary(buf[4 : 4+k]); err != nil {
			return 0, err
		}
		buf = buf[4+k:]
	}
	if len(buf) != 4 {
		return 0, errors.New("truncated")
	}
	return int(binary.LittleEndian.Uint32(buf)), nil
}

// appendBlocks appends the count of blocks, then each block's length and
// bytes, to buf.
func appendBlocks(buf []byte, blocks [][]byte) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(blocks)))
	for _, blk := range blocks {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(blk)))
		buf = append(buf, blk...)
	}
	return buf
}

// readBlocks appends to blocks those appendBlocks wrote at buf's start,
// and returns the rest of buf.
func readBlocks(blocks [][]byte, buf []byte) ([][]byte, []byte, error) {
	if len(buf) < 4 {
		return nil, nil, errors.New("truncated")
	}
	count := binary.LittleEndian.Uint32(buf)
	buf = buf[4:]
	for range count {
		if len(buf) < 4 || len(buf)-4 < int(binary.LittleEndian.Uint32(buf)) {
			return nil, nil, errors.New("truncated")
		}
		k := int(binary.LittleEndian.Uint32(buf))
		blocks, buf = append(blocks, buf[4:4+k]), buf[4+k:]
	}
	return blocks, buf, nil
}

// blocksBytes is the bytes of blocks.
func blocksBytes(blocks [][]byte) int64 {
	total := int64(0)
	for _, blk := range blocks {
		total += int64(len(blk))
	}
	return total
}

// bytesInt8 is int8Bytes' inverse: the same memory as values.
func bytesInt8(b []byte) []int8 {
	return unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

// noteHeld records the bytes of the layer's arrays and of the lower
// layers' values this process holds after s's scan (the peak of an
// un-sown layer: state, exits and lower layers together), as counted by
// the arrays' lengths: BuildStats.heldBytes, which shows that a rank of a
// build across processes holds about 1/P of a one-machine build's.
func (b *builder) noteHeld(s *layerSolver) {
	held := int64(len(s.exit)+len(s.count)) + 8*int64(len(s.terminal)) + 4*int64(len(s.state))
	for _, values := range b.lower {
		held += int64(len(values))
	}
	for _, values := range b.own {
		held += int64(len(values))
	}
	b.heldBytes = max(b.heldBytes, held)
}
