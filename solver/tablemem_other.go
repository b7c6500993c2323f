//go:build !linux

package solver

// allocWords returns n zeroed words for the transposition table, from the
// Go heap.
func allocWords(owner *table, n int) []uint64 { return heapWords(n) }
