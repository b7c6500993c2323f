//go:build !linux

package hugepage

// Map returns n zeroed values of T from the Go heap, and a release that
// does nothing (there is no anonymous mapping here).
func Map[T any](n int) ([]T, func()) { return make([]T, n), func() {} }
