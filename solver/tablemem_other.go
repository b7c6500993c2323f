//go:build !linux

package solver

// allocWords returns n zeroed words for the transposition table, from the
// Go heap.
func allocWords(owner *table, n int) []uint64 { return heapWords(n) }

// prefault does nothing: the heap's words are touched as they are used.
func prefault(words []uint64) {}
