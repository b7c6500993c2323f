package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
)

// commands lists every subcommand's constructor, in help order.
var commands = []func() *cobra.Command{
	newShowCmd,
	newPlayCmd,
	newPerftCmd,
	newSolveCmd,
	newAnalyzeCmd,
	newConvertCmd,
	newBuildCmd,
	newImportCmd,
	newQueryCmd,
	newVerifyCmd,
	newStatsCmd,
	newBenchCmd,
	newServeCmd,
	newEngineCmd,
	newMatchCmd,
}

// NewRootCmd builds the `mancala` command tree.
func NewRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "mancala",
		Short: "Exact values, endgame databases and benchmarks for two-row mancala games",
		Long: `mancala solves positions of awari, oware, akon, djenon-abe, djenon-aboure and
kalah (Kalah(m,n): kalah, kalah-6x5, ... with empty captures; kalah-std,
kalah-std-6x5, ... with the standard capture rule) exactly, builds endgame
databases (tablebases) by retrograde analysis, and
measures how fast the engine sows and searches.

Positions are written VARIANT[:ROW1/ROW2[:SIDE[:CAP1-CAP2]]], e.g.
  awari                                  the start position
  akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1    a position, player 1 to move
Each row lists a player's pits in that player's sowing order, pit 1 first.
Values are score differences in seeds from the side to move.

The rules: docs/rules.md; positions, moves, JSON and exit statuses:
docs/notation.md (in the source repository). Ctrl-C or SIGTERM stops any
command, printing what was done so far, with exit status 130 or 143.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Version = version()
	root.SetVersionTemplate("mancala {{.Version}}\n")
	for _, newCmd := range commands {
		root.AddCommand(newCmd())
	}
	addCompletion(root)
	addProfileFlag(root)
	usageOnArgsError(root)
	return root
}

// usageOnArgsError makes the argument check of c and every command below
// it end its error with the command's usage line: cobra's own words
// ("accepts 1 arg(s), received 0") say how many arguments, not which.
func usageOnArgsError(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return fmt.Errorf("%w; usage: %s", err, c.UseLine())
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageOnArgsError(sub)
	}
}

// Execute runs the command line and returns the error to report, if any.
// SIGINT and SIGTERM follow one rule in every command (see signals.go).
func Execute() error {
	root := NewRootCmd()
	// The command the arguments name (nil if none), found as cobra will
	// find it, without running hooks that a command might override.
	running, _, err := root.Find(os.Args[1:])
	if err != nil || running == root {
		running = nil
	}
	ctx, stop := signalContext(context.Background(), os.Stderr, running)
	defer stop()
	err = root.ExecuteContext(ctx)
	stopProfile()
	if in := interruption(ctx); in != nil {
		return interruptedError(in, err)
	}
	return err
}

// revision is the VCS revision to report when the build info has none (a
// build from a source archive, or with -buildvcs=false); a packager sets
// it with -ldflags "-X github.com/mancala-solver/mancala/cmd.revision=REV".
var revision string

// version is the module version (a tag, "(devel)" in a work tree) with the
// VCS revision the binary was built from ("+modified" when the tree had
// changes), and the rules version that tablebase keys carry. Without a
// revision it says so and how to get one, since "(devel)" alone names no
// build.
func version() string {
	info, ok := debug.ReadBuildInfo()
	v := buildVersion(info, ok, revision)
	if strings.HasSuffix(v, unknownRevision) {
		v += " (built without VCS stamping: not in a git clone, or with -buildvcs=false; `git rev-parse --short=12 HEAD` in the source gives it)"
	}
	return fmt.Sprintf("%s, rules version %d (kalah %d, kalah-std %d)", v, position.RulesVersion,
		position.KalahRulesVersion, position.KalahStdRulesVersion)
}

// engineVersion is version for the engine's one-line id name: the
// revision when known, without the advice (a GUI shows the name, and the
// dialect's sessions are checked for no "unknown" reply).
func engineVersion() string {
	info, ok := debug.ReadBuildInfo()
	v := strings.TrimSuffix(buildVersion(info, ok, revision), " "+unknownRevision)
	return fmt.Sprintf("%s, rules version %d (kalah %d, kalah-std %d)", v, position.RulesVersion,
		position.KalahRulesVersion, position.KalahStdRulesVersion)
}

// unknownRevision ends buildVersion's answer when no revision is known.
const unknownRevision = "revision unknown"

// buildVersion is version's first part, from the build info (ok false:
// none) and the revision set at link time ("": none).
func buildVersion(info *debug.BuildInfo, ok bool, linked string) string {
	v, rev, modified := "(devel)", "", false
	if ok {
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev == "" {
		rev, modified = linked, false
	}
	switch {
	case rev == "" && v == "(devel)":
		return v + " " + unknownRevision
	case rev == "":
		return v // a tagged module version names its source
	case modified:
		return fmt.Sprintf("%s %s+modified", v, rev[:min(len(rev), 12)])
	}
	return fmt.Sprintf("%s %s", v, rev[:min(len(rev), 12)])
}

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
