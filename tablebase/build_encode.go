package tablebase

import (
	"context"
	"encoding/binary"
	"sync"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sync/errgroup"
)

// encodedLayer is a solved layer ready to store.
type encodedLayer struct {
	blocks, distBlocks     [][]byte
	stored, distStored     int64
	checksum, distChecksum uint64 // as LayerInfo.Checksum and DistanceChecksum
	maxDistance            int
	values                 []int8 // the values, when the layers above read them from memory
}

// encodeLayer compresses a solved layer's values and distances into blocks
// with c on threads workers, and computes their checksums. From a
// propagation state it converts one block at a time, so that a large layer
// is never held as state, values and distances at once (the values alone
// are kept, when keepValues says the layers above read them from memory).
// The forward pass's arrays are let go of in res as soon as they are
// encoded, the distances first, so that their memory serves the blocks.
func encodeLayer(ctx context.Context, c codec, threads int, res *solved, keepValues bool) (encodedLayer, error) {
	var e encodedLayer
	var err error
	if res.dist8 != nil { // the forward pass: one byte a distance, widened a block at a time
		var wide sync.Pool // a block's widened distances, reused: less for the collector
		encodeDist := func(chunk []uint8) []byte {
			buf, ok := wide.Get().(*[]uint16)
			if !ok {
				buf = new([]uint16)
			}
			*buf = widenInto(*buf, chunk)
			blk := c.encodeDistances(*buf)
			wide.Put(buf)
			return blk
		}
		if e.distBlocks, e.distStored, err = encodeBlocks(ctx, threads, res.dist8, encodeDist); err != nil {
			return e, err
		}
		e.distChecksum, e.maxDistance = distanceChecksum(res.dist8), maxOf(res.dist8)
		res.dist8 = nil
		if e.blocks, e.stored, err = encodeBlocks(ctx, threads, res.values, c.encodeValues); err != nil {
			return e, err
		}
		e.checksum = xxhash.Sum64(int8Bytes(res.values))
		if keepValues {
			e.values = res.values
		}
		res.values = nil
		return e, nil
	}
	if res.narrow != nil {
		err = encodeState(ctx, c, threads, res.narrow, keepValues, &e)
		res.narrow = nil
		return e, err
	}
	if res.state == nil {
		if e.blocks, e.stored, err = encodeBlocks(ctx, threads, res.values, c.encodeValues); err != nil {
			return e, err
		}
		if e.distBlocks, e.distStored, err = encodeBlocks(ctx, threads, res.dist, c.encodeDistances); err != nil {
			return e, err
		}
		e.checksum, e.distChecksum, e.maxDistance = xxhash.Sum64(int8Bytes(res.values)), distanceChecksum(res.dist), maxOf(res.dist)
		e.values = res.values
		return e, nil
	}
	err = encodeState(ctx, c, threads, res.state, keepValues, &e)
	return e, err
}

// encodeState is encodeLayer of a final propagation state of either
// width, into e.
func encodeState[W stateWord](ctx context.Context, c codec, threads int, st []W, keepValues bool, e *encodedLayer) error {
	var err error
	encodeValues := func(chunk []W) []byte { return c.encodeValues(stateValues(chunk)) }
	if e.blocks, e.stored, err = encodeBlocks(ctx, threads, st, encodeValues); err != nil {
		return err
	}
	encodeDist := func(chunk []W) []byte { return c.encodeDistances(stateDistances(chunk)) }
	if e.distBlocks, e.distStored, err = encodeBlocks(ctx, threads, st, encodeDist); err != nil {
		return err
	}
	e.checksum, e.distChecksum, e.maxDistance = stateSums(st, threads)
	if keepValues {
		e.values = make([]int8, len(st))
		err = parallel(ctx, threads, int64(len(st)), BlockSize, func(lo, hi int64) error {
			for i, x := range st[lo:hi] {
				e.values[lo+int64(i)] = wordValue(x)
			}
			return nil
		})
	}
	return err
}

// stateValues returns the values of a run of final propagation states.
func stateValues[W stateWord](state []W) []int8 {
	values := make([]int8, len(state))
	for i, st := range state {
		values[i] = wordValue(st)
	}
	return values
}

// stateDistances returns the distances of a run of final states.
func stateDistances[W stateWord](state []W) []uint16 {
	dist := make([]uint16, len(state))
	for i, st := range state {
		dist[i] = wordDistance(st)
	}
	return dist
}

// stateSums returns the checksums of the values and distances of a final
// state, streamed in rank order, and the longest distance. The states are
// turned into bytes a block at a time on threads workers, block i by
// worker i mod threads into slot i mod slots, while this goroutine hashes
// the slots in order: a slot is written again only once it is hashed, and
// since slots is a multiple of threads, always by the same worker, in
// order.
func stateSums[W stateWord](state []W, threads int) (values, dist uint64, longest int) {
	hv, hd := xxhash.New(), xxhash.New()
	longest = stateSumsInto(state, threads, hv, hd)
	return hv.Sum64(), hd.Sum64(), longest
}

// stateSumsInto is stateSums writing into the digests hv and hd (of the
// values and of the distances), which may hold the ranges before state's
// already; it returns the longest
// distance of state.
func stateSumsInto[W stateWord](state []W, threads int, hv, hd *xxhash.Digest) (longest int) {
	const chunk = BlockSize
	blocks := (len(state) + chunk - 1) / chunk
	slots := 4 * threads
	type slot struct {
		vb, db       []byte
		longest      int
		ready, empty chan struct{}
	}
	ring := make([]slot, slots)
	for i := range ring {
		ring[i] = slot{vb: make([]byte, chunk), db: make([]byte, 2*chunk),
			ready: make(chan struct{}, 1), empty: make(chan struct{}, 1)}
		ring[i].empty <- struct{}{}
	}
	for w := range threads {
		go func() {
			for b := w; b < blocks; b += threads {
				sl := &ring[b%slots]
				<-sl.empty
				part := state[b*chunk : min((b+1)*chunk, len(state))]
				sl.vb, sl.db, sl.longest = sl.vb[:len(part)], sl.db[:2*len(part)], 0
				for i, st := range part {
					d := wordDistance(st)
					sl.vb[i] = byte(wordValue(st))
					binary.LittleEndian.PutUint16(sl.db[2*i:], d)
					sl.longest = max(sl.longest, int(d))
				}
				sl.ready <- struct{}{}
			}
		}()
	}
	for b := range blocks {
		sl := &ring[b%slots]
		<-sl.ready
		hv.Write(sl.vb)
		hd.Write(sl.db)
		longest = max(longest, sl.longest)
		sl.empty <- struct{}{}
	}
	return longest
}

// maxOf returns the largest distance, 0 for none.
func maxOf[D uint8 | uint16](dist []D) int {
	m := D(0)
	for _, d := range dist {
		m = max(m, d)
	}
	return int(m)
}

// encodeBlocks compresses a layer's values (or distances) into blocks of
// BlockSize, in parallel on threads workers, and returns them with their
// total size.
func encodeBlocks[T any](ctx context.Context, threads int, values []T, encode func([]T) []byte) ([][]byte, int64, error) {
	blocks := make([][]byte, (int64(len(values))+BlockSize-1)/BlockSize)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(threads)
	for i := range blocks {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			blocks[i] = encode(values[i*BlockSize : min((i+1)*BlockSize, len(values))])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	stored := int64(0)
	for _, blk := range blocks {
		stored += int64(len(blk))
	}
	return blocks, stored, nil
}

// widen returns one-byte distances as uint16s.
func widen(dist []uint8) []uint16 { return widenInto(nil, dist) }

// widenInto returns one-byte distances as uint16s in wide's memory when
// it has room, else in a new slice.
func widenInto(wide []uint16, dist []uint8) []uint16 {
	if cap(wide) < len(dist) {
		wide = make([]uint16, len(dist))
	}
	wide = wide[:len(dist)]
	for i, d := range dist {
		wide[i] = uint16(d)
	}
	return wide
}

// solved is one layer's result.
type solved struct {
	values []int8
	dist   []uint16
	dist8  []uint8  // instead of dist, from the forward pass (fwdState)
	state  []uint32 // instead of values and dist, from propagation (stateArrays)
	narrow []uint16 // instead of state, the narrow state (build_state.go)
	method string
	rounds int
}

// arrays makes sure r holds values and distances, converting its state.
func (r *solved) arrays() {
	if r.state != nil {
		r.values, r.dist = stateArrays(r.state)
		r.state = nil
	}
	if r.narrow != nil {
		r.values, r.dist = stateArrays(r.narrow)
		r.narrow = nil
	}
	if r.dist8 != nil {
		r.dist, r.dist8 = widen(r.dist8), nil
	}
}
