// Command mancala solves, tabulates and benchmarks two-row mancala games.
package main

import (
	"fmt"
	"os"

	"mancala/cmd"
)

func main() {
	if err := cmd.Execute(); err != nil {
		fmt.Fprintf(os.Stderr, "mancala: %v\n", err)
		os.Exit(cmd.ExitCode(err))
	}
}
