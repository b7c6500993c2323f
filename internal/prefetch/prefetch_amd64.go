package prefetch

import "unsafe"

// Line asks the processor to bring the cache line at addr into its
// caches, without waiting for it (PREFETCHT0): a load that misses would
// hold up every instruction after it, a prefetch holds up nothing.
//
//go:noescape
func Line(addr unsafe.Pointer)

// All asks for the cache line at each address, as Line does: a batch of
// lookups (verify's children) asks for all of its lines in one call, so
// the misses overlap. The addresses must point into live arrays; one
// that does not is harmless (a prefetch never faults).
//
//go:noescape
func All(addrs []uintptr)
