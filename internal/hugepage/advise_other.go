//go:build !linux

package hugepage

// Advise is a no-op where madvise(MADV_HUGEPAGE) does not exist.
func Advise[T any](s []T) {}
