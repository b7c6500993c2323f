package cmd

import "runtime/debug"

// collectNear sets the Go runtime's soft memory limit to budget bytes plus
// 1 GiB of slack, for build and verify, whose arrays are most of the heap.
// Without it the collector lets the heap grow to twice what is live
// (GOGC=100) before it runs, and a verify holding 13 GiB of values then
// asked for 20 GiB while it read the next layer: on a 24 GiB machine the
// next layer would not fit.
func collectNear(budget int64) { debug.SetMemoryLimit(budget + 1<<30) }
