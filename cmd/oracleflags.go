package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
)

// oracleFlags are the search and tablebase flags of the commands that ask
// package oracle (solve, analyze): limits per answer, threads, table size,
// and which tablebase serves.
type oracleFlags struct {
	time    time.Duration
	nodes   int64
	threads int
	hash    int
	tb      string
	noTB    bool
	memTB   int
	loadTB  int
}

// maxHashMiB bounds --hash: 16 GiB, within the memory of the machines this
// tool is run on, so that a typo is an error rather than a crash.
const maxHashMiB = 16 << 10

// add defines the flags on f; timeHelp and nodesHelp say what the limits
// apply to (a position, a ply).
func (o *oracleFlags) add(f *pflag.FlagSet, defaultTime time.Duration, timeHelp, nodesHelp string) {
	f.DurationVar(&o.time, "time", defaultTime, timeHelp)
	f.Int64Var(&o.nodes, "nodes", 0, nodesHelp)
	f.IntVar(&o.threads, "threads", runtime.NumCPU(), "search threads")
	f.IntVar(&o.hash, "hash", 0, "largest transposition table size in MiB, grown as used (0: sized to --time, 16..256)")
	f.StringVar(&o.tb, "tb", "", "tablebase directory (default: the default directory, if present)")
	f.BoolVar(&o.noTB, "no-tb", false, "use no tablebase")
	f.IntVar(&o.loadTB, "load-tb", 0, "read layers 0..N of the tablebase on disk into memory before searching, one byte a position\n(-1: every layer; 0: none, blocks are read as probes need them)")
	f.IntVar(&o.memTB, "mem-tb", oracle.MemTBAuto, "for endgames (at most twice N seeds), build a tablebase of N seeds in memory\nwhen none on disk holds as many (0: never; -1: the largest of at most 3 million positions)")
}

// check names the first bad flag.
func (o *oracleFlags) check() error {
	switch {
	case o.time < 0:
		return fmt.Errorf("--time %v: want 0 or more", o.time)
	case o.nodes < 0:
		return fmt.Errorf("--nodes %d: want 0 or more", o.nodes)
	case checkThreads(o.threads) != nil:
		return checkThreads(o.threads)
	case o.hash < 0 || o.hash > maxHashMiB:
		return fmt.Errorf("--hash %d: want 1..%d MiB, or 0 for a size fitted to --time", o.hash, maxHashMiB)
	case o.memTB < oracle.MemTBAuto:
		return fmt.Errorf("--mem-tb %d: want -1 (automatic), 0 (never) or a seed count", o.memTB)
	case o.loadTB < -1:
		return fmt.Errorf("--load-tb %d: want -1 (every layer), 0 (none) or a seed count", o.loadTB)
	case o.noTB && o.tb != "":
		return errors.New("--tb and --no-tb: give one or the other")
	case o.noTB && o.loadTB != 0:
		return errors.New("--load-tb and --no-tb: give one or the other")
	}
	return checkTBDir(o.tb, false)
}

// config maps the flags onto oracle.Config; --mem-tb is MemTBSeeds, the
// same numbers (-1 automatic, 0 never).
func (o *oracleFlags) config() oracle.Config {
	hash := o.hash
	if hash == 0 {
		hash = oracle.HashMiBFor(o.time)
	}
	return oracle.Config{TBDir: o.tb, NoTB: o.noTB, MemTBSeeds: o.memTB, TBLoadSeeds: o.loadTB, Threads: o.threads, HashMiB: hash}
}

// prepare readies each variant before the first timed answer
// (oracle.Oracle.Prepare): its tablebase on disk opened and, with
// --load-tb, loaded into memory, its transposition table allocated. With
// --load-tb a line on stderr says what was loaded and how long that and
// the table took, time that no answer's time then includes.
func prepare(ctx context.Context, errOut io.Writer, o *oracle.Oracle, variants []*position.Variant, flags oracleFlags, hint func(*position.Variant, error) error) error {
	done := map[*position.Variant]bool{}
	for _, v := range variants {
		if done[v] {
			continue
		}
		done[v] = true
		prep, err := o.Prepare(ctx, v)
		if memTB := (*oracle.MemTBError)(nil); errors.As(err, &memTB) {
			return fmt.Errorf("--mem-tb %d: %s", memTB.Seeds, memTB.Detail())
		}
		if err != nil {
			return hint(v, err)
		}
		if flags.loadTB != 0 {
			fmt.Fprintf(errOut, "%s: %s; transposition table %d MiB in %.1f s\n",
				v.Name, loadedText(prep), prep.HashMiB, prep.TableTime.Seconds())
		}
	}
	return nil
}

// loadedText says which tablebase layers Prepare read into memory.
func loadedText(prep oracle.Prepared) string {
	l := prep.Loaded
	if l.MaxSeeds < 0 {
		return "no tablebase layers in memory"
	}
	mapped := ""
	switch {
	case l.Mapped == l.MaxSeeds+1:
		mapped = ", all mapped"
	case l.Mapped > 0:
		mapped = fmt.Sprintf(", %d mapped", l.Mapped)
	}
	if l.StaleMapped > 0 {
		mapped += fmt.Sprintf("; %s stale or damaged, decoded instead (build --mapped writes them again)", plural(int64(l.StaleMapped), "mapped file"))
	}
	return fmt.Sprintf("tablebase layers 0..%d in memory (%s positions, %s%s) read in %.1f s",
		l.MaxSeeds, humanize.Comma(l.Positions), humanize.Bytes(uint64(l.Bytes())), mapped, prep.LoadTime.Seconds())
}
