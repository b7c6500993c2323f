package cmd

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/pflag"

	"github.com/mancala-solver/mancala/oracle"
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
	f.IntVar(&o.hash, "hash", 0, "transposition table size in MiB (0: sized to --time, 16..256)")
	f.StringVar(&o.tb, "tb", "", "tablebase directory (default: the default directory, if present)")
	f.BoolVar(&o.noTB, "no-tb", false, "use no tablebase")
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
	case o.noTB && o.tb != "":
		return errors.New("--tb and --no-tb: give one or the other")
	}
	return nil
}

// config maps the flags onto oracle.Config; --mem-tb is MemTBSeeds, the
// same numbers (-1 automatic, 0 never).
func (o *oracleFlags) config() oracle.Config {
	hash := o.hash
	if hash == 0 {
		hash = oracle.HashMiBFor(o.time)
	}
	return oracle.Config{TBDir: o.tb, NoTB: o.noTB, MemTBSeeds: o.memTB, Threads: o.threads, HashMiB: hash}
}
