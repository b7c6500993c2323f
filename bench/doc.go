// Package bench is the benchmark harness behind `mancala bench`: make-move
// throughput (packed engine against the reference implementation), perft,
// search on a fixed suite, and tablebase building. Every figure is the
// median of several timed runs, reported with its min, max and unit, so
// that results can be compared across machines and versions. Work counts
// that depend only on the rules (perft node counts) or on the search
// (node counts at a fixed depth) are reported as signatures: a change in a
// signature means the rules or the search changed, not the machine.
//
// The package measures and returns figures; it prints nothing.
package bench
