// Command mancala solves, tabulates and benchmarks two-row mancala games.
package main

import (
	"fmt"
	"os"

	"github.com/mancala-solver/mancala/cmd"
)

func main() { os.Exit(run()) }

// run executes the command line and returns the exit code: 0, 1 for an
// error (reported as one line on stderr), or a command's own code.
func run() int {
	if err := cmd.Execute(); err != nil {
		fmt.Fprintf(os.Stderr, "mancala: %s\n", cmd.ErrorLine(err))
		return cmd.ExitCode(err)
	}
	return 0
}
