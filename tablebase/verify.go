package tablebase

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/dustin/go-humanize"

	"github.com/mancala-solver/mancala/internal/prefetch"
	"github.com/mancala-solver/mancala/position"
)

// maxReported is how many bad positions a layer check names.
const maxReported = 10

// LayerCheck is the outcome of re-checking one stored layer.
type LayerCheck struct {
	Seeds      int      `json:"seeds"`
	Positions  int64    `json:"positions"`
	ChecksumOK bool     `json:"checksum_ok"`
	Unreadable string   `json:"unreadable,omitempty"` // why the layer could not be read
	Rechecked  bool     `json:"rechecked"`            // its values were re-derived from their moves (false below VerifyOptions.From)
	Mismatches int64    `json:"mismatches"`           // positions whose value or distance disagrees with their moves
	Examples   []string `json:"examples,omitempty"`   // up to 10 of them, described
	Seconds    float64  `json:"seconds"`              // wall time of the layer's check
}

// OK reports whether the layer passed every check.
func (c LayerCheck) OK() bool { return c.ChecksumOK && c.Unreadable == "" && c.Mismatches == 0 }

// VerifyOptions configures Verify.
type VerifyOptions struct {
	Threads  int                                // 0: runtime.GOMAXPROCS(0)
	Progress func(layer int, done, total int64) // as in BuildOptions; total = 3 per position
	// From is the first layer whose values are re-derived from their
	// moves; the layers below it are read and their checksums checked
	// only (their values are what the layers above are checked against),
	// so that a long verify can be split in parts. 0: every layer.
	From int
	// To is the highest layer checked; 0: the top complete layer. A
	// machine with too little memory for the top layer (VerifyMemBytes)
	// can check the layers below it.
	To int
	// MemBytes is the memory verify may use; 0: MachineMemBytes (a test
	// sets it to see the check refuse).
	MemBytes int64
	// LayerDone, when not nil, is called with each layer's check as it
	// ends.
	LayerDone func(LayerCheck)
}

// ErrInconsistent is wrapped by Verify's error when a check failed.
var ErrInconsistent = errors.New("tablebase is inconsistent")

// Verify re-checks every stored layer of v in dir: its files against the
// sizes and checksums its build recorded, its values' and distances'
// checksums, and each position's value against its moves (rules.md 6):
// with no moves, value == TerminalValue; else value == max over moves of
// the moves' values (position.Move.Value), and each distance against the
// equations of doc.go; the layers below opts.From are read and their
// checksums checked, not re-derived. It returns one LayerCheck a layer, and an error
// wrapping ErrInconsistent that names the first failing layer and
// position when any check fails, or a *DamageError (ErrDamaged) for
// damaged files or metadata, which says how to repair them; the layers
// above a damaged one are not checked; or, before anything is read, a
// *MemoryError when the layers up to opts.To (VerifyMemBytes) need more
// memory than the machine has, or a *RangeError when opts.From or opts.To
// lies above the top complete layer or From above To. It runs none of
// the build's methods: each position is checked against its children's
// stored values and distances only. The equations hold for the true
// values but also for some wrong ones inside cycles; the tests compare
// the values themselves with independent references.
func Verify(ctx context.Context, dir string, v *position.Variant, opts VerifyOptions) ([]LayerCheck, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	s, err := openStore(dir, v, false)
	if err != nil {
		return nil, err
	}
	defer s.close()
	infos, damage := s.layers()
	if err := checkFormat(dir, v, infos); err != nil {
		return nil, err
	}
	opts.Threads = withDefaults(BuildOptions{Threads: opts.Threads}).Threads
	ix := NewIndex(v.Pits)
	layers := complete(infos)
	if err := checkVerifyRange(opts, len(layers)-1); err != nil {
		return nil, err
	}
	if opts.To > 0 && opts.To < len(layers) {
		layers = layers[:opts.To+1]
		if dmg := (*DamageError)(nil); errors.As(damage, &dmg) && dmg.Seeds > opts.To {
			damage = nil // a damaged layer above To is not this check's
		}
	}
	if err := checkVerifyMemory(ix, len(layers)-1, opts.MemBytes); err != nil {
		return nil, err
	}
	var checks []LayerCheck
	var first error
	var lower [][]int8
	for n, info := range layers {
		start := time.Now()
		check, values := verifyLayer(ctx, s, v, ix, info, lower, opts)
		if err := ctx.Err(); err != nil {
			return checks, err
		}
		check.Seconds = time.Since(start).Seconds()
		checks = append(checks, check)
		if opts.LayerDone != nil {
			opts.LayerDone(check)
		}
		if !check.OK() && first == nil {
			first = fmt.Errorf("%w: %s layer %d: %s", ErrInconsistent, v.Name, n, check.Failure())
			if !check.ChecksumOK || check.Unreadable != "" {
				// The stored bytes changed since the build: damage, which a repair fixes.
				first = &DamageError{Dir: dir, Variant: v.Name, Seeds: n, Top: s.topLayer(), Detail: check.Failure(), Cause: first}
			}
		}
		if check.Unreadable != "" {
			break // the layers above depend on this one's values: nothing to check them against
		}
		lower = append(lower, values)
	}
	var dmg *DamageError
	if errors.As(damage, &dmg) && len(checks) == len(layers) {
		// The metadata of layer dmg.Seeds is damaged: nothing above it is served.
		checks = append(checks, LayerCheck{Seeds: dmg.Seeds, Positions: ix.Size(dmg.Seeds), Unreadable: dmg.Detail})
	}
	if first == nil && damage != nil {
		first = damage
	}
	return checks, first
}

// RangeError is Verify's refusal of layers it cannot check: From or To
// above Top, the tablebase's top complete layer, or From above To, where
// a verify would check nothing it was asked to and still pass.
type RangeError struct {
	From, To int // as in VerifyOptions (To 0: the top)
	Top      int // the top complete layer; -1: none
}

func (e *RangeError) Error() string {
	switch {
	case e.To > 0 && e.From > e.To:
		return fmt.Sprintf("layers from %d up to %d: the first is above the last, nothing to re-derive", e.From, e.To)
	case e.To > e.Top:
		return fmt.Sprintf("layers up to %d: the tablebase's complete layers are 0..%d", e.To, e.Top)
	}
	return fmt.Sprintf("layers from %d up: the tablebase's complete layers are 0..%d, nothing to re-derive", e.From, e.Top)
}

// checkVerifyRange returns a *RangeError when opts asks for layers that
// top, the top complete layer, does not reach, or From lies above To.
func checkVerifyRange(opts VerifyOptions, top int) error {
	if top < 0 { // nothing built: Verify's caller reports the missing tablebase
		return nil
	}
	if opts.From > top || opts.To > top || opts.To > 0 && opts.From > opts.To {
		return &RangeError{From: opts.From, To: opts.To, Top: top}
	}
	return nil
}

// VerifyMemBytes is the memory, in bytes, that verifying layers 0..top
// needs at its peak, while it checks the top one: one byte a position for
// the values of every layer below, three for the top layer's values and
// distances (about 16.2 GiB for top 30 of a 12-pit game). The heap may
// grow beyond it up to the soft memory limit before the collector runs:
// kalah's layer 30 peaked at 18.1 GiB of anonymous memory.
func VerifyMemBytes(ix *Index, top int) int64 {
	need := 3 * ix.Size(top)
	for n := range top {
		need += ix.Size(n)
	}
	return need
}

// MemoryError is Verify's refusal to start a check that cannot fit in the
// machine's memory: layer Seeds needs Need bytes (VerifyMemBytes), Have
// are there, and layers 0..Fits fit (Fits -1: not even layer 0).
type MemoryError struct {
	Seeds      int
	Need, Have int64
	Fits       int
}

func (e *MemoryError) Error() string {
	fits := "not even layer 0 fits"
	if e.Fits >= 0 {
		fits = fmt.Sprintf("layers 0..%d fit", e.Fits)
	}
	return fmt.Sprintf("checking layer %d needs about %s of memory (the layers below it, one byte a position, and its values and distances, three), more than the %s there are; %s",
		e.Seeds, humanize.IBytes(uint64(e.Need)), humanize.IBytes(uint64(e.Have)), fits)
}

// checkVerifyMemory returns a *MemoryError when verifying layers 0..top
// needs more than have bytes (0: MachineMemBytes; unknown: no check), so
// that a verify too large for the machine fails at once rather than when
// the system runs out of memory hours later.
func checkVerifyMemory(ix *Index, top int, have int64) error {
	if have == 0 {
		have = MachineMemBytes()
	}
	if have <= 0 || top < 0 || VerifyMemBytes(ix, top) <= have {
		return nil
	}
	fits := top - 1
	for fits >= 0 && VerifyMemBytes(ix, fits) > have {
		fits--
	}
	return &MemoryError{Seeds: top, Need: VerifyMemBytes(ix, top), Have: have, Fits: fits}
}

// Failure sums up in one line why the check failed ("" when it passed).
func (c LayerCheck) Failure() string {
	switch {
	case c.OK():
		return ""
	case c.Unreadable != "":
		return c.Unreadable
	case c.Mismatches > 0:
		return fmt.Sprintf("%d positions disagree with their moves, first %s", c.Mismatches, c.Examples[0])
	}
	return "checksum mismatch"
}

// verifyLayer checks one layer; it returns the values it read (zero values
// when the layer is unreadable) for the layers above.
func verifyLayer(ctx context.Context, s *store, v *position.Variant, ix *Index, info LayerInfo, lower [][]int8, opts VerifyOptions) (LayerCheck, []int8) {
	check := LayerCheck{Seeds: info.Seeds, Positions: info.Positions, ChecksumOK: true}
	size := ix.Size(info.Seeds)
	if info.Positions != size || info.BlockSize != BlockSize {
		check.Unreadable = fmt.Sprintf("metadata says %d positions in blocks of %d, want %d in blocks of %d", info.Positions, info.BlockSize, size, BlockSize)
		return check, make([]int8, size)
	}
	values, err := s.loadLayer(info)
	var sumErr *ChecksumError
	var dmg *DamageError
	switch {
	case errors.As(err, &sumErr):
		check.ChecksumOK = false
	case errors.As(err, &dmg):
		check.Unreadable = dmg.Detail
		return check, make([]int8, size)
	case err != nil:
		check.Unreadable = err.Error()
		return check, make([]int8, size)
	}
	if info.Seeds < opts.From {
		return check, values
	}
	check.Rechecked = true
	ls := layerVerifier{&layerSolver{v: v, ix: ix, n: info.Seeds, size: size, threads: opts.Threads,
		prog: newProgress(info.Seeds, size, opts.Progress)}, memLower(lower)}
	own, err := loadOwn(s, info, values)
	if err != nil {
		check.Unreadable = err.Error()
	}
	var mu sync.Mutex
	_ = ls.forChunks(ctx, func(lo, hi int64) error {
		bad, examples := ls.checkRange(lo, hi, own)
		mu.Lock()
		defer mu.Unlock()
		check.Mismatches += bad
		for _, e := range examples {
			if len(check.Examples) < maxReported {
				check.Examples = append(check.Examples, e)
			}
		}
		ls.prog.add(3 * (hi - lo))
		return nil
	})
	return check, values
}

// ownLayer is the stored layer that verify checks, as it reads it: its
// values, and its distances either packed with the values (packed, the
// usual case) or apart (dist, when some value or distance does not fit
// the packing); no distances at all when they could not be read.
type ownLayer struct {
	values []int8
	packed []uint16 // values[r]<<packShift | the distance of r; nil: not packed
	dist   []uint16 // the distances when not packed; nil: packed, or unreadable
}

// withDist reports whether the layer's distances were read.
func (o ownLayer) withDist() bool { return o.packed != nil || o.dist != nil }

// distance returns the stored distance of rank r (withDist must hold).
func (o ownLayer) distance(r int64) int {
	if o.packed != nil {
		return int(o.packed[r] & packDistMax)
	}
	return int(o.dist[r])
}

// loadOwn reads the distances of the layer being checked, packed with its
// values where they fit (three bytes a position either way, with values).
// A distance checksum that fails is returned as the error with the
// distances read, which are checked all the same; a distance block that
// cannot be read leaves the layer's values checked without distances.
func loadOwn(s *store, info LayerInfo, values []int8) (ownLayer, error) {
	own := ownLayer{values: values}
	var err error
	if packVerify {
		if own.packed, err = s.loadPacked(info, values); own.packed != nil || err != nil {
			return own, err
		}
	}
	own.dist, err = s.loadDistances(info)
	return own, err
}

// packVerify is whether verify packs a layer's values and distances
// (loadPacked); tests turn it off to check the unpacked reads too.
var packVerify = true

// A packed entry holds a value in its top 7 bits (two's complement, -64
// to 63) and a distance in its low 9 (0 to 511): a child inside the layer
// is then one load, one cache miss, where the value and the distance apart
// were two. Awari's and kalah's layers to 30 hold values of at most 30
// and distances of at most 133 plies, so every layer built so far packs.
const (
	packShift    = 9
	packDistMax  = 1<<packShift - 1
	packValueMin = -1 << (15 - packShift)
	packValueMax = 1<<(15-packShift) - 1
)

// packBlock writes values[i]<<packShift | dist[i] to dst[i] for every i and
// reports whether every pair fitted (dst is unspecified when not).
func packBlock(dst []uint16, values []int8, dist []uint16) bool {
	fits := true
	for i, d := range dist {
		v := values[i]
		fits = fits && d <= packDistMax && v >= packValueMin && v <= packValueMax
		dst[i] = uint16(int16(v)<<packShift) | d&packDistMax
	}
	return fits
}

// unpackValue is the value of a packed entry.
func unpackValue(w uint16) int8 { return int8(int16(w) >> packShift) }

// layerVerifier re-derives a stored layer's values and distances from its
// moves, with the build's view of a layer (its variant, index and the
// values of the layers below, all in memory: below[n] for n < the
// layer's seeds) but none of its propagation.
type layerVerifier struct {
	*layerSolver
	below memLower
}

// verifyBatch is how many positions checkRange sows before it reads their
// children's values and distances. The reads are random over gigabytes,
// one cache miss each, and made one after another behind each position's
// sowing they kept the core waiting (perf on a kalah verify: 77% of its
// time in the two loads); a batch's reads do not depend on each other, so
// the memory system serves many of them at once.
const verifyBatch = 64

// childRead is one move of a batch: what the move adds to its child's
// value, and whether its child's distance counts.
type childRead struct {
	captured int8
	again    bool // the mover moves again (kalah)
	inLayer  bool // no seeds left the board: the child's distance counts
}

// verifyScratch is one worker's batch: its positions, their moves, the
// loads their children need, and the values and distances read for them.
// The loads are kept in two lists, the children inside the layer and
// those in a lower layer (a capture), so that each is read by a loop with
// no branch in it: a mispredicted branch between two loads would cancel
// the loads issued after it.
type verifyScratch struct {
	moves [verifyBatch * position.MaxPits]childRead
	count [verifyBatch]int // moves per position; 0: no moves
	end   [verifyBatch]int // a position without moves: its end-of-game value
	value [verifyBatch * position.MaxPits]int8
	dist  [verifyBatch * position.MaxPits]uint16

	inRank  [verifyBatch * position.MaxPits]uint64 // a child inside the layer: its rank
	inAt    [verifyBatch * position.MaxPits]uint16 // and its move's slot in moves
	nIn     int
	lowRank [verifyBatch * position.MaxPits]uint64 // a captured child: its rank
	lowAt   [verifyBatch * position.MaxPits]uint16 // its move's slot
	lowOf   [verifyBatch * position.MaxPits][]int8 // and its layer's values
	nLow    int

	ps    [verifyBatch]position.Position
	first int64                                       // the rank of ps[0]
	k     int                                         // positions in the batch; 0: none
	pf    [2 * verifyBatch * position.MaxPits]uintptr // the addresses of the children's entries, for prefetch.All
	nPf   int
}

// checkRange re-derives the value and, when the layer's distances were
// read, the distance of each position of ranks [lo, hi) from its moves
// and the stored values and distances (rules.md 6, the distance equations
// in doc.go), and returns how many values and distances disagree,
// describing the first few.
func (s layerVerifier) checkRange(lo, hi int64, own ownLayer) (int64, []string) {
	var bad int64
	var examples []string
	report := func(what string) {
		if bad++; len(examples) < maxReported {
			examples = append(examples, what)
		}
	}
	c := s.ix.newCursor(s.n, uint64(lo))
	sow := func(b *verifyScratch, first int64) {
		b.first, b.k = first, int(min(verifyBatch, hi-first))
		b.nIn, b.nLow, b.nPf = 0, 0, 0
		for i := range b.k {
			if first+int64(i) > lo {
				c.next()
			}
			b.ps[i] = c.position()
			s.sowBatch(b, i, b.ps[i], own)
		}
		prefetch.All(b.pf[:b.nPf])
	}
	cur, next := new(verifyScratch), new(verifyScratch)
	sow(cur, lo)
	for ; cur.k > 0; cur, next = next, cur {
		// The next batch is sown while the memory system fetches this
		// one's children, asked for by prefetches, which hold up nothing.
		next.k = 0
		if end := cur.first + int64(cur.k); end < hi {
			sow(next, end)
		}
		cur.read(own)
		for i := range cur.k {
			r := cur.first + int64(i)
			stored := int(own.values[r])
			value, d := cur.derive(i, stored, own.withDist())
			if value != stored {
				report(fmt.Sprintf("%s (rank %d): stored %d, its moves give %d", position.Format(s.v, cur.ps[i]), r, stored, value))
			}
			if own.withDist() && d != own.distance(r) {
				report(fmt.Sprintf("%s (rank %d): stored distance %d, its moves give %d", position.Format(s.v, cur.ps[i]), r, own.distance(r), d))
			}
		}
	}
	return bad, examples
}

// sowBatch records p's moves as entry i of the batch, each child's rank
// on the list of its layer, or p's end-of-game value when it has no
// moves.
func (s layerVerifier) sowBatch(b *verifyScratch, i int, p position.Position, own ownLayer) {
	var buf [position.MaxPits]position.Move
	nm := s.v.Moves(p, &buf)
	b.count[i] = nm
	if nm == 0 {
		b.end[i] = s.v.TerminalValue(p)
		return
	}
	for j, m := range buf[:nm] {
		at := i*position.MaxPits + j
		b.moves[at] = childRead{captured: m.Captured, again: m.MovesAgain(p), inLayer: m.Captured == 0}
		r := s.ix.Rank(m.Next)
		if m.Captured == 0 {
			b.inRank[b.nIn], b.inAt[b.nIn] = r, uint16(at)
			b.nIn++
			b.prefetchOwn(own, r)
			continue
		}
		low := s.below[s.n-int(m.Captured)]
		b.lowRank[b.nLow], b.lowAt[b.nLow], b.lowOf[b.nLow] = r, uint16(at), low
		b.nLow++
		b.pf[b.nPf] = uintptr(unsafe.Pointer(&low[r]))
		b.nPf++
	}
}

// prefetchOwn lists for prefetching the entry of rank r of the layer
// being checked: its packed word, or its value and distance.
func (b *verifyScratch) prefetchOwn(own ownLayer, r uint64) {
	switch {
	case own.packed != nil:
		b.pf[b.nPf] = uintptr(unsafe.Pointer(&own.packed[r]))
		b.nPf++
	case own.dist != nil:
		b.pf[b.nPf], b.pf[b.nPf+1] = uintptr(unsafe.Pointer(&own.values[r])), uintptr(unsafe.Pointer(&own.dist[r]))
		b.nPf += 2
	default:
		b.pf[b.nPf] = uintptr(unsafe.Pointer(&own.values[r]))
		b.nPf++
	}
}

// read loads the batch's children's values, and the distances of those
// inside the layer when the layer's were read: independent loads, one
// after another, so that their cache misses overlap; a child inside a
// packed layer is one load.
func (b *verifyScratch) read(own ownLayer) {
	switch {
	case own.packed != nil:
		for k, r := range b.inRank[:b.nIn] {
			w := own.packed[r]
			at := b.inAt[k]
			b.value[at], b.dist[at] = unpackValue(w), w&packDistMax
		}
	case own.dist != nil:
		for k, r := range b.inRank[:b.nIn] {
			at := b.inAt[k]
			b.value[at], b.dist[at] = own.values[r], own.dist[r]
		}
	default:
		for k, r := range b.inRank[:b.nIn] {
			b.value[b.inAt[k]] = own.values[r]
		}
	}
	for k, r := range b.lowRank[:b.nLow] {
		b.value[b.lowAt[k]] = b.lowOf[k][r]
	}
}

// derive returns the value that entry i's moves give and the distance
// they give to the stored value v: 0 for v == 0 or no moves; else the
// shortest (winner) or longest (loser) of the moves that keep v, a
// capture counting 1 and a move inside the layer 1 + its child's distance
// (withDist false: 1).
func (b *verifyScratch) derive(i, v int, withDist bool) (value, distance int) {
	if b.count[i] == 0 {
		return b.end[i], 0
	}
	value, distance = -1<<30, -1
	for j := range b.count[i] {
		at := i*position.MaxPits + j
		m := &b.moves[at]
		mv, d := position.SownValue(int(m.captured), m.again, int(b.value[at])), 1
		if withDist && m.inLayer {
			d = 1 + int(b.dist[at])
		}
		value = max(value, mv)
		if mv == v && (distance < 0 || (v > 0 && d < distance) || (v < 0 && d > distance)) {
			distance = d
		}
	}
	if v == 0 {
		distance = 0
	}
	return value, distance
}
