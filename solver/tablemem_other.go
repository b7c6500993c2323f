//go:build !linux

package solver

// allocWords returns n zeroed words for the transposition table, from the
// Go heap.
func allocWords[T any](owner *T, n int) []uint64 { return heapWords(n) }
