//go:build linux

package hugepage

import (
	"syscall"
	"unsafe"
)

// Map returns n zeroed values of T in an anonymous mapping outside the Go
// heap, advised to use huge pages, and the function that unmaps them
// (after which they must not be used). Arrays of GiBs belong outside the
// heap: the garbage collector lets the heap grow to twice what is live
// before it collects, so a live array of 3 GB in the heap lets 3 GB more
// of garbage pile up. T must hold no pointers. Where the mapping cannot be
// made the values come from the heap, and the release does nothing.
func Map[T any](n int) ([]T, func()) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size == 0 {
		return nil, func() {}
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		s := make([]T, n)
		Advise(s)
		return s, func() {}
	}
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	Advise(s)
	return s, func() { _ = syscall.Munmap(b) }
}
