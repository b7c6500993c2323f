package solver

import "sync/atomic"

// busyTable marks the nodes that some thread is searching, so that the
// others search their siblings first: ABDADA (Weill, "The ABDADA
// distributed minimax search algorithm", ACM Computer Science Conference,
// 1996) in the simplified form of Tom Kerrigan's "Simplified ABDADA" (the
// marks in a small table of their own rather than in the transposition
// table, and a node's first move searched whatever its mark, so that the
// threads go down the same line until it branches). A slot, picked by the
// key's high bits, holds the key's top 48 bits and how many threads are
// in that node; a node whose slot another node's threads hold goes
// unmarked, which only loses a deferral. Marks change the order in which
// a node's moves are searched, never which are searched, so a value
// proven does not depend on them.
type busyTable struct {
	slots [busySlots]atomic.Uint64
}

const (
	// busySlots is the number of slots: far more than the nodes the
	// threads are in at once (a thread marks only the nodes on its path
	// that are deep enough, busyDepth), so that two seldom share one.
	busyBits  = 14
	busySlots = 1 << busyBits
	// busyDepth is the least remaining depth of a node whose children
	// are marked: below it the subtrees are too small to share, and each
	// mark and unmark is a compare-and-swap on a line the other threads
	// write too. On Kalah(6,3) without a database, two threads, 1 to 6
	// gave the same nodes within the noise (7 runs each), and 2, 4 and 8
	// the same time (0.27-0.29 s wall, 7 runs each). Kalah(6,4) with the
	// 20-seed database, two threads, --one-best, against 2: 8 took
	// 0.86-0.95 of the CPU and wall time (medians of three sets of 5-6
	// interleaved rounds), with 15.1-16.3 M nodes against 13.7-24.5 M;
	// 4 took 0.95, 16 1.01 (18.7 M nodes).
	busyDepth = 8
	// busySeedsAbove: a node marks its children only when it has more
	// than this many seeds above the tablebase's (above none without
	// one). In a proof's search to the end (kalahJumpDepth) nearly every
	// node is busyDepth deep, but one within a few captures of the
	// tablebase has a small subtree: its marks cost more, in lines passed
	// between the cores, than the sharing gains. Kalah(6,4) with the
	// 20-seed database, two threads, --one-best, chrt -r 1, medians of 5-6
	// interleaved rounds: 4.05-4.25 s wall with every node marking, 3.83
	// (8 seeds above), 3.35 (10), 3.24-3.63 (12), 3.40 (16), and 5.21 when
	// only the root marks (20.8 M nodes against 16.1 M); on four random
	// positions 2-5 plies from the start (randpos -seed 7), 18.3 s wall
	// all marking, 14.6 (8), 16.2 (12). Kalah(6,3) without a database:
	// the same (0.19-0.20 s, 10 rounds).
	busySeedsAbove = 10
	// busyCount is the low bits of a slot: the count of threads in it.
	busyCount = 1<<16 - 1
)

func (b *busyTable) slot(key uint64) *atomic.Uint64 { return &b.slots[key>>(64-busyBits)] }

// busy reports whether a thread is in node key (another one: a thread's
// path holds each key once).
func (b *busyTable) busy(key uint64) bool {
	v := b.slot(key).Load()
	return v&^busyCount == key&^busyCount && v&busyCount != 0
}

// mark counts one more thread in node key and reports true, or reports
// false, counting nothing, when another node's threads hold its slot: a
// live mark is kept rather than taken over. The marks that last are
// those of the high nodes, the ones worth sharing, and every node below
// them marks its children, so that a mark taken over by any node of
// another key in its slot was soon lost: in a kalah proof's search to the
// end (kalahJumpDepth), where every node is deep enough to mark, both
// threads were seen in one root move at once. Kalah(6,4) with the 20-seed
// tablebase, two threads, 64 alternating rounds: median 17.33 M nodes
// and 2.36 s taking over, 16.77 M and 2.22 s keeping (faster in 42 of
// the 64 pairs). unmark counts one fewer; call it only after a mark that
// reported true.
func (b *busyTable) mark(key uint64) bool {
	slot, tag := b.slot(key), key&^busyCount
	for {
		v := slot.Load()
		next := tag | 1
		switch {
		case v&^busyCount == tag && v&busyCount < busyCount:
			next = v + 1
		case v&busyCount != 0:
			return false // another node's threads are in the slot
		}
		if slot.CompareAndSwap(v, next) {
			return true
		}
	}
}

func (b *busyTable) unmark(key uint64) {
	slot := b.slot(key)
	for {
		v := slot.Load()
		if v&busyCount == 0 || slot.CompareAndSwap(v, v-1) {
			return
		}
	}
}
