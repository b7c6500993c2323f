package prefetch

import "unsafe"

// Line asks the processor to bring the cache line at addr into its
// caches, without waiting for it (PREFETCHT0): a load that misses would
// hold up every instruction after it, a prefetch holds up nothing.
//
//go:noescape
func Line(addr unsafe.Pointer)
