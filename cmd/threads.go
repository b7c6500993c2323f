package cmd

import (
	"fmt"
	"runtime"
)

// threadsPerCore bounds --threads: more workers than this many per core
// only add scheduling, memory (each search thread has its own stacks and
// tables) and lock traffic, never speed.
const threadsPerCore = 4

// maxThreads is the largest --threads accepted on this machine.
func maxThreads() int { return threadsPerCore * runtime.NumCPU() }

// checkThreads is the --threads check of build, verify, solve, bench,
// serve and engine:
// 1..maxThreads(), else an error naming the limit.
func checkThreads(n int) error {
	if n < 1 || n > maxThreads() {
		return fmt.Errorf("--threads %d: want 1..%d (%d per core on this machine's %d cores)", n, maxThreads(), threadsPerCore, runtime.NumCPU())
	}
	return nil
}
