package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/uci"
)

type engineOptions struct {
	variant string
	tb      string
	noTB    bool
	hash    int
	threads int
}

func newEngineCmd() *cobra.Command {
	opts := &engineOptions{}
	c := &cobra.Command{
		Use:   "engine [--variant V] [--tb DIR] [--hash MiB] [--threads N]",
		Short: "Play over stdin/stdout in the UCI dialect of Aalina, Aualé and samurai",
		Long: `engine speaks the adapted Universal Chess Interface protocol of the Aualé GUI,
the Aalina oware engine and the samurai tournament framework on stdin and
stdout: uci, isready, setoption, ucinewgame, position startpos|fen F [moves M],
go (movetime, wtime/btime/winc/binc/movestogo, depth, nodes, infinite, ponder),
stop, ponderhit, wait, debug and quit. Moves are letters: South's pits A..F,
North's a..f; a fen is the 12 pit counts, South's store, North's store and S
or N, joined by "-". docs/engine.md describes the dialect as implemented.

The default variant is oware-own: oware where a repetition gives each player
the seeds on their own row, the rule samurai's referee and Aualé apply
(--variant oware for docs/rules.md's rule, where they count for nobody).
Bad commands are dropped (with an "info string" line under "debug on"); the
engine ends on quit or at the end of stdin. Nothing is written on stderr.`,
		Example: `  mancala engine --tb ~/tb
  java -jar oware.jar test battle --command "mancala engine" --command "java -jar oware.jar service" --movetime 500 --matches 100`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, err := opts.config()
			if err != nil {
				return err
			}
			e, err := uci.New(cfg, c.OutOrStdout())
			if err != nil {
				return err
			}
			return e.Run(c.Context(), c.InOrStdin())
		},
	}
	f := c.Flags()
	f.StringVar(&opts.variant, "variant", uci.DefaultVariant, "the game played (a variant of six pits a row)")
	f.StringVar(&opts.tb, "tb", "", "tablebase directory (default: the default directory, if present)")
	f.BoolVar(&opts.noTB, "no-tb", false, "use no tablebase")
	f.IntVar(&opts.hash, "hash", 256, "largest transposition table size in MiB, grown as used (UCI option Hash)")
	f.IntVar(&opts.threads, "threads", 1, "search threads (UCI option Threads)")
	return c
}

// config checks the flags and maps them onto uci.Config.
func (o *engineOptions) config() (uci.Config, error) {
	v, err := position.Lookup(o.variant)
	switch {
	case err != nil:
		return uci.Config{}, fmt.Errorf("--variant: %w", err)
	case uci.Supported(v) != nil:
		return uci.Config{}, fmt.Errorf("--variant: %w", uci.Supported(v))
	case o.hash < 1 || o.hash > maxHashMiB:
		return uci.Config{}, fmt.Errorf("--hash %d: want 1..%d MiB", o.hash, maxHashMiB)
	case checkThreads(o.threads) != nil:
		return uci.Config{}, checkThreads(o.threads)
	case o.noTB && o.tb != "":
		return uci.Config{}, errors.New("--tb and --no-tb: give one or the other")
	}
	if err := checkTBDir(o.tb, true); err != nil {
		return uci.Config{}, err
	}
	return uci.Config{Variant: v, TBDir: o.tb, NoTB: o.noTB, HashMiB: o.hash, Threads: o.threads,
		Name: "mancala " + engineVersion()}, nil
}
