package tablebase

import (
	"sync"
	"sync/atomic"
)

// blockCache keeps decoded blocks of T read from the store (one slot a
// block of each layer), up to a limit in bytes, evicting the oldest first.
// It is the one cache of the package: the prober keeps its values and its
// distances in one each, and a build reads the layers below the one it
// builds through one when they do not fit in memory (build_lower.go).
// A hit is an atomic load; a miss reads the block, and concurrent misses
// of one block may both read it, harmlessly (the loser returns whichever
// copy it still finds, its own if the winner's was evicted meanwhile).
// Evicted blocks stay valid for whoever holds them.
type blockCache[T any] struct {
	slots [][]atomic.Pointer[[]T] // slots[layer][block]
	infos []LayerInfo             // the layers, for their blocks' lengths
	unit  int64                   // bytes of one T
	read  func(n, b int, dst []T) error

	mu     sync.Mutex
	fifo   []blockRef // cached blocks, oldest first
	cached int64      // bytes of the cached blocks
	limit  int64
}

// blockRef names block b of layer n.
type blockRef struct{ layer, block int }

// newBlockCache returns a cache of the blocks of the layers infos (by seed
// count), of unit bytes a T, holding at most limit bytes; read fills dst
// with block b of layer n.
func newBlockCache[T any](infos []LayerInfo, unit, limit int64, read func(n, b int, dst []T) error) *blockCache[T] {
	c := &blockCache[T]{infos: infos, unit: unit, limit: limit, read: read}
	for _, info := range infos {
		c.slots = append(c.slots, make([]atomic.Pointer[[]T], info.Blocks))
	}
	return c
}

// get returns block b of layer n, reading it on a miss, or read's error.
func (c *blockCache[T]) get(n, b int) ([]T, error) {
	if blk := c.slots[n][b].Load(); blk != nil {
		return *blk, nil
	}
	return c.miss(n, b)
}

// ifCached returns block b of layer n if it is cached, else nil.
func (c *blockCache[T]) ifCached(n, b int) []T {
	if blk := c.slots[n][b].Load(); blk != nil {
		return *blk
	}
	return nil
}

// miss reads block b of layer n and caches it.
func (c *blockCache[T]) miss(n, b int) ([]T, error) {
	blk := make([]T, blockLen(c.infos[n], b))
	if err := c.read(n, b, blk); err != nil {
		return nil, err
	}
	slot := &c.slots[n][b]
	if !slot.CompareAndSwap(nil, &blk) {
		// Another caller cached it first; it may be evicted again
		// before we load it, and then our own copy serves as well.
		if cached := slot.Load(); cached != nil {
			return *cached, nil
		}
		return blk, nil
	}
	c.account(blockRef{n, b}, int64(len(blk))*c.unit)
	return blk, nil
}

// blockLen returns the positions in block b of a layer: BlockSize, or
// fewer in the last block.
func blockLen(info LayerInfo, b int) int64 {
	return min(int64(b+1)*BlockSize, info.Positions) - int64(b)*BlockSize
}

// account records a newly cached block and evicts the oldest while the
// cache is over its limit (at least one block stays).
func (c *blockCache[T]) account(ref blockRef, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fifo = append(c.fifo, ref)
	c.cached += bytes
	for c.cached > c.limit && len(c.fifo) > 1 {
		old := c.fifo[0]
		c.fifo = c.fifo[1:]
		if blk := c.slots[old.layer][old.block].Swap(nil); blk != nil {
			c.cached -= int64(len(*blk)) * c.unit
		}
	}
}

// setLimit changes the most bytes kept.
func (c *blockCache[T]) setLimit(limit int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = limit
}
