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
//	  bit  62     line      the key includes the line
//	  bit  63     always 1, so that a used entry is never all zero
//
// Each word is read and written with sync/atomic, so concurrent use is not
// a data race; a torn entry (word 0 of one write, word 1 of another) fails
// the XOR check and reads as a miss. A false hit needs two different nodes
// with one 64-bit key: at 10^10 probes against a full table, a chance of
// about 10^-9.
//
// Proven bounds hold at any depth, so they survive deeper searches; the
// unproven bounds are estimates, good for drafts up to draft. Keeping both
// bounds in one entry is what MTD(f) needs: its probes alternate between
// lower and upper bounds (Plaat et al. 1996).
type table struct {
	words []uint64
	mask  uint64 // bucket index mask
	gen   uint8  // current generation; written only between searches
}

const (
	entriesPerBucket = 4
	wordsPerBucket   = 2 * entriesPerBucket
	noLower          = -128 // lo of an entry without a lower bound
	noUpper          = 127  // hi of an entry without an upper bound
	loLineBit        = 1 << 46
	hiLineBit        = 1 << 47
	lineBit          = 1 << 62
	usedBit          = 1 << 63
	maxDraft         = 1<<16 - 1
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

// newTable allocates the largest power-of-two number of buckets that fits
// in mib MiB (at least one bucket).
func newTable(mib int) *table {
	buckets := uint64(mib) << 20 / (8 * wordsPerBucket)
	if buckets == 0 {
		buckets = 1
	}
	buckets = 1 << (63 - bits.LeadingZeros64(buckets))
	t := &table{mask: buckets - 1}
	t.words = allocWords(t, int(buckets*wordsPerBucket))
	return t
}

// heapWords allocates table words on the Go heap, advised to use huge
// pages: a probe is a random access, so spare it the TLB miss.
func heapWords(n int) []uint64 {
	words := make([]uint64, n)
	hugepage.Advise(words)
	return words
}

// clear empties the table. Not safe during a search.
func (t *table) clear() { clear(t.words) }

func flagBit(b bool, bit uint64) uint64 {
	if b {
		return bit
	}
	return 0
}

func (e entry) pack() uint64 {
	d := uint64(uint8(int8(e.lo))) | uint64(uint8(int8(e.hi)))<<8
	d |= flagBit(e.loProven, 1<<16) | flagBit(e.hiProven, 1<<17)
	d |= flagBit(e.loLine, loLineBit) | flagBit(e.hiLine, hiLineBit) | flagBit(e.line, lineBit)
	return d | uint64(e.move)<<18 | uint64(e.draft)<<22 | uint64(e.gen)<<38 | usedBit
}

func unpack(d uint64) entry {
	return entry{
		lo: int(int8(d)), hi: int(int8(d >> 8)),
		loProven: d&(1<<16) != 0, hiProven: d&(1<<17) != 0,
		loLine: d&loLineBit != 0, hiLine: d&hiLineBit != 0, line: d&lineBit != 0,
		move: int(d >> 18 & 0xf), draft: int(d >> 22 & 0xffff), gen: uint8(d >> 38),
	}
}

// bucket returns the index of the first word of a board hash's bucket.
func (t *table) bucket(board uint64) int { return int(board&t.mask) * wordsPerBucket }

// prefetch starts bringing board's bucket (one cache line) into the
// caches, so that a probe soon after finds it there: a bucket of a large
// table is otherwise a cache miss, the most time a node spends.
func (t *table) prefetch(board uint64) { prefetch.Line(unsafe.Pointer(&t.words[t.bucket(board)])) }

// probe returns the entry stored for key in board's bucket, if any.
func (t *table) probe(board, key uint64) (entry, bool) {
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
// over the least valuable one there.
func (t *table) store(board, key uint64, r result) {
	b := t.bucket(board)
	for i := b; i < b+wordsPerBucket; i += 2 {
		data := atomic.LoadUint64(&t.words[i+1])
		if data != 0 && atomic.LoadUint64(&t.words[i])^data == key {
			if e := merge(unpack(data), r, t.gen); e.pack() != data {
				t.write(i, key, e)
			}
			return
		}
	}
	victim, worst := b, int(^uint(0)>>1)
	for i := b; i < b+wordsPerBucket; i += 2 {
		if v := t.worth(atomic.LoadUint64(&t.words[i+1])); v < worst {
			victim, worst = i, v
		}
	}
	fresh := entry{lo: noLower, hi: noUpper, draft: min(r.draft, maxDraft), line: r.line}
	t.write(victim, key, merge(fresh, r, t.gen))
}

// worth ranks packed entries for replacement: empty first, then old
// generations, shallow drafts, and entries without proven bounds. Line
// entries serve one line only, so they rank below a board's own entry.
func (t *table) worth(data uint64) int {
	if data == 0 {
		return -1 << 20
	}
	w := int(data>>22&0xffff) - 16*int(t.gen-uint8(data>>38))
	if data&lineBit == 0 && data&(3<<16) != 0 {
		w += 1 << 10
	}
	return w
}

func (t *table) write(i int, key uint64, e entry) {
	data := e.pack()
	atomic.StoreUint64(&t.words[i], key^data)
	atomic.StoreUint64(&t.words[i+1], data)
}

// merge adds r to entry e. Proven bounds are kept and only ever tightened.
// An estimate from a deeper draft replaces the estimates of a shallower
// one; one from a shallower draft is dropped.
func merge(e entry, r result, gen uint8) entry {
	e.gen = gen
	if r.move != 0 {
		e.move = r.move
	}
	if !r.proven {
		switch {
		case r.draft < e.draft:
			return e
		case r.draft > e.draft:
			if !e.loProven {
				e.lo = noLower
			}
			if !e.hiProven {
				e.hi = noUpper
			}
			e.draft = min(r.draft, maxDraft)
		}
	}
	if r.lower {
		e.lo, e.loProven, e.loLine = tighten(e.lo, e.loProven, e.loLine, r, r.score > e.lo)
	}
	if r.upper {
		e.hi, e.hiProven, e.hiLine = tighten(e.hi, e.hiProven, e.hiLine, r, r.score < e.hi)
	}
	return e
}

// tighten returns the bound to keep: a proven bound beats an estimate, a
// tighter proven bound (or an equal one resting on less) beats a looser
// one, and a new estimate replaces an old one.
func tighten(old int, oldProven, oldLine bool, r result, tighter bool) (int, bool, bool) {
	switch {
	case r.proven && (!oldProven || tighter || r.score == old && oldLine && !r.onLine):
		return r.score, true, r.onLine
	case !r.proven && !oldProven:
		return r.score, false, false
	}
	return old, oldProven, oldLine
}
