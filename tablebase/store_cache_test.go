package tablebase

import (
	"sync"
	"testing"
)

// TestBlockCacheConcurrentEviction has goroutines read three one-block
// layers of 4 positions through a cache that holds one block, so blocks
// are evicted while others race to cache them: every get must return the
// block's own contents (a loser of the race once dereferenced a slot the
// winner's eviction had emptied).
func TestBlockCacheConcurrentEviction(t *testing.T) {
	const layers = 3
	infos := make([]LayerInfo, layers)
	for n := range infos {
		infos[n] = LayerInfo{Positions: 4, Blocks: 1}
	}
	read := func(n, b int, dst []int8) error {
		for i := range dst {
			dst[i] = int8(n + 1)
		}
		return nil
	}
	c := newBlockCache(infos, 1, 4, read)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100000 {
				n := (g + i) % layers
				blk, err := c.get(n, 0)
				if err != nil {
					t.Error(err)
					return
				}
				if len(blk) != 4 || blk[0] != int8(n+1) || blk[3] != int8(n+1) {
					t.Errorf("layer %d's block holds %v", n, blk)
					return
				}
			}
		})
	}
	wg.Wait()
}
