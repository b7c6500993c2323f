package tablebase

import (
	"context"
	"errors"
	"io/fs"
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
	// Mapped counts the layers served from their mapped files
	// (WriteMapped), not decoded; StaleMapped those whose mapped file was
	// there but stale, truncated, damaged or unreadable, and so decoded
	// instead.
	Mapped, StaleMapped int
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
// again; loaded once, the values cost their decoding one time.
//
// A layer with a valid mapped file (WriteMapped; Linux) is not decoded:
// its file is mapped read-only, shared with the page cache and every
// other prober of it, and only its checksum is computed (Kalah's six-pit
// tablebase to 20: 0.04 CPU-s instead of 0.67 decoding into fresh memory
// the kernel zeroes; to 30: 2.7 s wall on two threads instead of 21.6). A mapped file that is stale or damaged is ignored
// (counted in Loaded.StaleMapped) and the layer decoded: the values held
// are the store's either way. Layers above maxSeeds are read through the
// block cache as before; distances (ProbeDistance) always are.
//
// The memory, outside the Go heap, is Positions bytes (Kalah's six-pit tablebase to 26
// seeds: 2.7 GB), page cache for the mapped layers. Load returns ctx's error when cancelled, or the damage
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
	releases := make([]func(), top+1)
	loaded := Loaded{MaxSeeds: top}
	loaded.Mapped, loaded.StaleMapped = pr.mapLayers(ctx, layers, releases, threads)
	var infos []LayerInfo
	var dsts [][]int8
	for n := range layers {
		loaded.Positions += pr.layers[n].Positions
		if layers[n] == nil {
			layers[n], releases[n] = hugepage.Map[int8](int(pr.layers[n].Positions))
			infos, dsts = append(infos, pr.layers[n]), append(dsts, layers[n])
		}
	}
	if err := decodeLayers(ctx, pr.s, infos, dsts, threads); err != nil {
		releaseAll(releases)
		return Loaded{MaxSeeds: -1}, err
	}
	releaseAll(pr.unmap)
	pr.resident, pr.unmap = layers, releases
	return loaded, nil
}

// mapLayers maps the valid mapped files of layers 0..len(layers)-1 into
// layers (their releases into releases), threads layers at a time, and
// returns how many it mapped and how many files it found stale, damaged
// or unreadable. A layer left nil is to be decoded.
func (pr *Prober) mapLayers(ctx context.Context, layers [][]int8, releases []func(), threads int) (mapped, stale int) {
	var nMapped, nStale atomic.Int64
	var g errgroup.Group
	g.SetLimit(threads)
	for n := len(layers) - 1; n >= 0; n-- {
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			info := pr.layers[n]
			values, release, err := openMapped(pr.s.vdir, info)
			if err == nil {
				if err = checkMapped(pr.s.vdir, info, values); err != nil {
					release()
				}
			}
			switch {
			case err == nil:
				layers[n], releases[n] = values, release
				nMapped.Add(1)
			case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNoMapping):
				nStale.Add(1) // stale, damaged, or unreadable
			}
			return nil
		})
	}
	_ = g.Wait()
	return int(nMapped.Load()), int(nStale.Load())
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

// releaseAll runs each of fs (nil ones skipped).
func releaseAll(fs []func()) {
	for _, f := range fs {
		if f != nil {
			f()
		}
	}
}

// decodeLayers fills dsts[i] with the values of the layer infos[i],
// decoded from s's blocks, the blocks of every layer shared among threads
// goroutines, then checks each layer's checksum, threads layers at a
// time (threads >= 1).
func decodeLayers(ctx context.Context, s *store, infos []LayerInfo, dsts [][]int8, threads int) error {
	type job struct{ layer, block int }
	var jobs []job
	for i := len(infos) - 1; i >= 0; i-- { // the largest layers first: the threads end together
		for b := 0; b < infos[i].Blocks; b++ {
			jobs = append(jobs, job{i, b})
		}
	}
	var next atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for range threads {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				j := jobs[i]
				info := infos[j.layer]
				lo := int64(j.block) * BlockSize
				dst := dsts[j.layer][lo : lo+blockLen(info, j.block)]
				if err := s.getBlock(info.Seeds, j.block, dst); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// The lowest damaged layer is the error, whichever thread finds it.
	errs := make([]error, len(infos))
	var check errgroup.Group
	check.SetLimit(threads)
	for i, info := range infos {
		check.Go(func() error {
			errs[i] = s.checkValues(info, dsts[i])
			return nil
		})
	}
	_ = check.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
