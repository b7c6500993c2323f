//go:build linux

package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Advise asks the kernel to back a large array with transparent huge
// pages (where THP is in "madvise" mode, as is common): the build's
// random accesses over arrays of hundreds of MB otherwise spend much of
// their time in TLB misses. It is advice only; errors are ignored.
func Advise[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	n := uintptr(len(s)) * unsafe.Sizeof(zero)
	if n < 2*Size {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	// madvise wants a page-aligned start: round it up, and the length down.
	start := uintptr(p)
	skip := (start+Size-1)&^(Size-1) - start
	length := (n - skip) &^ (Size - 1)
	if length == 0 {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), length), unix.MADV_HUGEPAGE)
}
