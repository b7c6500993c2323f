// Package prefetch asks the processor for a cache line ahead of its use:
// the search's transposition table (package solver) and the tablebase's
// values (package tablebase) are read at random, each read a cache miss,
// and a node that prefetches the lines of all its children before it
// reads any has their misses overlap rather than wait one after another.
package prefetch
