package cmd

import (
	"fmt"
	"runtime"

	"github.com/mancala-solver/mancala/solver"
)

// maxThreads is the largest --threads accepted on this machine, the
// engine's Threads option's max (solver.MachineThreads, the one limit).
func maxThreads() int { return solver.MachineThreads() }

// checkThreads is the --threads check of build, verify, solve, bench,
// serve and engine:
// 1..maxThreads(), else an error naming the limit.
func checkThreads(n int) error {
	if n < 1 || n > maxThreads() {
		return fmt.Errorf("--threads %d: want 1..%d (%d per core on this machine's %d cores)", n, maxThreads(), solver.ThreadsPerCore, runtime.NumCPU())
	}
	return nil
}
