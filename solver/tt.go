package solver

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/internal/prefetch"
)

// table is the transposition table shared by every search thread. Its
// words are on huge pages and, on Linux, outside the Go heap (allocWords).
//
// The table grows: it starts with at most firstTableMiB in use and doubles
// each time a quarter of its entries are filled, up to the size asked for (grow).
// The memory beyond the part in use is reserved but never touched, so a
// search pays (in page faults and the kernel's zeroing) only for the table
// it fills: Kalah(6,3) proves in 2 M nodes in a table grown to 64 MiB; a
// 256 MiB table zeroed up front cost it 0.24-0.62 s of system time beside
// 0.55 s of search (docs/performance.md).
//
// An entry is two uint64 words, four entries to a 64-byte bucket. The
// bucket is picked by the low bits of the board hash, so that a node's two
// entries (board and line, see keyFor) share one cache line; the entry is
// verified by its whole 64-bit key:
//
//	word 0: key XOR word 1            (Hyatt and Mann's lockless hashing)
//	word 1: the data, packed:
//	  bits  0- 7  lo        lower bound on the value, int8 (noLower: none)
//	  bits  8-15  hi        upper bound on the value, int8 (noUpper: none)
//	  bit  16     loProven  lo is proven (holds for the game's value)
//	  bit  17     hiProven  hi is proven
//	  bits 18-21  move      best move known: pit+1 (1 = pass), 0 = none
//	  bits 22-37  draft     remaining depth the estimates were searched to
//	  bits 38-45  gen       search generation that last wrote the entry
//	  bit  46     loLine    the proven lo rests on a repetition of the line
//	  bit  47     hiLine    the proven hi rests on a repetition of the line
//	  bits 48-61  high      board hash bits from bit firstBits up: the
//	                        bucket the entry moves to when the table grows
//	  bit  62     line      the key includes the line
//	  bit  63     always 1, so that a used entry is never all zero
//
// Each word is read and written with sync/atomic, so concurrent use is not
// a data race; a torn entry (word 0 of one write, word 1 of another) fails
// the XOR check and reads as a miss. A false hit needs two different nodes
// with one 64-bit key: at 10^10 probes against a full table, a chance of
// about 10^-9.
//
// A filter in front of the buckets has a bit set for every key stored
// since the table was last cleared (filterBit: the key's top bits, which
// pick no bucket): a probe of a key whose bit is clear misses without
// reading the bucket. That read is the probe's cache miss, and most
// probes of a proof are of keys never stored: the first child searched of
// a node is probed soon after its bucket is prefetched, too soon for the
// line to arrive (Kalah(6,3), one thread, 64 MiB table: 90 ns such a
// probe, 35 ns a later sibling's, of which 30 ns is the timing; three
// quarters of them missed). The filter, 2 MiB, stays in the caches, and is
// prefetched with the bucket. It only ever gains bits, so once half of
// them are set it is turned off until the table is cleared: past that, it
// would cost more than it saves.
//
// Proven bounds hold at any depth, so they survive deeper searches; the
// unproven bounds are estimates, good for drafts up to draft. Keeping both
// bounds in one entry is what MTD(f) needs: its probes alternate between
// lower and upper bounds (Plaat et al. 1996).
type table struct {
	words     []uint64      // room for the largest size; only mask's part is used
	mask      atomic.Uint64 // bucket index mask of the part in use
	maxMask   uint64        // bucket index mask of the largest size
	firstBits int           // log2 of the first size in buckets: where high starts
	filled    atomic.Int64  // entries written into empty slots (workers add theirs)
	growing   atomic.Bool   // a grow is under way
	gen       uint8         // current generation; written only between searches

	filter      []uint64     // a bit for every key stored (filterBit)
	filterShift uint         // 64 - log2 of the filter's bits
	filterSet   atomic.Int64 // filter bits set (workers add theirs)
	// filterOn: the filter is used, as it is from the start: until half
	// its bits are set, or until a search in a variant other than kalah
	// or on more than one thread (stopFilter). Only kalah's nodes
	// prefetch their children's buckets, the filter's words with them;
	// elsewhere a filter word would be a cache miss of its own (the oware
	// endgames of BenchmarkSuite1Thread took 8% longer with it). With two
	// threads each sets bits in words the other reads, so those words
	// pass from one core's cache to the other's rather than stay in
	// either: Kalah(6,4) with the 20-seed database, two threads, 0.51 µs
	// of CPU a node with the filter, 0.45 without (one thread: 0.40),
	// 6 interleaved rounds each.
	filterOn atomic.Bool
}

const (
	entriesPerBucket = 4
	wordsPerBucket   = 2 * entriesPerBucket
	noLower          = -128 // lo of an entry without a lower bound
	noUpper          = 127  // hi of an entry without an upper bound
	loShift          = 0
	hiShift          = 8
	loProvenBit      = 1 << 16
	hiProvenBit      = 1 << 17
	moveShift        = 18
	moveMask         = 0xf << moveShift
	draftShift       = 22
	draftMask        = maxDraft << draftShift
	genShift         = 38
	genMask          = 0xff << genShift
	loLineBit        = 1 << 46
	hiLineBit        = 1 << 47
	lineBit          = 1 << 62
	usedBit          = 1 << 63
	maxDraft         = 1<<16 - 1
	highShift        = 48
	highBits         = 14
	// maxFilterBits is the filter's size, 2 MiB: larger than Kalah(6,3)'s
	// proof needs, small enough to stay in the caches. One thread,
	// Kalah(6,3) with no database, 2^22..2^24 bits were best (125 ns a
	// node, 2^20 bits 140, 2^26 145); Kalah(6,4) with the 20-seed
	// database, 2^24..2^26 (3.45-3.6 CPU-s, 2^22 3.7-3.8).
	maxFilterBits = 1 << 24
	// firstTableMiB is the most a table starts with: the least a search
	// given a time gets (oracle.HashMiBFor), and what the signature's
	// searches use, so they never grow.
	firstTableMiB = 16
)

// entry is a table entry unpacked.
type entry struct {
	lo, hi             int
	loProven, hiProven bool
	loLine, hiLine     bool
	move               int // pit+1, 0 none
	draft              int
	gen                uint8
	line               bool
}

// newTable reserves the largest power-of-two number of buckets that fits
// in mib MiB (at least one bucket), and starts with at most firstTableMiB
// of them in use. It grows by doubling, so at most 2^highBits times its
// first size.
func newTable(mib int) *table {
	most := powerOfTwoBuckets(mib)
	first := min(most, powerOfTwoBuckets(firstTableMiB))
	most = min(most, first<<highBits)
	t := &table{maxMask: most - 1, firstBits: bits.TrailingZeros64(first)}
	t.words = allocWords(t, int(most*wordsPerBucket))
	filterBits := min(maxFilterBits, most*wordsPerBucket*64/8) // at most an eighth of the table
	t.filter = allocWords(t, int(filterBits/64))
	t.filterShift = uint(bits.LeadingZeros64(filterBits)) + 1
	t.filterOn.Store(true)
	t.mask.Store(first - 1)
	prefault(t.words[:first*wordsPerBucket])
	return t
}

// powerOfTwoBuckets is the largest power-of-two number of buckets that
// fits in mib MiB, at least one.
func powerOfTwoBuckets(mib int) uint64 {
	buckets := uint64(mib) << 20 / (8 * wordsPerBucket)
	if buckets == 0 {
		return 1
	}
	return 1 << (63 - bits.LeadingZeros64(buckets))
}

// heapWords allocates table words on the Go heap, advised to use huge
// pages: a probe is a random access, so spare it the TLB miss.
func heapWords(n int) []uint64 {
	words := make([]uint64, n)
	hugepage.Advise(words)
	return words
}

// inUse is the words of the part of the table in use.
func (t *table) inUse() []uint64 { return t.words[:(t.mask.Load()+1)*wordsPerBucket] }

// clear empties the table, keeping its size. Not safe during a search.
func (t *table) clear() {
	clear(t.inUse())
	t.filled.Store(0)
	clear(t.filter)
	t.filterSet.Store(0)
	t.filterOn.Store(true)
}

// filterBit is key's word and bit in the filter: its top bits, which
// pick no bucket (the bucket index is its low bits).
func (t *table) filterBit(key uint64) (int, uint64) {
	b := key >> t.filterShift
	return int(b >> 6), 1 << (b & 63)
}

// mayHold reports whether key may have an entry: false only when it was
// never stored since the table was cleared, or when the filter is off.
func (t *table) mayHold(key uint64) bool {
	if !t.filterOn.Load() {
		return true
	}
	w, bit := t.filterBit(key)
	return atomic.LoadUint64(&t.filter[w])&bit != 0
}

// stopFilter turns the filter off until the table is cleared.
func (t *table) stopFilter() { t.filterOn.Store(false) }

// remember sets key's bit in the filter, if it is on, and reports whether
// it was clear.
func (t *table) remember(key uint64) bool {
	if !t.filterOn.Load() {
		return false
	}
	w, bit := t.filterBit(key)
	if atomic.LoadUint64(&t.filter[w])&bit != 0 {
		return false
	}
	atomic.OrUint64(&t.filter[w], bit)
	return true
}

// addFilterSet counts n more filter bits set, and turns the filter off
// once half of them are: it then passes half the keys never stored, and
// costs a lookup and a prefetch a node.
func (t *table) addFilterSet(n uint64) {
	if n != 0 && t.filterSet.Add(int64(n)) >= int64(len(t.filter))*64/2 {
		t.filterOn.Store(false)
	}
}

// addFilled counts n more entries written into empty slots, and grows the
// table once a quarter of its entries are filled. Safe during a search: the
// thread that calls it does the growing while the others go on.
func (t *table) addFilled(n uint64) {
	if n == 0 {
		return
	}
	if t.filled.Add(int64(n)) >= t.quarter() {
		t.grow()
	}
}

// quarter is a quarter of the entries of the part in use: the fill at
// which it grows. Beyond it, more buckets fill up and lose entries:
// Kalah(6,3), growing from 16 MiB at a quarter full, took the 1.96 M nodes
// of a fixed 64 MiB table to its proof, at half full 2.75 M.
func (t *table) quarter() int64 { return int64(t.mask.Load()+1) * entriesPerBucket / 4 }

// grow doubles the part of the table in use, unless it is at its largest
// or another thread is growing it. Bucket b splits into b and b+n (n the
// buckets before): the entries whose board hash has bit log2(n) set, which
// their high bits tell, move to b+n. Threads go on probing and storing
// meanwhile, which is safe as every access is: a probe of a moved entry
// in its old bucket misses, an entry stored by a thread that read the old
// mask sits in a bucket where no probe finds it until it is replaced, and
// a move that races with a store loses one of the two entries. A miss is
// never a wrong value. The new half's pages are touched first (prefault),
// so that the faults come in one run rather than one per probe.
func (t *table) grow() {
	if !t.growing.CompareAndSwap(false, true) {
		return
	}
	defer t.growing.Store(false)
	old := t.mask.Load()
	n := old + 1
	if n > t.maxMask || t.filled.Load() < t.quarter() {
		return
	}
	prefault(t.words[n*wordsPerBucket : 2*n*wordsPerBucket])
	t.mask.Store(2*n - 1)
	bit := uint(bits.TrailingZeros64(n) - t.firstBits) // n's bit in high
	for b := uint64(0); b < n; b++ {
		t.split(int(b)*wordsPerBucket, int(n)*wordsPerBucket, bit)
	}
}

// split moves the entries of the bucket at word i whose high bit bit is
// set to the bucket at word i+offset, while there is an empty slot there.
func (t *table) split(i, offset int, bit uint) {
	for j := i; j < i+wordsPerBucket; j += 2 {
		data := atomic.LoadUint64(&t.words[j+1])
		if data == 0 || data>>highShift>>bit&1 == 0 {
			continue
		}
		key := atomic.LoadUint64(&t.words[j]) ^ data
		if k := t.emptySlot(i + offset); k >= 0 {
			t.writeData(k, key, data)
		}
		atomic.CompareAndSwapUint64(&t.words[j+1], data, 0) // unless a store came first
	}
}

// emptySlot is the word index of an empty slot of the bucket at word i,
// or -1.
func (t *table) emptySlot(i int) int {
	for j := i; j < i+wordsPerBucket; j += 2 {
		if atomic.LoadUint64(&t.words[j+1]) == 0 {
			return j
		}
	}
	return -1
}

func flagBit(b bool, bit uint64) uint64 {
	if b {
		return bit
	}
	return 0
}

func (e entry) pack() uint64 {
	d := bound8(e.lo)<<loShift | bound8(e.hi)<<hiShift
	d |= flagBit(e.loProven, loProvenBit) | flagBit(e.hiProven, hiProvenBit)
	d |= flagBit(e.loLine, loLineBit) | flagBit(e.hiLine, hiLineBit) | flagBit(e.line, lineBit)
	return d | uint64(e.move)<<moveShift | uint64(e.draft)<<draftShift | uint64(e.gen)<<genShift | usedBit
}

// bound8 is a bound as the 8 bits of its field.
func bound8(v int) uint64 { return uint64(uint8(int8(v))) }

func unpack(d uint64) entry {
	return entry{
		lo: int(int8(d >> loShift)), hi: int(int8(d >> hiShift)),
		loProven: d&loProvenBit != 0, hiProven: d&hiProvenBit != 0,
		loLine: d&loLineBit != 0, hiLine: d&hiLineBit != 0, line: d&lineBit != 0,
		move: int(d & moveMask >> moveShift), draft: int(d & draftMask >> draftShift), gen: uint8(d >> genShift),
	}
}

// bucket returns the index of the first word of a board hash's bucket.
func (t *table) bucket(board uint64) int { return int(board&t.mask.Load()) * wordsPerBucket }

// high is the high field of the entries of a board hash.
func (t *table) high(board uint64) uint64 {
	return board >> t.firstBits & (1<<highBits - 1) << highShift
}

// prefetch starts bringing board's bucket (one cache line), and its bit
// of the filter, into the caches, so that a probe soon after finds them
// there: a bucket of a large table is otherwise a cache miss, the most
// time a node spends.
func (t *table) prefetch(board uint64) {
	prefetch.Line(unsafe.Pointer(&t.words[t.bucket(board)]))
	if t.filterOn.Load() {
		w, _ := t.filterBit(board)
		prefetch.Line(unsafe.Pointer(&t.filter[w]))
	}
}

// probe returns the entry stored for key in board's bucket, if any.
func (t *table) probe(board, key uint64) (entry, bool) {
	if !t.mayHold(key) {
		return entry{}, false
	}
	b := t.bucket(board)
	for i := b; i < b+wordsPerBucket; i += 2 {
		data := atomic.LoadUint64(&t.words[i+1])
		if data != 0 && atomic.LoadUint64(&t.words[i])^data == key {
			return unpack(data), true
		}
	}
	return entry{}, false
}

// result is what a search of one node found, to be merged into an entry.
type result struct {
	score  int
	lower  bool // score is a lower bound (it failed high or is exact)
	upper  bool // score is an upper bound (it failed low or is exact)
	proven bool
	onLine bool // the proven score rests on a repetition of the line
	draft  int
	move   int  // pit+1, 0 none
	line   bool // the key includes the line
}

// store merges r into key's entry in board's bucket, or writes a new entry
// over the least valuable one there. It reports whether it filled an
// empty slot, and whether it set key's bit in the filter.
func (t *table) store(board, key uint64, r result) (filled, newBit bool) {
	b, high := t.bucket(board), t.high(board)
	for i := b; i < b+wordsPerBucket; i += 2 {
		data := atomic.LoadUint64(&t.words[i+1])
		if data != 0 && atomic.LoadUint64(&t.words[i])^data == key {
			if e := merge(data, &r, t.gen); e != data {
				t.writeData(i, key, e)
			}
			return false, false
		}
	}
	victim, worst := b, int(^uint(0)>>1)
	for i := b; i < b+wordsPerBucket; i += 2 {
		if v := t.worth(atomic.LoadUint64(&t.words[i+1])); v < worst {
			victim, worst = i, v
		}
	}
	fresh := bound8(noLower)<<loShift | bound8(noUpper)<<hiShift | uint64(min(r.draft, maxDraft))<<draftShift |
		flagBit(r.line, lineBit) | high | usedBit
	t.writeData(victim, key, merge(fresh, &r, t.gen))
	return worst == emptyWorth, t.remember(key)
}

// worth ranks packed entries for replacement: empty first, then old
// generations, shallow drafts, and entries without proven bounds. Line
// entries serve one line only, so they rank below a board's own entry.
func (t *table) worth(data uint64) int {
	if data == 0 {
		return emptyWorth
	}
	w := int(data&draftMask>>draftShift) - 16*int(t.gen-uint8(data>>genShift))
	if data&lineBit == 0 && data&(loProvenBit|hiProvenBit) != 0 {
		w += 1 << 10
	}
	return w
}

// emptyWorth is worth's rank of an empty slot.
const emptyWorth = -1 << 20

// writeData writes an entry's packed data and key into the slot at word i.
func (t *table) writeData(i int, key, data uint64) {
	atomic.StoreUint64(&t.words[i], key^data)
	atomic.StoreUint64(&t.words[i+1], data)
}

// merge adds r to the packed entry d (its fields as tt.go's table doc
// lays them out, changed in place; mergeEntry in tt_test.go states the
// same rules on an unpacked entry). Proven bounds are kept and only ever
// tightened. An estimate from a deeper draft replaces the estimates of a
// shallower one; one from a shallower draft is dropped.
func merge(d uint64, r *result, gen uint8) uint64 {
	d = d&^genMask | uint64(gen)<<genShift
	if r.move != 0 {
		d = d&^moveMask | uint64(r.move)<<moveShift
	}
	if !r.proven {
		draft := int(d & draftMask >> draftShift)
		switch {
		case r.draft < draft:
			return d
		case r.draft > draft:
			if d&loProvenBit == 0 {
				d = d&^(0xff<<loShift) | bound8(noLower)<<loShift
			}
			if d&hiProvenBit == 0 {
				d = d&^(0xff<<hiShift) | bound8(noUpper)<<hiShift
			}
			d = d&^draftMask | uint64(min(r.draft, maxDraft))<<draftShift
		}
	}
	if r.lower {
		d = tighten(d, r, loShift, loProvenBit, loLineBit, r.score > int(int8(d>>loShift)))
	}
	if r.upper {
		d = tighten(d, r, hiShift, hiProvenBit, hiLineBit, r.score < int(int8(d>>hiShift)))
	}
	return d
}

// tighten returns d with the bound at shift (with its proven and line
// bits) that is to be kept: a proven bound beats an estimate, a tighter
// proven bound (or an equal one resting on less) beats a looser one, and a
// new estimate replaces an old one.
func tighten(d uint64, r *result, shift uint, provenBit, lineBit uint64, tighter bool) uint64 {
	oldProven := d&provenBit != 0
	switch {
	case r.proven && (!oldProven || tighter || r.score == int(int8(d>>shift)) && d&lineBit != 0 && !r.onLine):
		return d&^(0xff<<shift|lineBit) | bound8(r.score)<<shift | provenBit | flagBit(r.onLine, lineBit)
	case !r.proven && !oldProven:
		return d&^(0xff<<shift|provenBit|lineBit) | bound8(r.score)<<shift
	}
	return d
}
