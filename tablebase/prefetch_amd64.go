package tablebase

// prefetchAll asks the processor to bring the cache line at each address
// into its caches, without waiting for them (PREFETCHT0): a load that
// misses holds up the instructions after it once the reorder buffer
// fills, a prefetch holds up nothing, so work can go on while the lines
// arrive. The addresses must point into live arrays; one that does not
// is harmless (a prefetch never faults).
//
//go:noescape
func prefetchAll(addrs []uintptr)
