//go:build !linux

package tablebase

// hugePages is a no-op where madvise(MADV_HUGEPAGE) does not exist.
func hugePages[T any](s []T) {}
