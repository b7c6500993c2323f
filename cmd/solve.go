package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mancala/position"
	"mancala/solver"
	"mancala/tablebase"
)

type solveOptions struct {
	time    time.Duration
	depth   int
	nodes   uint64
	threads int
	hash    int
	tb      string
	noTB    bool
	memTB   int
	all     bool
	json    bool
}

func newSolveCmd() *cobra.Command {
	opts := &solveOptions{}
	c := &cobra.Command{
		Use:   "solve POS|- [--time D] [--depth N] [--threads N] [--hash MiB] [--tb DIR] [--all] [--json]",
		Short: "Find a position's value and best moves, exactly when the time allows",
		Long: `solve searches a position (rules.md section 6: the score difference in seeds
from the side to move, for the rest of the game; repetition scores 0; the
25-seed stop is not applied) until its value is proven exact or a limit stops
it, and prints the value, whether it is exact, the best moves, the principal
variation, the depth, nodes and nodes per second. A search stopped by --time,
--depth, --nodes or Ctrl-C prints its deepest completed iteration and says the
value is an estimate; proven bounds are printed with it.

--all gives every legal move's value. If the player to move must pass, the pass
is applied at once and the output says so; if the game is over, the value is
the end-of-game share difference.

POS "-" reads positions from stdin, one a line (blank lines and # comments,
whole-line or trailing, skipped), and answers each on one line (JSON lines with --json); --time
applies to each. All lines are checked before any is searched.

A tablebase is used from --tb DIR, or else from the default directory when one
is there.`,
		Example: `  mancala solve akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1 --time 5s --json
  mancala solve djenon-abe:0,0,1,1,0,1/0,0,0,0,1,0:1 --all
  mancala solve - --time 1s < bench/testdata/solve-suite.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runSolve(c.Context(), c.InOrStdin(), c.OutOrStdout(), args[0], opts)
		},
	}
	f := c.Flags()
	f.DurationVar(&opts.time, "time", 10*time.Second, "stop after this long (0: no limit), per position")
	f.IntVar(&opts.depth, "depth", 0, "deepest iteration in plies (0: no limit)")
	f.Uint64Var(&opts.nodes, "nodes", 0, "stop after about this many nodes (0: no limit)")
	f.IntVar(&opts.threads, "threads", runtime.NumCPU(), "search threads")
	f.IntVar(&opts.hash, "hash", 256, "transposition table size in MiB")
	f.StringVar(&opts.tb, "tb", "", "tablebase directory (default: the default directory, if present)")
	f.BoolVar(&opts.noTB, "no-tb", false, "use no tablebase")
	f.IntVar(&opts.memTB, "mem-tb", -1, "for endgames (at most twice N seeds), build a tablebase of N seeds in memory\nwhen none on disk holds as many (0: never; -1: the largest of at most 3 million positions)")
	f.BoolVar(&opts.all, "all", false, "give every legal move's value")
	addJSONFlag(c, &opts.json)
	return c
}

// solveJob is one position to solve, as parsed and settled.
type solveJob struct {
	setup    position.Setup
	passed   bool // the named player had to pass; setup is after the pass
	gameOver bool
}

func runSolve(ctx context.Context, in io.Reader, out io.Writer, arg string, opts *solveOptions) error {
	if err := checkSolveOptions(opts); err != nil {
		return err
	}
	jobs, err := solveJobs(in, arg)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	s, err := solver.New(solver.Options{Threads: opts.threads, HashMiB: opts.hash,
		MaxDepth: opts.depth, MaxNodes: opts.nodes, AllMoves: opts.all})
	if err != nil {
		return err
	}
	tbs := &tablebases{opts: opts, open: map[string]tbHandle{}}
	defer tbs.closeAll()
	for i, job := range jobs {
		res, err := solveOne(ctx, s, tbs, job, opts)
		if err != nil {
			return err
		}
		if err := printSolve(out, res, opts, arg == "-"); err != nil {
			return err
		}
		if ctx.Err() != nil && i+1 < len(jobs) {
			return fmt.Errorf("interrupted after %d of %d positions", i+1, len(jobs))
		}
	}
	return nil
}

// maxHashMiB bounds --hash: 16 GiB, within the memory of the machines this
// tool is run on, so that a typo is an error rather than a crash.
const maxHashMiB = 16 << 10

func checkSolveOptions(opts *solveOptions) error {
	switch {
	case opts.time < 0:
		return fmt.Errorf("--time %v: want 0 or more", opts.time)
	case opts.depth < 0:
		return fmt.Errorf("--depth %d: want 0 or more", opts.depth)
	case opts.threads < 1:
		return fmt.Errorf("--threads %d: want 1 or more", opts.threads)
	case opts.hash < 1 || opts.hash > maxHashMiB:
		return fmt.Errorf("--hash %d: want 1..%d MiB", opts.hash, maxHashMiB)
	case opts.memTB < -1:
		return fmt.Errorf("--mem-tb %d: want -1 (automatic), 0 (never) or a seed count", opts.memTB)
	case opts.noTB && opts.tb != "":
		return errors.New("--tb and --no-tb: give one or the other")
	}
	return nil
}

// solveJobs parses the argument, or every line of stdin for "-", before
// anything is searched, so that bad input prints nothing on stdout.
func solveJobs(in io.Reader, arg string) ([]solveJob, error) {
	if arg != "-" {
		job, err := newSolveJob(arg)
		return []solveJob{job}, err
	}
	var jobs []solveJob
	sc := bufio.NewScanner(in)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		job, err := newSolveJob(text)
		if err != nil {
			return nil, fmt.Errorf("stdin line %d: %w", line, err)
		}
		jobs = append(jobs, job)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	return jobs, nil
}

// newSolveJob parses a position and applies a forced pass (rules.md
// section 0). The 25-seed stop is not applied: values ignore it (rules.md
// section 6).
func newSolveJob(arg string) (solveJob, error) {
	setup, err := parsePosition(arg)
	if err != nil {
		return solveJob{}, err
	}
	job := solveJob{setup: setup}
	var buf [position.MaxPits]position.Move
	switch n := setup.Variant.Moves(setup.Position, &buf); {
	case n == 0:
		job.gameOver = true
	case buf[0].IsPass():
		job.passed = true
		job.setup.Position = buf[0].Next
	}
	return job, nil
}

// solveResult is the output for one position; field names as notation.md.
type solveResult struct {
	Position       string      `json:"position"`
	Passed         bool        `json:"passed,omitempty"`
	PassedPlayer   int         `json:"-"`
	GameOver       bool        `json:"game_over"`
	Value          int         `json:"value"`
	Exact          bool        `json:"exact"`
	Lower          int         `json:"lower_bound"`
	Upper          int         `json:"upper_bound"`
	BestMoves      []any       `json:"best_moves"`
	Moves          []solveMove `json:"moves,omitempty"`
	PV             []any       `json:"pv"`
	Depth          int         `json:"depth"`
	Nodes          uint64      `json:"nodes"`
	Seconds        float64     `json:"seconds"`
	NodesPerSecond float64     `json:"nodes_per_second"`
	Threads        int         `json:"threads"`
	Stopped        string      `json:"stopped"`
	Tablebase      bool        `json:"tablebase"`
	TablebaseSeeds int         `json:"tablebase_seeds,omitempty"`
	// TablebaseInMemory: the tablebase was built in memory for this run.
	TablebaseInMemory bool   `json:"tablebase_in_memory,omitempty"`
	TablebaseHits     uint64 `json:"tablebase_hits,omitempty"`
}

// solveMove is one legal move's value in --all output.
type solveMove struct {
	Move     any  `json:"move"`
	Value    int  `json:"value"`
	Captured int  `json:"captured"`
	Exact    bool `json:"exact"`
	Lower    int  `json:"lower_bound"`
	Upper    int  `json:"upper_bound"`
}

func solveOne(ctx context.Context, s *solver.Solver, tbs *tablebases, job solveJob, opts *solveOptions) (solveResult, error) {
	v, p := job.setup.Variant, job.setup.Position
	out := solveResult{Position: job.setup.String(), Passed: job.passed, PassedPlayer: 3 - p.Player(),
		GameOver: job.gameOver, BestMoves: []any{}, PV: []any{}, Threads: s.Options().Threads}
	tb, err := tbs.get(v)
	if err != nil {
		return out, err
	}
	if mem, err := tbs.memory(ctx, v, p, tb); err != nil {
		return out, err
	} else if mem != nil {
		tb, out.TablebaseInMemory = mem, true
	}
	if tb != nil {
		out.Tablebase, out.TablebaseSeeds = true, tb.MaxSeeds()
	}
	sopts := s.Options()
	sopts.Tablebase = tb
	searcher, err := solverFor(s, sopts)
	if err != nil {
		return out, err
	}
	if opts.time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.time)
		defer cancel()
	}
	res, err := searcher.Search(ctx, v, p)
	if err != nil {
		return out, err
	}
	fillSolveResult(&out, res)
	return out, nil
}

// solverFor returns s if it already has the tablebase wanted, else a new
// Solver with it. The table is kept per Solver, so a run over many
// positions of one variant shares it.
func solverFor(s *solver.Solver, opts solver.Options) (*solver.Solver, error) {
	if s.Options().Tablebase == opts.Tablebase {
		return s, nil
	}
	return solver.New(opts)
}

func fillSolveResult(out *solveResult, res solver.Result) {
	out.Value, out.Exact, out.Lower, out.Upper = res.Value, res.Exact, res.Lower, res.Upper
	out.Depth, out.Nodes, out.Seconds = res.Depth, res.Nodes, res.Elapsed.Seconds()
	out.TablebaseHits, out.Stopped = res.TablebaseHits, string(res.Stop)
	if out.Seconds > 0 {
		out.NodesPerSecond = float64(res.Nodes) / out.Seconds
	}
	for _, pit := range res.BestMoves {
		out.BestMoves = append(out.BestMoves, moveJSON(pit))
	}
	for _, pit := range res.PV {
		out.PV = append(out.PV, moveJSON(pit))
	}
	for _, m := range res.Moves {
		out.Moves = append(out.Moves, solveMove{Move: moveJSON(m.Move), Value: m.Value,
			Captured: m.Captured, Exact: m.Exact, Lower: m.Lower, Upper: m.Upper})
	}
}

func printSolve(out io.Writer, res solveResult, opts *solveOptions, oneLine bool) error {
	switch {
	case opts.json && oneLine:
		return json.NewEncoder(out).Encode(res)
	case opts.json:
		return writeJSON(out, res)
	case oneLine:
		return printSolveLine(out, res)
	}
	return printSolveText(out, res)
}

// printSolveText is the multi-line report for one position.
func printSolveText(out io.Writer, res solveResult) error {
	fmt.Fprintln(out, res.Position)
	if res.Passed {
		fmt.Fprintln(out, passNote(res.PassedPlayer))
	}
	if res.GameOver {
		fmt.Fprintf(out, "game over: value %+d (exact)\n", res.Value)
		return nil
	}
	fmt.Fprintf(out, "value: %+d (%s)\n", res.Value, exactness(res))
	fmt.Fprintf(out, "best moves: %s\n", moveList(res.BestMoves))
	for _, m := range res.Moves {
		fmt.Fprintf(out, "  move %v: %+d%s (captures %d)\n", m.Move, m.Value, boundNote(m), m.Captured)
	}
	fmt.Fprintf(out, "pv: %s\n", moveList(res.PV))
	fmt.Fprintf(out, "depth %d, %d nodes, %.3f s, %.2f Mnodes/s, %d threads\n",
		res.Depth, res.Nodes, res.Seconds, res.NodesPerSecond/1e6, res.Threads)
	if res.Tablebase {
		where := ""
		if res.TablebaseInMemory {
			where = ", built in memory"
		}
		fmt.Fprintf(out, "tablebase: up to %d seeds%s (%d hits)\n", res.TablebaseSeeds, where, res.TablebaseHits)
	}
	return nil
}

// printSolveLine is the one-line answer for stdin mode.
func printSolveLine(out io.Writer, res solveResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", res.Position)
	if res.Passed {
		b.WriteString(" passed")
	}
	if res.GameOver {
		fmt.Fprintf(&b, " game over value %+d exact\n", res.Value)
		_, err := io.WriteString(out, b.String())
		return err
	}
	fmt.Fprintf(&b, " value %+d (%s) best %s pv %s depth %d nodes %d seconds %.3f\n",
		res.Value, exactness(res), moveList(res.BestMoves),
		moveList(res.PV), res.Depth, res.Nodes, res.Seconds)
	_, err := io.WriteString(out, b.String())
	return err
}

// exactness says whether the value is exact, and if not why the search
// stopped and what is proven.
func exactness(res solveResult) string {
	if res.Exact {
		if res.Stopped != string(solver.StopExact) {
			return fmt.Sprintf("exact; search stopped (%s) before every best move was found", res.Stopped)
		}
		return "exact"
	}
	return fmt.Sprintf("not exact: an estimate, search stopped (%s); proven %+d..%+d", res.Stopped, res.Lower, res.Upper)
}

func boundNote(m solveMove) string {
	if m.Exact {
		return ""
	}
	return fmt.Sprintf(" (estimate; proven %+d..%+d)", m.Lower, m.Upper)
}

func moveList(moves []any) string {
	if len(moves) == 0 {
		return "-"
	}
	parts := make([]string, len(moves))
	for i, m := range moves {
		parts[i] = fmt.Sprint(m)
	}
	return strings.Join(parts, ",")
}

// tbHandle is an open tablebase and its closer.
type tbHandle struct {
	tb    solver.Tablebase
	close func() error
}

// tablebases opens each variant's tablebase once, on first use, and builds
// in-memory ones for endgames.
type tablebases struct {
	opts  *solveOptions
	open  map[string]tbHandle
	built map[string]*tablebase.Memory
}

// memoryPositions bounds the default in-memory tablebase: about half a
// second to build on two cores, a few tens of MB while it builds.
const memoryPositions = 3_000_000

// memory returns an in-memory tablebase of v for an endgame position p
// (at most twice --mem-tb seeds) when disk (on disk, or nil) holds fewer
// layers; else nil. It is built once per variant.
func (t *tablebases) memory(ctx context.Context, v *position.Variant, p position.Position, disk solver.Tablebase) (solver.Tablebase, error) {
	seeds := t.opts.memTB
	if seeds < 0 {
		seeds = 0
		for seeds < v.Total() && tablebase.MemoryPositions(v, seeds+1) <= memoryPositions {
			seeds++
		}
	}
	if t.opts.noTB || seeds == 0 || p.Seeds() > 2*seeds || (disk != nil && disk.MaxSeeds() >= seeds) || !tablebase.Supports(v) {
		return nil, nil
	}
	if m := t.built[v.Name]; m != nil {
		return m, nil
	}
	m, err := tablebase.BuildMemory(ctx, v, seeds, t.opts.threads)
	if err != nil {
		return nil, fmt.Errorf("--mem-tb %d: %w", seeds, err)
	}
	if t.built == nil {
		t.built = map[string]*tablebase.Memory{}
	}
	t.built[v.Name] = m
	return m, nil
}

// get returns v's tablebase: from --tb (an error if it cannot be opened),
// else from the default directory when there is one (silently none if
// it cannot be opened), else nil.
func (t *tablebases) get(v *position.Variant) (solver.Tablebase, error) {
	if h, ok := t.open[v.Name]; ok {
		return h.tb, nil
	}
	dir, explicit := t.opts.tb, t.opts.tb != ""
	if !explicit && !t.opts.noTB {
		dir = tablebase.DefaultDir()
	}
	var h tbHandle
	if !t.opts.noTB && dir != "" && tablebase.Supports(v) {
		tb, err := tablebase.OpenProber(dir, v)
		if err == nil && tb.MaxSeeds() < 0 {
			tb.Close()
			err = fmt.Errorf("it holds no %s layers (build them with `mancala build %s --max-seeds N`)", v.Name, v.Name)
		}
		if err != nil && explicit {
			return nil, fmt.Errorf("--tb %s: %w", dir, err)
		}
		if err == nil {
			h = tbHandle{tb: tb, close: tb.Close}
		}
	}
	t.open[v.Name] = h
	return h.tb, nil
}

func (t *tablebases) closeAll() {
	for _, h := range t.open {
		if h.close != nil {
			_ = h.close()
		}
	}
}
