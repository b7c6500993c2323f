package tablebase

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/prefetch"
	"github.com/mancala-solver/mancala/position"
)

// DefaultCacheBytes bounds the decoded blocks a Prober keeps: 1 GiB, more
// than all of awari to 20 seeds (226 MB) decoded.
const DefaultCacheBytes = 1 << 30

// Prober answers value queries for one variant from a tablebase directory.
// It implements solver.Tablebase. It is safe for concurrent use: a probe
// of a layer loaded into memory (Load) is an index computation and one
// read, of a cached block an index computation and an atomic load; a miss
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
	s      *store
	ix     *Index
	layers []LayerInfo
	values *blockCache[int8] // decoded value blocks
	// resident[n][rank] is the value of layer n's positions, for the
	// layers Load read into memory (0..len-1); the others are cached.
	resident [][]int8
	unmap    []func()            // releases resident's memory
	dist     *blockCache[uint16] // decoded distance blocks
	err      atomic.Pointer[error]

	warnMu   sync.Mutex
	warnings []string
}

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
	if err := checkFormat(dir, v, infos); err != nil {
		s.close()
		return nil, err
	}
	return &Prober{s: s, ix: NewIndex(v.Pits), layers: infos,
		values: newBlockCache(infos, 1, DefaultCacheBytes, s.getBlock),
		dist:   newBlockCache(infos, 2, DefaultCacheBytes, s.getDistanceBlock),
	}, nil
}

// MaxSeeds returns the largest seed count whose positions are all stored,
// or -1 when none are.
func (pr *Prober) MaxSeeds() int { return len(pr.layers) - 1 }

// Layers returns the metadata of the layers the prober serves.
func (pr *Prober) Layers() []LayerInfo { return append([]LayerInfo(nil), pr.layers...) }

// Probe returns the value of p, a position of the prober's variant
// (rules.md section 6: score difference in seeds from the side to move,
// -S..S for S seeds on the board, whichever side is to move) and ok=true,
// or ok=false when p has more than MaxSeeds seeds or its block cannot be
// read (see Err).
func (pr *Prober) Probe(p position.Position) (int, bool) {
	n := p.Seeds()
	if n >= len(pr.layers) {
		return 0, false
	}
	r := pr.ix.Rank(p)
	if n < len(pr.resident) {
		return int(pr.resident[n][r]), true
	}
	blk, err := pr.values.get(n, int(r/BlockSize))
	if err != nil {
		pr.fail(err)
		return 0, false
	}
	return int(blk[r%BlockSize]), true
}

// Prefetch starts bringing p's value into the processor's caches, for a
// Probe of p soon after (a search looks up all of a node's children): a
// layer in memory (Load) or a block already cached. It reads nothing from
// disk and waits for nothing.
func (pr *Prober) Prefetch(p position.Position) {
	if v := pr.Locate(p); v != nil {
		prefetch.Line(unsafe.Pointer(v))
	}
}

// Locate returns the address of p's value when it is in memory: in a
// layer loaded (Load) or in a block already cached, else nil (p has more
// than MaxSeeds seeds, or its block is not cached). *Locate(p) is then
// Probe(p)'s value, for as long as the prober is open and not loaded
// again (an evicted block stays valid for whoever holds it). A search
// locates a node's children, prefetches their values, and reads them a
// little later: one rank a child, where Prefetch and Probe take two. It
// reads nothing from disk.
func (pr *Prober) Locate(p position.Position) *int8 {
	n := p.Seeds()
	if n >= len(pr.layers) {
		return nil
	}
	r := pr.ix.Rank(p)
	if n < len(pr.resident) {
		return &pr.resident[n][r]
	}
	if blk := pr.values.ifCached(n, int(r/BlockSize)); blk != nil {
		return &blk[r%BlockSize]
	}
	return nil
}

// ProbeDistance returns the value of p (as Probe) and its distance in
// plies (doc.go: the plies to the capture or game end that realises the
// value; 0 for value 0), or ok=false when p has more than MaxSeeds seeds
// or a block cannot be read (see Err). Distance blocks have their own
// cache, as large as the values' (SetCacheBytes sets both).
func (pr *Prober) ProbeDistance(p position.Position) (value, plies int, ok bool) {
	value, ok = pr.Probe(p)
	if !ok {
		return 0, 0, false
	}
	r := pr.ix.Rank(p)
	blk, err := pr.dist.get(p.Seeds(), int(r/BlockSize))
	if err != nil {
		pr.fail(err)
		return 0, 0, false
	}
	return value, int(blk[r%BlockSize]), true
}

// SetCacheBytes sets the most bytes of decoded blocks to keep, for the
// values and for the distances each (at least one block of each is always
// kept). Call it before probing.
func (pr *Prober) SetCacheBytes(limit int64) {
	pr.values.setLimit(limit)
	pr.dist.setLimit(limit)
}

// fail records a read error: the first for Err, each distinct one for
// Warnings.
func (pr *Prober) fail(err error) {
	pr.err.CompareAndSwap(nil, &err)
	msg := err.Error()
	pr.warnMu.Lock()
	defer pr.warnMu.Unlock()
	for _, w := range pr.warnings {
		if w == msg {
			return
		}
	}
	pr.warnings = append(pr.warnings, msg)
}

// Err returns the first error met while reading a block, if any: the
// reason a probe of a stored seed count returned ok=false.
func (pr *Prober) Err() error {
	if e := pr.err.Load(); e != nil {
		return *e
	}
	return nil
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
func (pr *Prober) Close() error {
	releaseAll(pr.unmap)
	pr.resident, pr.unmap = nil, nil
	return pr.s.close()
}
