//go:build linux

package solver

import (
	"runtime"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// allocWords returns n zeroed words for the transposition table, and
// attaches their release to owner. On Linux they are an anonymous mapping
// outside the Go heap: a table of GiBs in the heap would count in the
// garbage collector's pacing, which lets the heap grow to twice what is
// live before collecting, so an 8 GiB table would let the garbage of
// tablebase reads grow to 8 GiB more. The mapping is released when owner
// becomes unreachable; where it cannot be made, the words come from the
// heap (hugepage.Map). Its pages are mapped (and zeroed) by the kernel
// only when touched: the table prefaults the part it uses (newTable, grow).
func allocWords(owner *table, n int) []uint64 {
	words, release := hugepage.Map[uint64](n)
	runtime.AddCleanup(owner, func(release func()) { release() }, release)
	return words
}

// prefault touches every page of words once, so that the kernel maps (and
// zeroes) them now rather than in the search: a probe is a random access,
// so a fresh table of 256 MiB in huge pages had its first few hundred
// nodes each wait for a 2 MiB page to be zeroed, which on a loaded machine
// took a 0.5 s search down to depth 4 and made it overrun (perf stat -e
// page-faults,task-clock mancala solve oware --time 0.5s --threads 1
// --hash 256: 0.3 s of system time inside the search).
func prefault(words []uint64) {
	const pageWords = 4096 / 8
	for i := 0; i < len(words); i += pageWords {
		words[i] = 0
	}
}
