package tablebase

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// Loaded is what Prober.Load put in memory: layers 0..MaxSeeds, one byte
// a position.
type Loaded struct {
	MaxSeeds  int   // the highest layer held in memory; -1: none
	Positions int64 // positions held, in all those layers
}

// Bytes returns the memory the loaded values take: one byte a position.
func (l Loaded) Bytes() int64 { return l.Positions }

// Load reads the values of layers 0..maxSeeds into memory (every stored
// layer when maxSeeds is negative or beyond MaxSeeds), one byte a
// position in an array by rank, on threads goroutines (0: all cores), and
// checks each layer against the checksum its build recorded. A probe of a
// loaded layer is then a rank and one memory read: no block cache, no
// Badger read, no decoding. A search reaches positions all over the top
// layers (a kalah search touched most of layer 26's 13,000 blocks), so a
// cache smaller than the tablebase decodes the same blocks again and
// again; loaded once, the values cost their decoding one time. Layers
// above maxSeeds are read through the block cache as before; distances
// (ProbeDistance) always are.
//
// The memory, outside the Go heap, is Positions bytes (Kalah's six-pit tablebase to 26
// seeds: 2.7 GB). Load returns ctx's error when cancelled, or the damage
// found (a *DamageError: a block that cannot be read, a layer whose values
// fail their checksum); either way the prober is left as it was. It must
// not run while the prober is probed; a second Load replaces the first.
// Close releases the memory.
func (pr *Prober) Load(ctx context.Context, maxSeeds, threads int) (Loaded, error) {
	top := pr.MaxSeeds()
	if maxSeeds >= 0 && maxSeeds < top {
		top = maxSeeds
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	layers := make([][]int8, top+1)
	var releases []func()
	loaded := Loaded{MaxSeeds: top}
	for n := range layers {
		var release func()
		layers[n], release = hugepage.Map[int8](int(pr.layers[n].Positions))
		releases = append(releases, release)
		loaded.Positions += pr.layers[n].Positions
	}
	if err := pr.readLayers(ctx, layers, threads); err != nil {
		releaseAll(releases)
		return Loaded{MaxSeeds: -1}, err
	}
	releaseAll(pr.unmap)
	pr.resident, pr.unmap = layers, releases
	return loaded, nil
}

// SeedsWithin returns the highest layer n such that layers 0..n, loaded
// (Load), take at most bytes bytes (one byte a position), or -1 when not
// even layer 0 fits or nothing is stored.
func (pr *Prober) SeedsWithin(bytes int64) int {
	var total int64
	for n := 0; n <= pr.MaxSeeds(); n++ {
		total += pr.layers[n].Positions
		if total > bytes {
			return n - 1
		}
	}
	return pr.MaxSeeds()
}

// releaseAll runs each of fs.
func releaseAll(fs []func()) {
	for _, f := range fs {
		f()
	}
}

// readLayers fills layers[n] with layer n's values, the blocks of every
// layer shared among threads goroutines, then checks each layer's
// checksum.
func (pr *Prober) readLayers(ctx context.Context, layers [][]int8, threads int) error {
	type job struct{ layer, block int }
	var jobs []job
	for n := len(layers) - 1; n >= 0; n-- { // the largest layers first: the threads end together
		for b := 0; b < pr.layers[n].Blocks; b++ {
			jobs = append(jobs, job{n, b})
		}
	}
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range threads {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				j := jobs[i]
				info := pr.layers[j.layer]
				lo := int64(j.block) * BlockSize
				dst := layers[j.layer][lo : lo+blockLen(info, j.block)]
				if err := pr.s.getBlock(j.layer, j.block, dst); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for n, values := range layers {
		if err := pr.s.checkValues(pr.layers[n], values); err != nil {
			return err
		}
	}
	return nil
}
