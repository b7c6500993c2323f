package cmd

import (
	"errors"

	"github.com/spf13/cobra"
)

// commands lists every subcommand's constructor, in help order.
var commands = []func() *cobra.Command{
	newShowCmd,
	newPlayCmd,
	newPerftCmd,
	newSolveCmd,
	newAnalyzeCmd,
	newBuildCmd,
	newQueryCmd,
	newVerifyCmd,
	newStatsCmd,
	newBenchCmd,
	newServeCmd,
}

// NewRootCmd builds the `mancala` command tree.
func NewRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "mancala",
		Short: "Exact values, endgame databases and benchmarks for two-row mancala games",
		Long: `mancala solves positions of awari, oware, akon, djenon-abe and djenon-aboure
exactly, builds endgame databases (tablebases) by retrograde analysis, and
measures how fast the engine sows and searches.

Positions are written VARIANT[:ROW1/ROW2[:SIDE[:CAP1-CAP2]]], e.g.
  awari                                  the start position
  akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1    a position, player 1 to move
Each row lists a player's pits in that player's sowing order, pit 1 first.
Values are score differences in seeds from the side to move.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	for _, newCmd := range commands {
		root.AddCommand(newCmd())
	}
	return root
}

// Execute runs the command line and returns the error to report, if any.
func Execute() error { return NewRootCmd().Execute() }

// ExitError carries a specific exit code with its error.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode returns the process exit code for an error returned by Execute:
// an ExitError's own code, else 1.
func ExitCode(err error) int {
	var exit *ExitError
	if errors.As(err, &exit) {
		return exit.Code
	}
	return 1
}
