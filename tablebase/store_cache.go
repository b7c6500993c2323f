package tablebase

import (
	"sync"
	"sync/atomic"
)

// blockCache keeps decoded blocks of T (one slot a block of each layer),
// up to a limit in bytes, evicting the oldest first. A hit is an atomic
// load; a miss calls load, and concurrent misses of one block may both
// load it, harmlessly. Evicted blocks stay valid for whoever holds them.
type blockCache[T any] struct {
	slots [][]atomic.Pointer[[]T] // slots[layer][block]
	unit  int64                   // bytes of one T

	mu     sync.Mutex
	fifo   []blockRef
	cached int64
	limit  int64
}

// newBlockCache returns a cache for layers of the given block counts.
func newBlockCache[T any](blocks []int, unit, limit int64) *blockCache[T] {
	c := &blockCache[T]{unit: unit, limit: limit}
	for _, n := range blocks {
		c.slots = append(c.slots, make([]atomic.Pointer[[]T], n))
	}
	return c
}

// get returns block b of layer n, calling load on a miss, or load's
// error.
func (c *blockCache[T]) get(n, b int, load func() ([]T, error)) ([]T, error) {
	slot := &c.slots[n][b]
	if blk := slot.Load(); blk != nil {
		return *blk, nil
	}
	blk, err := load()
	if err != nil {
		return nil, err
	}
	if !slot.CompareAndSwap(nil, &blk) {
		return *slot.Load(), nil // another caller loaded it first
	}
	c.account(blockRef{n, b}, int64(len(blk))*c.unit)
	return blk, nil
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
