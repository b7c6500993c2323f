//go:build linux

package solver

import (
	"runtime"
	"syscall"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// allocWords returns n zeroed words for the transposition table, and
// attaches their release to owner. On Linux they are an anonymous mapping
// outside the Go heap: a table of GiBs in the heap would count in the
// garbage collector's pacing, which lets the heap grow to twice what is
// live before collecting, so an 8 GiB table would let the garbage of
// tablebase reads grow to 8 GiB more. The mapping is released when owner
// becomes unreachable; where it cannot be made, the words come from the
// heap.
func allocWords(owner *table, n int) []uint64 {
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return heapWords(n)
	}
	words := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
	hugepage.Advise(words)
	runtime.AddCleanup(owner, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return words
}
