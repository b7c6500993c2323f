package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/match"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
	"github.com/mancala-solver/mancala/uci"
)

type matchOptions struct {
	engines, names    []string
	variant           string
	moveTime          time.Duration
	gameTime, inc     time.Duration
	nodes, depth      int
	margin            time.Duration
	games, concurrent int
	openings          string
	tb                string
	sprt              string
	record            string
	resume, ponder    bool
}

func newMatchCmd() *cobra.Command {
	opts := &matchOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "match --engine CMD --engine CMD (--movetime D | --time D [--inc D] | --nodes N | --depth N) [flags]",
		Short: "Play two protocol engines against each other and rate them",
		Long: `match plays two engines that speak the protocol of mancala engine (Aalina's
service, any command line, run by sh -c) against each other, as cutechess-cli
does for chess. Each opening (the built-in balanced set: three-ply openings
of oware that our search values within a seed of 0; or --openings FILE, move
lists one a line, pit numbers or letters like "CdA"; or none) is played twice,
the first engine South, then North. A move's limit is --movetime, or --time
for each side's game with --inc added after each move, or --nodes/--depth.

An engine that plays an illegal move, exits, or answers no bestmove within its
time (the move time or its clock, plus --margin) loses the game, with the
reason; it is restarted for the next. With --tb, a game ends once the
tablebase holds its position, scored by it (for oware-own, oware's tablebase:
the two differ only where a position repeats). The end of a game is decided
here by the rules (docs/rules.md), never by the engines. With --ponder, the
engine that has just moved searches its opponent's position (go ponder) until
stop, sent before its own next move; each engine then keeps its threads busy.

A line is printed after each game, then the first engine's wins, draws and
losses, its score, and its Elo difference with a 95% interval. --sprt
elo0,elo1 stops the match once a sequential probability ratio test
(α = β = 0.05) accepts H0 (elo0) or H1 (elo1). --record FILE writes every game
as mancala analyze reads it, after a header line naming the match (variant,
engine commands and names, limit, openings); --resume with --record FILE reads
the games FILE holds, refuses a FILE of another match, and plays only the
games it lacks (--games may grow), appending them, the table counting all.
Ctrl-C drops the games under way and prints the table of those played.`,
		Example: `  mancala match --engine "mancala engine" --engine "mancala engine --hash 16" --movetime 100ms --games 40
  mancala match --engine "mancala engine" --engine "java -jar oware.jar --roots R --leaves L service" \
      --movetime 500ms --games 200 --sprt 0,50 --record games
  mancala match ... --record games --resume    # after an interruption: the same flags, plus --resume`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, closeTB, err := opts.config()
			if err != nil {
				return err
			}
			defer closeTB()
			return runMatch(c, cfg, opts)
		},
	})
	f := c.Flags()
	f.StringArrayVar(&opts.engines, "engine", nil, "an engine's command line (give two)")
	f.StringArrayVar(&opts.names, "name", nil, "an engine's name, in --engine's order (default: the first word of the id name it sends)")
	f.StringVar(&opts.variant, "variant", uci.DefaultVariant, "the game played: the engines' variant")
	f.DurationVar(&opts.moveTime, "movetime", 0, "time a move (go movetime)")
	f.DurationVar(&opts.gameTime, "time", 0, "each side's time for the game (go wtime/btime)")
	f.DurationVar(&opts.inc, "inc", 0, "time added to the mover's clock after each move, with --time")
	f.IntVar(&opts.nodes, "nodes", 0, "nodes a move (go nodes)")
	f.IntVar(&opts.depth, "depth", 0, "plies a move (go depth)")
	f.DurationVar(&opts.margin, "margin", 250*time.Millisecond, "time past a move's limit before it is a time forfeit")
	f.IntVar(&opts.games, "games", 20, "games to play")
	f.IntVar(&opts.concurrent, "concurrency", 1, "games played at once")
	f.StringVar(&opts.openings, "openings", "builtin", `"builtin", "none" or a file of openings`)
	f.StringVar(&opts.tb, "tb", "", "adjudicate by the tablebase in this directory")
	f.StringVar(&opts.sprt, "sprt", "", "elo0,elo1: stop when an SPRT decides")
	f.StringVar(&opts.record, "record", "", "write every game to this file, as analyze reads it")
	f.BoolVar(&opts.ponder, "ponder", false, "let each engine search on its opponent's time (go ponder, then stop)")
	f.BoolVar(&opts.resume, "resume", false, "continue the match recorded in --record's file: play only the games it lacks")
	return c
}

// config checks the flags and maps them onto match.Config; closeTB closes
// the tablebase it opened.
func (o *matchOptions) config() (cfg match.Config, closeTB func(), err error) {
	closeTB = func() {}
	v, err := position.Lookup(o.variant)
	switch {
	case err != nil:
		return cfg, closeTB, fmt.Errorf("--variant: %w", err)
	case uci.Supported(v) != nil:
		return cfg, closeTB, fmt.Errorf("--variant: %w", uci.Supported(v))
	case len(o.engines) != 2:
		return cfg, closeTB, fmt.Errorf("--engine given %d times: want 2", len(o.engines))
	case len(o.names) > 2:
		return cfg, closeTB, fmt.Errorf("--name given %d times: want at most 2", len(o.names))
	case o.moveTime < 0 || o.gameTime < 0 || o.inc < 0 || o.margin < 0:
		return cfg, closeTB, errors.New("--movetime, --time, --inc and --margin must not be negative")
	case o.nodes < 0 || o.depth < 0:
		return cfg, closeTB, errors.New("--nodes and --depth must not be negative")
	case o.inc > 0 && o.gameTime == 0:
		return cfg, closeTB, errors.New("--inc needs --time")
	case o.games < 1:
		return cfg, closeTB, fmt.Errorf("--games %d: want at least 1", o.games)
	case o.concurrent < 1:
		return cfg, closeTB, fmt.Errorf("--concurrency %d: want at least 1", o.concurrent)
	case o.resume && o.record == "":
		return cfg, closeTB, errors.New("--resume needs --record FILE")
	}
	limits := 0
	for _, set := range []bool{o.moveTime > 0, o.gameTime > 0, o.nodes > 0 || o.depth > 0} {
		if set {
			limits++
		}
	}
	if limits != 1 {
		return cfg, closeTB, errors.New("give one limit a move: --movetime, --time (with --inc), or --nodes and/or --depth")
	}
	cfg = match.Config{Variant: v, Commands: [2]string{o.engines[0], o.engines[1]},
		MoveTime: o.moveTime, GameTime: o.gameTime, Increment: o.inc, Nodes: o.nodes, Depth: o.depth,
		Margin: o.margin, Games: o.games, Concurrency: o.concurrent, Ponder: o.ponder}
	copy(cfg.Names[:], o.names)
	switch o.openings {
	case "builtin":
		cfg.Openings = match.Balanced(v)
	case "none", "":
	default:
		f, err := os.Open(o.openings)
		if err != nil {
			return cfg, closeTB, fmt.Errorf("--openings: %w", err)
		}
		cfg.Openings, err = match.ParseOpenings(f, v)
		f.Close()
		if err != nil {
			return cfg, closeTB, fmt.Errorf("--openings %s: %w", o.openings, err)
		}
		if len(cfg.Openings) == 0 {
			return cfg, closeTB, fmt.Errorf("--openings %s: no openings", o.openings)
		}
	}
	if o.sprt != "" {
		a, b, ok := strings.Cut(o.sprt, ",")
		e0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		e1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if !ok || err0 != nil || err1 != nil || e0 >= e1 {
			return cfg, closeTB, fmt.Errorf("--sprt %q: want elo0,elo1 with elo0 < elo1", o.sprt)
		}
		cfg.SPRT = &match.SPRT{Elo0: e0, Elo1: e1}
	}
	if o.tb != "" {
		tv := v.NeutralTwin() // oware-own's games are adjudicated by oware's values
		pr, err := tablebase.OpenProber(o.tb, tv)
		if err != nil {
			return cfg, closeTB, fmt.Errorf("--tb %s: %w", o.tb, err)
		}
		cfg.Tablebase, closeTB = pr, func() { pr.Close() }
	}
	return cfg, closeTB, nil
}

// runMatch plays the match, printing a line a game and the summary.
func runMatch(c *cobra.Command, cfg match.Config, o *matchOptions) error {
	out := c.OutOrStdout()
	var rec *os.File
	if o.record != "" {
		f, done, err := openRecord(o.record, o.resume, &cfg)
		if err != nil {
			return err
		}
		defer f.Close()
		rec, cfg.Record, cfg.Done = f, f, done
		if len(done) > 0 {
			s := match.Tally(done)
			fmt.Fprintf(out, "resumed %s: %d of %d games played, %d-%d-%d\n", o.record, len(done), cfg.Games, s.Wins, s.Draws, s.Losses)
		}
	}
	cfg.Progress = func(g match.Game, s match.Score) {
		fmt.Fprintf(out, "game %d/%d  %s (S) - %s (N)  %-7s %2d-%-2d  %s  %d plies  %.1fs   %d-%d-%d\n",
			g.Index, cfg.Games, g.Names[0], g.Names[1], g.Result, g.Final[0], g.Final[1], g.Reason, g.Plies,
			g.Elapsed.Seconds(), s.Wins, s.Draws, s.Losses)
	}
	res, err := match.Run(c.Context(), cfg)
	if err != nil {
		return err
	}
	printMatch(out, res, cfg.SPRT)
	if res.Stopped == "interrupted" && rec != nil {
		fmt.Fprintf(out, "the same command with --resume plays the %d games %s lacks\n", cfg.Games-len(res.Games), o.record)
	}
	if rec != nil {
		if err := rec.Close(); err != nil {
			return fmt.Errorf("--record: %w", err)
		}
	}
	return nil
}

// openRecord opens the record file: created with the match's header, or
// with resume and a file that exists, its games read back (a last line
// cut by an interruption is cut off the file) and the file opened to
// append the games it lacks.
func openRecord(name string, resume bool, cfg *match.Config) (*os.File, []match.Game, error) {
	data, err := os.ReadFile(name)
	if !resume || errors.Is(err, os.ErrNotExist) {
		f, err := os.Create(name)
		if err == nil {
			err = cfg.WriteHeader(f)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("--record: %w", err)
		}
		return f, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
		if err := os.Truncate(name, int64(len(data))); err != nil {
			return nil, nil, fmt.Errorf("--resume: %w", err)
		}
	}
	done, err := match.ReadRecord(bytes.NewReader(data), cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("--resume %s: %w", name, err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
	}
	return f, done, nil
}

// printMatch writes the summary table.
func printMatch(out io.Writer, res match.Result, test *match.SPRT) {
	s := res.Score
	elo, lo, hi := s.Elo()
	fmt.Fprintf(out, "\n%-24s %5s %5s %5s %6s %6s %7s  %s\n", "engine", "games", "wins", "draws", "losses", "score", "elo", "95%")
	fmt.Fprintf(out, "%-24s %5d %5d %5d %6d %5.1f%% %7s  %s .. %s\n", res.Names[0]+" vs "+res.Names[1], s.Games(),
		s.Wins, s.Draws, s.Losses, 100*s.Ratio(), eloText(elo), eloText(lo), eloText(hi))
	if test != nil {
		l, u := test.Bounds()
		fmt.Fprintf(out, "SPRT elo0 %g, elo1 %g: LLR %.2f (bounds %.2f, %.2f), %s\n", test.Elo0, test.Elo1, test.LLR(s), l, u, test.Verdict(s))
	}
	if res.Stopped != "" {
		fmt.Fprintf(out, "stopped after %d games: %s\n", s.Games(), res.Stopped)
	}
}

func eloText(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	}
	if math.Round(e) == 0 {
		e = 0 // not "-0" for an even score
	}
	return fmt.Sprintf("%+.0f", e)
}
