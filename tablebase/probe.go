package tablebase

import (
	"sync"
	"sync/atomic"

	"github.com/mancala-solver/mancala/position"
)

// DefaultCacheBytes bounds the decoded blocks a Prober keeps: 1 GiB, more
// than all of awari to 20 seeds (226 MB) decoded.
const DefaultCacheBytes = 1 << 30

// Prober answers value queries for one variant from a tablebase directory.
// It implements solver.Tablebase. It is safe for concurrent use: a probe
// of a cached block is an index computation and an atomic load; a miss
// reads and decodes one block (64 KiB of values) from Badger, and
// concurrent misses of the same block may both decode it, harmlessly.
//
// A Prober reads complete layers only, each its own Badger database
// opened read-only on first use: any number of probers, verify and stats
// run side by side and while a build adds layers above (which a prober
// opened earlier does not see).
//
// A layer whose files no longer match their recorded checksums, or a block
// that fails to decode, makes the probes that need it return ok=false;
// Err returns the first such error and Warnings every distinct one, for
// callers to report (a search goes on without those positions).
type Prober struct {
	s        *store
	v        *position.Variant
	ix       *Index
	maxSeeds int
	layers   []proberLayer

	mu     sync.Mutex
	fifo   []blockRef // cached blocks, oldest first, for eviction
	cached int64      // bytes of cached blocks
	limit  int64
	err    atomic.Pointer[error]

	warnMu   sync.Mutex
	warnings []string
	dist     *blockCache[uint16] // decoded distance blocks (distance.go)
}

// proberLayer is one layer's metadata and its cache slots, one a block.
type proberLayer struct {
	info   LayerInfo
	blocks []atomic.Pointer[[]int8]
}

type blockRef struct{ layer, block int }

// OpenProber opens the tablebase at dir for v's positions. It serves the
// layers 0..MaxSeeds() that are complete there (MaxSeeds is -1 when there
// are none). Errors: ErrNoTablebase (wrapped) when dir is missing or
// empty; a *DamageError (wrapping ErrDamaged) when the metadata of a
// stored layer is inconsistent, a file is missing or resized, or a layer
// is missing below stored ones; an error for a directory that is not a
// tablebase of this format.
func OpenProber(dir string, v *position.Variant) (*Prober, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	s, infos, err := openReading(dir, v)
	if err != nil {
		return nil, err
	}
	pr := &Prober{s: s, v: v, ix: NewIndex(v.Pits), limit: DefaultCacheBytes}
	if err := checkFormat(dir, v, infos); err != nil {
		s.close()
		return nil, err
	}
	for _, info := range infos {
		pr.layers = append(pr.layers, proberLayer{info: info, blocks: make([]atomic.Pointer[[]int8], info.Blocks)})
	}
	pr.maxSeeds = len(pr.layers) - 1
	pr.dist = newDistanceCache(pr.layers, DefaultCacheBytes)
	return pr, nil
}

// MaxSeeds returns the largest seed count whose positions are all stored,
// or -1 when none are.
func (pr *Prober) MaxSeeds() int { return pr.maxSeeds }

// Layers returns the metadata of the layers the prober serves.
func (pr *Prober) Layers() []LayerInfo {
	infos := make([]LayerInfo, len(pr.layers))
	for i := range pr.layers {
		infos[i] = pr.layers[i].info
	}
	return infos
}

// Probe returns the value of p, a position of the prober's variant
// (rules.md section 6: score difference in seeds from the side to move,
// -S..S for S seeds on the board, whichever side is to move) and ok=true,
// or ok=false when p has more than MaxSeeds seeds or its block cannot be
// read (see Err).
func (pr *Prober) Probe(p position.Position) (int, bool) {
	n := p.Seeds()
	if n > pr.maxSeeds {
		return 0, false
	}
	r := pr.ix.Rank(p)
	b := int(r / BlockSize)
	l := &pr.layers[n]
	blk := l.blocks[b].Load()
	if blk == nil {
		if blk = pr.load(n, b); blk == nil {
			return 0, false
		}
	}
	return int((*blk)[r%BlockSize]), true
}

// load reads block b of layer n into the cache and returns it, or nil
// after recording the error.
func (pr *Prober) load(n, b int) *[]int8 {
	info := pr.layers[n].info
	blk := make([]int8, min(int64(b+1)*BlockSize, info.Positions)-int64(b)*BlockSize)
	if err := pr.s.getBlock(pr.v, n, b, blk); err != nil {
		pr.err.CompareAndSwap(nil, &err)
		pr.warn(err.Error())
		return nil
	}
	slot := &pr.layers[n].blocks[b]
	if !slot.CompareAndSwap(nil, &blk) {
		return slot.Load() // another probe loaded it first
	}
	pr.account(blockRef{n, b}, int64(len(blk)))
	return &blk
}

// account records a newly cached block and evicts the oldest ones while
// the cache is over its limit. Evicted blocks stay valid for probes that
// already hold them.
func (pr *Prober) account(ref blockRef, bytes int64) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.fifo = append(pr.fifo, ref)
	pr.cached += bytes
	for pr.cached > pr.limit && len(pr.fifo) > 1 {
		old := pr.fifo[0]
		pr.fifo = pr.fifo[1:]
		if blk := pr.layers[old.layer].blocks[old.block].Swap(nil); blk != nil {
			pr.cached -= int64(len(*blk))
		}
	}
}

// SetCacheBytes sets the most bytes of decoded blocks to keep (at least
// one block is always kept). Call it before probing.
func (pr *Prober) SetCacheBytes(limit int64) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.limit = limit
	pr.dist.setLimit(limit)
}

// Err returns the first error met while reading a block, if any: the
// reason a probe of a stored seed count returned ok=false.
func (pr *Prober) Err() error {
	if e := pr.err.Load(); e != nil {
		return *e
	}
	return nil
}

// warn records a distinct warning.
func (pr *Prober) warn(msg string) {
	pr.warnMu.Lock()
	defer pr.warnMu.Unlock()
	for _, w := range pr.warnings {
		if w == msg {
			return
		}
	}
	pr.warnings = append(pr.warnings, msg)
}

// Warnings returns each distinct error met while reading blocks, one line
// each, in the order met: a damaged layer (its files changed since the
// build) or a block that fails its zstd checksum. Probes of the positions
// concerned returned ok=false; nil when every read succeeded.
func (pr *Prober) Warnings() []string {
	pr.warnMu.Lock()
	defer pr.warnMu.Unlock()
	return append([]string(nil), pr.warnings...)
}

// Close releases the layers' databases. Probes after Close are not
// allowed.
func (pr *Prober) Close() error { return pr.s.close() }
