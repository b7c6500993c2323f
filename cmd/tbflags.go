package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// This file holds what the tablebase commands (build, query, verify,
// stats) share: the --tb flag, sizes, and the progress bar.

// addTBFlag adds --tb DIR; empty means tablebase.DefaultDir().
func addTBFlag(c *cobra.Command, target *string) {
	c.Flags().StringVar(target, "tb", "", "tablebase directory (default "+defaultTBHelp()+")")
}

func defaultTBHelp() string {
	if d := tablebase.DefaultDir(); d != "" {
		return d
	}
	return "$XDG_DATA_HOME/mancala or ~/.local/share/mancala"
}

// tablebaseHint adds to err, when it says that a tablebase lacks what was
// asked (no tablebase in the directory, none of the variant, a position
// beyond the built layers), how to get it: the build command that covers
// seeds seeds of v ("N" when seeds < 0, no position being asked), and for
// a position pos, the search that needs no tablebase. It is the one place
// these hints are written (query, solve, analyze, stats and verify call
// it); any other error comes back as it is.
func tablebaseHint(err error, v *position.Variant, seeds int, flag, pos string) error {
	var notIn *oracle.NotInTablebaseError
	if !errors.As(err, &notIn) && !errors.Is(err, tablebase.ErrNoTablebase) {
		return err
	}
	if _, serr := os.Stat(flag); flag != "" && errors.Is(serr, fs.ErrNotExist) {
		// "no tablebase in DIR" would hide that DIR itself is missing (a
		// mistyped --tb); the error still wraps err for its exit code.
		return &hintedError{fmt.Sprintf("--tb %s: no such directory; %s", flag, buildHint(v, seeds, flag, pos)), err}
	}
	return fmt.Errorf("%w: %s", err, buildHint(v, seeds, flag, pos))
}

// hintedError is an error reworded for the user that still wraps the one
// it was made from (errors.Is and As see through it).
type hintedError struct {
	msg string
	err error
}

func (e *hintedError) Error() string { return e.msg }
func (e *hintedError) Unwrap() error { return e.err }

// buildHint is tablebaseHint's advice.
func buildHint(v *position.Variant, seeds int, flag, pos string) string {
	tb, n, search := "", "N", ""
	if flag != "" {
		tb = " --tb " + flag
	}
	if seeds >= 0 {
		n = strconv.Itoa(seeds)
	}
	if pos != "" {
		search = fmt.Sprintf(", or search instead with `mancala solve %s`", pos)
	}
	if last := lastMachineLayer(v); seeds > last {
		return fmt.Sprintf("layers above %d seeds are past what one machine builds for %s (docs/distributed-build.md)%s",
			last, v.Name, strings.Replace(search, ", or", ";", 1))
	}
	proves := ""
	if b, ok := proofBuilds[v.Name]; ok && b.seeds == seeds {
		proves = fmt.Sprintf(" (with it `%s` proves %s; what the build and the proof cost: docs/performance.md)", proofCommand(v, flag), b.proves)
	}
	return fmt.Sprintf("build it with `mancala build %s --max-seeds %s%s`%s%s", v.Name, n, tb, proves, search)
}

// lastMachineLayer is the largest layer of v that one machine's build
// solves: the last with fewer than tablebase.MaxLayerPositions positions
// (31 seeds for six pits a row), or v's total seeds if every layer is.
func lastMachineLayer(v *position.Variant) int {
	ix := tablebase.NewIndex(v.Pits)
	n := 0
	for n < v.Total() && ix.Size(n+1) < tablebase.MaxLayerPositions {
		n++
	}
	return n
}

// proofBuild is a tablebase that brings a variant's start position within
// a proof: its layers (0..seeds) and what the search then proves. What
// the build and the proof cost is measured, not compiled in: the hint
// points to docs/performance.md, where each figure has its command.
type proofBuild struct {
	seeds  int
	proves string
}

// proofBuilds are the known proof builds, by variant name (every six-pit
// kalah size shares its rule set's tablebase).
var proofBuilds = map[string]proofBuild{
	position.KalahName:    {seeds: 20, proves: "Kalah(6,4)"},
	"kalah-6x5":           {seeds: 26, proves: "Kalah(6,5)"},
	position.KalahStdName: {seeds: 20, proves: "Kalah(6,4) under the standard rule"},
}

// proofCommand is the solve that proves v's start with its proof build on
// disk: without a time limit, as the proof takes longer than solve's
// default --time (how much longer is measured in docs/performance.md, not
// compiled in).
func proofCommand(v *position.Variant, flag string) string {
	tb := ""
	if flag != "" {
		tb = " --tb " + flag
	}
	return fmt.Sprintf("mancala solve %s --time 0%s", v.Name, tb)
}

// reachHint is what solve says when its search of s stopped short of a
// proof on its time limit while the tablebase on disk (up to maxSeeds)
// holds v's proof build: the proof is in reach without the limit. ok is
// false otherwise.
func reachHint(v *position.Variant, maxSeeds int, flag string) (hint string, ok bool) {
	b, ok := proofBuilds[v.Name]
	if !ok || maxSeeds < b.seeds {
		return "", false
	}
	return fmt.Sprintf("not proven within the time limit; with the tablebase up to %d seeds on disk, `%s` proves %s (what the proof costs: docs/performance.md)",
		maxSeeds, proofCommand(v, flag), b.proves), true
}

// proofHint is what solve says when its search of a position of v stopped
// short of a proof and no tablebase on disk serves v (err, the oracle's
// DiskTablebase error): how to get a proof, tablebaseHint's build advice
// for the tablebase of proofBuilds. ok is false when none is known for v.
func proofHint(err error, v *position.Variant, flag string) (hint string, ok bool) {
	b, ok := proofBuilds[v.Name]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("not proven; %v", tablebaseHint(err, v, b.seeds, flag, "")), true
}

// tbDir returns the directory to use for a --tb value.
func tbDir(flag string) string {
	if flag != "" {
		return flag
	}
	return tablebase.DefaultDir()
}

// checkTBDir refuses a --tb value that names something other than a
// directory, in one wording for every command; with mustExist (serve,
// engine: a server started on it would fail every request) a path that
// does not exist too, which the other commands report with the build
// that makes it (tablebaseHint). "" (the default directory) is not checked.
func checkTBDir(flag string, mustExist bool) error {
	if flag == "" {
		return nil
	}
	st, err := os.Stat(flag)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !mustExist:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--tb %s: no such directory", flag)
	case err != nil:
		return fmt.Errorf("--tb %s: %w", flag, errors.Unwrap(err))
	case !st.IsDir():
		return fmt.Errorf("--tb %s: not a directory", flag)
	}
	return nil
}

// parseSize reads a byte size such as 8GiB, 512MB or 1e9.
func parseSize(flag, s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > 1<<62 {
		return 0, fmt.Errorf("%s %q is not a size (e.g. 8GiB, 512MB)", flag, s)
	}
	return int64(n), nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressLogEvery is how often a layer's progress is written as a line
// when stderr is not a terminal (a log file): a large layer takes tens of
// minutes, and a log with nothing between its plan and done lines cannot
// tell a slow layer from a stuck one.
const progressLogEvery = time.Minute

// layerBar shows progress over several layers as one bar on a terminal,
// fed by the tablebase package's per-layer progress callback. When w is
// not a terminal it draws nothing and writes instead, at most once every
// progressLogEvery, a line with the current layer's share done.
type layerBar struct {
	bar    *progressbar.ProgressBar
	w      io.Writer
	pits   int
	layer  int
	base   int64     // units of the layers below the current one
	start  time.Time // when the current layer's first progress came
	logged time.Time // when its last progress line was written
}

// newLayerBar returns a bar for layers 0..maxSeeds of a board with pits
// pits a row, or one that draws nothing when w is not a terminal. A
// resumed build starts part-way along it.
func newLayerBar(w io.Writer, pits, maxSeeds int, what string) *layerBar {
	b := &layerBar{w: w, pits: pits, layer: -1}
	if !isTerminal(w) {
		return b
	}
	b.bar = progressbar.NewOptions64(layerUnits(pits, 0, maxSeeds),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetPredictTime(false), // a linear guess; the build prints a fitted one per layer
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return b
}

// update is a tablebase progress callback.
func (b *layerBar) update(layer int, done, total int64) {
	if b.bar == nil {
		b.log(layer, done, total, time.Now())
		return
	}
	if layer != b.layer {
		b.layer, b.base = layer, layerUnits(b.pits, 0, layer-1)
		b.bar.Describe(fmt.Sprintf("layer %d", layer))
	}
	_ = b.bar.Set64(b.base + done)
}

// log writes the progress line of a layer, when progressLogEvery has
// passed since its start or its last line.
func (b *layerBar) log(layer int, done, total int64, now time.Time) {
	if layer != b.layer {
		b.layer, b.start, b.logged = layer, now, now
		return
	}
	if now.Sub(b.logged) < progressLogEvery || total <= 0 {
		return
	}
	b.logged = now
	fmt.Fprintf(b.w, "layer %d: %d%% done after %s\n", layer, done*100/total, now.Sub(b.start).Round(time.Second))
}

// clear removes the bar from the terminal, so that a line can be printed;
// the next update draws it again.
func (b *layerBar) clear() {
	if b.bar != nil {
		_ = b.bar.Clear()
	}
}

// finish clears the bar.
func (b *layerBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}

// layerUnits returns the progress units of layers from..to of a board
// with pits pits a row: 3 per position.
func layerUnits(pits, from, to int) int64 {
	ix := tablebase.NewIndex(pits)
	total := int64(0)
	for n := from; n <= to; n++ {
		total += 3 * ix.Size(n)
	}
	return total
}
