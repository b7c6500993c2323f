package tablebase

import (
	"fmt"
	"sync/atomic"
)

// lowerValues gives the values of the finished layers below the one being
// built, which a capture leads to: held in memory, or read from the store
// through a bounded cache of decoded blocks when they do not fit beside
// the layer (diskLower).
type lowerValues interface {
	value(n int, rank uint64) int8
}

// memLower is every lower layer in memory, by seed count.
type memLower [][]int8

func (l memLower) value(n int, rank uint64) int8 { return l[n][rank] }

// tieredLower holds some lower layers in memory (mem[n] not nil) and
// reads the others from the store (planLower).
type tieredLower struct {
	mem  memLower
	disk *diskLower
}

func (l tieredLower) value(n int, rank uint64) int8 {
	if m := l.mem[n]; m != nil {
		return m[rank]
	}
	return l.disk.value(n, rank)
}

// minLowerCache is the smallest cache of lower-layer blocks a build uses:
// 1024 blocks, enough for the captures of a chunk of ranks to find their
// blocks again (children of neighbouring ranks are near each other).
var minLowerCache int64 = 1024 * BlockSize // a variable only for tests of small builds

// diskLower reads the lower layers from the store through a cache of
// decoded blocks of at most limit bytes. A block that cannot be read makes
// value return 0 and is recorded; the layer then fails (err).
type diskLower struct {
	cache *blockCache[int8]
	fail  atomic.Pointer[error]
}

func newDiskLower(s *store, infos []LayerInfo, limit int64) *diskLower {
	return &diskLower{cache: newBlockCache(infos, 1, limit, s.getBlock)}
}

func (l *diskLower) value(n int, rank uint64) int8 {
	blk, err := l.cache.get(n, int(rank/BlockSize))
	if err != nil {
		l.fail.CompareAndSwap(nil, &err)
		return 0
	}
	return blk[rank%BlockSize]
}

// err returns the first read error, if any.
func (l *diskLower) err() error {
	if e := l.fail.Load(); e != nil {
		return fmt.Errorf("reading a lower layer: %w", *e)
	}
	return nil
}
