package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// Options configure a Solver. The zero value is usable: every field's zero
// selects the default noted.
type Options struct {
	// Threads is the number of search goroutines (docs/solver-design.md,
	// "Threads": Lazy SMP, or in kalah shared probes); 0 means
	// runtime.NumCPU().
	Threads int
	// HashMiB is the transposition table's largest size in MiB (2^20
	// bytes), rounded down to a power of two; 0 means DefaultHashMiB. The
	// table starts at 16 MiB (or HashMiB if less) and doubles as the
	// searches fill it, so memory is taken as it is needed.
	HashMiB int
	// MaxDepth is the deepest iteration, in plies (a pass is a ply); 0
	// means no limit but MaxPly.
	MaxDepth int
	// MaxNodes stops the search for the value after about this many
	// nodes, all threads together; 0 means no limit. Once the value is
	// proven, deciding which moves reach it gets as many nodes again, so
	// that the best moves found seldom depend on the thread count.
	MaxNodes uint64
	// Tablebase gives exact values of positions with few seeds; nil means
	// none.
	Tablebase Tablebase
	// AllMoves asks for every root move's value (Result.Moves), not only
	// the position's value and best moves.
	AllMoves bool
	// Estimate selects the horizon estimate; the zero value is
	// EstimateAuto. It changes estimates and search order, never a
	// proven value.
	Estimate Estimate
	// Play tunes the search for playing a move rather than proving a
	// value (mancala engine), as game-playing programs search: estimates
	// cross lines (a node with earlier positions of its layer before it
	// also takes the estimates of its board entry and leaves its own
	// there, so that transpositions within a layer share more than proven
	// bounds and moves; docs/solver-design.md, "Repetitions and the
	// transposition table"), and nodes within two plies of the horizon neither probe
	// nor fill the table, which saves a cache miss on most nodes. It
	// never changes a proven value; proofs may take longer.
	Play bool
	// EstimateTablebase serves a variant whose repetitions are not worth
	// 0 (oware-own), which no tablebase holds: it is a tablebase of the
	// variant's position.Variant.NeutralTwin (oware), and a position it
	// holds is estimated by its value there, with no search below it and
	// never as proven. The two games differ only where a position repeats,
	// so the value is a close estimate (docs/solver-design.md, "Searching
	// for play"), for play and analysis alike. Ignored for other variants.
	EstimateTablebase Tablebase
}

const (
	// DefaultHashMiB is the table size used when Options.HashMiB is 0.
	DefaultHashMiB = 64
	// MaxPly is the deepest any search goes: the length of the longest
	// line the search can follow.
	MaxPly = 8000
)

// MoveValue is the value of one legal move of the root (rules.md section
// 6): the seeds it captures minus the value of the position it leads to.
type MoveValue struct {
	Move     int  // pit 1..Pits on the mover's row, or position.PassPit
	Captured int  // seeds the move captures
	Value    int  // the exact value if Exact, else the deepest estimate
	Exact    bool // Value is proven
	// Lower and Upper are proven bounds on the value (equal when Exact).
	Lower, Upper int
}

// StopReason says why a search ended.
type StopReason string

// The reasons a search ends.
const (
	StopExact    StopReason = "exact"       // the value is proven, and the best moves
	StopOneBest  StopReason = "one best"    // the value is proven, and one best move (Request.OneBest)
	StopGameOver StopReason = "game over"   // the position has no moves
	StopDepth    StopReason = "depth limit" // Options.MaxDepth reached, or MaxPly
	StopNodes    StopReason = "node limit"  // Options.MaxNodes reached
	StopTime     StopReason = "time limit"  // the context's deadline passed
	StopCanceled StopReason = "canceled"    // the context was canceled (Ctrl-C)
)

// Result is what a search found. Values are score differences in seeds
// from the side to move of the searched position, for the rest of the game
// (rules.md section 6), in -S..S for S seeds on the board.
type Result struct {
	// Value is the position's value: proven if Exact, else the estimate
	// of the deepest completed iteration.
	Value int
	// Exact: Value is proven, every leaf behind it being a game end, a
	// repetition or a tablebase value.
	Exact bool
	// Lower and Upper are proven bounds on the value, equal when Exact.
	Lower, Upper int
	// GameOver: the position has no moves; Value is its terminal value.
	GameOver bool
	// BestMoves are moves that achieve Value, in pit order (a pass is
	// PassPit). When Exact and BestMovesComplete it is every such move;
	// when Exact and not complete, the moves proven to reach Value (with
	// Request.OneBest, often just one); when not Exact it is every move
	// whose estimate equals Value with AllMoves, else the deepest
	// iteration's best move alone.
	BestMoves         []int
	BestMovesComplete bool
	// Moves has every legal move's value, in pit order, when
	// Options.AllMoves is set.
	Moves []MoveValue
	// PV is the principal variation, pits and passes, read from the
	// transposition table; it may stop early.
	PV []int
	// Depth is the deepest completed iteration, in plies.
	Depth int
	// Nodes is the number of positions searched, all threads together.
	Nodes uint64
	// TablebaseHits counts successful tablebase probes.
	TablebaseHits uint64
	// Elapsed is the wall-clock time of the search.
	Elapsed time.Duration
	// Stop says why the search ended.
	Stop StopReason
}

// Solver searches positions. It keeps its transposition table from one
// search to the next, so a series of positions is solved faster with one
// Solver than with one Search call each. A Solver is not safe for
// concurrent use; each Search uses Options.Threads goroutines itself.
type Solver struct {
	opts  Options
	table *table
	now   func() time.Time // the clock the threads read for a deadline; tests set their own
	// weights are the tuned estimate's in fixed point, set by
	// SetWeights; nil: each variant's committed ones (committedWeights).
	weights *[nFeatures]int32
	// threadNodes is each thread's node count in the last search: how
	// the threads shared it (BenchmarkKalahThreads).
	threadNodes []uint64
}

// MaxThreads bounds Options.Threads: a search starts every thread before
// it reads its clock, so that a count beyond any machine's (a typo, or
// 2^63-1) would spend its time limit, and the memory of each thread's
// stacks and tables, starting threads instead of answering.
const MaxThreads = 1024

// ThreadsPerCore bounds the threads a user may ask for: more workers than
// this many per core only add scheduling, memory (each search thread has
// its own stacks and tables) and lock traffic, never speed.
const ThreadsPerCore = 4

// MachineThreads is the most threads a user may ask for on this machine:
// ThreadsPerCore per core (runtime.NumCPU), at most MaxThreads. It is the
// one limit of the commands' --threads and the engine's Threads option.
func MachineThreads() int { return min(ThreadsPerCore*runtime.NumCPU(), MaxThreads) }

// New returns a Solver with the given options. It returns an error for a
// negative option, more than MaxThreads threads, or an unknown Estimate.
func New(opts Options) (*Solver, error) {
	if opts.Threads < 0 || opts.HashMiB < 0 || opts.MaxDepth < 0 {
		return nil, fmt.Errorf("solver: negative option (threads %d, hash %d MiB, depth %d)",
			opts.Threads, opts.HashMiB, opts.MaxDepth)
	}
	if opts.Threads > MaxThreads {
		return nil, fmt.Errorf("solver: %d threads: want at most %d", opts.Threads, MaxThreads)
	}
	if opts.Estimate > EstimateTuned {
		return nil, fmt.Errorf("solver: unknown estimate %d", opts.Estimate)
	}
	if opts.Threads == 0 {
		opts.Threads = runtime.NumCPU()
	}
	if opts.HashMiB == 0 {
		opts.HashMiB = DefaultHashMiB
	}
	if opts.MaxDepth == 0 || opts.MaxDepth > MaxPly {
		opts.MaxDepth = MaxPly
	}
	return &Solver{opts: opts, table: newTable(opts.HashMiB), now: time.Now}, nil
}

// Options returns the options in force, defaults filled in.
func (s *Solver) Options() Options { return s.opts }

// Clear empties the transposition table.
func (s *Solver) Clear() { s.table.clear() }

// Request is one search's own settings, beside the Solver's Options.
type Request struct {
	// History is the game's line before p since its last capture, oldest
	// first: a move back to one of these positions repeats it, which ends
	// the game with the board's seeds counting for nobody (rules.md
	// section 0). Positions with another seed count than p cannot repeat
	// and are ignored. Empty means p starts its layer (the values a
	// tablebase stores).
	History []position.Position
	// AllMoves asks for every root move's value, as Options.AllMoves does
	// (either one suffices).
	AllMoves bool
	// MaxNodes, when not 0, replaces Options.MaxNodes for this search.
	MaxNodes uint64
	// MaxDepth, when not 0, lowers Options.MaxDepth for this search.
	MaxDepth int
	// Progress, when not nil, is called each time an iteration deeper
	// than any before completes, from one search thread at a time; it must
	// return quickly.
	Progress func(Progress)
	// OneBest stops once the value is proven, with the moves proven to
	// reach it then (at least one; Result.BestMovesComplete false unless
	// every other move was proven to miss it on the way), as Irving's
	// solver does: it skips the null-window probes of the other moves
	// that decide whether they reach the value too. Ignored with
	// AllMoves.
	OneBest bool
	// NoEstimateTablebase searches without Options.EstimateTablebase: its
	// estimates end lines that a search could prove, so that a small
	// endgame is proven only without it.
	NoEstimateTablebase bool
}

// Progress is one completed iteration of a search: how a long search is
// going. Values are as in Result.
type Progress struct {
	Depth int // the iteration's depth
	// Value is the iteration's value: an estimate, clipped to the proven
	// bounds, exact when Lower == Upper.
	Value        int
	BestMove     int // the iteration's best move: its pit, or position.PassPit
	Lower, Upper int // proven bounds on the position's value so far
	Nodes        uint64
	Elapsed      time.Duration
}

// SetTablebase makes later searches use tb (nil: none). The table is
// kept: what it proved holds with any tablebase. Not safe during a search.
func (s *Solver) SetTablebase(tb Tablebase) { s.opts.Tablebase = tb }

// Search finds the value of p (rules.md section 6) and its best moves,
// deepening until the value is proven or a limit stops it: the context
// (deadline, cancellation), Options.MaxDepth or Options.MaxNodes. A stopped
// search is not an error: it returns the deepest completed iteration with
// Exact false (unless the value was proven by then), and Stop says why. The
// first iteration always completes, so a position with moves always gets a
// legal best move. p must have at most v.Total() seeds, else an error.
func (s *Solver) Search(ctx context.Context, v *position.Variant, p position.Position) (Result, error) {
	return s.SearchRequest(ctx, v, p, Request{})
}

// SearchRequest is Search with a request's history and limits: the value
// found is p's value after the positions of r.History (a repetition of
// one of them scores 0), which can lie between 0 and the value Search
// gives, never beyond it (solver doc, fact 2).
func (s *Solver) SearchRequest(ctx context.Context, v *position.Variant, p position.Position, r Request) (Result, error) {
	if v == nil {
		return Result{}, errors.New("solver: nil variant")
	}
	if seeds := p.Seeds(); seeds > v.Total() {
		return Result{}, fmt.Errorf("solver: %s position with %d seeds, at most %d", v.Name, seeds, v.Total())
	}
	start := time.Now()
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	if n == 0 {
		val := v.TerminalValue(p)
		return Result{Value: val, Exact: true, Lower: val, Upper: val, GameOver: true,
			BestMovesComplete: true, Stop: StopGameOver, Elapsed: time.Since(start)}, nil
	}
	s.table.gen++
	if v.CanRepeat() || s.opts.Threads > 1 {
		s.table.stopFilter() // one thread's kalah only (table.filterOn)
	}
	opts := s.opts
	opts.AllMoves = opts.AllMoves || r.AllMoves
	if r.MaxNodes > 0 {
		opts.MaxNodes = r.MaxNodes
	}
	if r.MaxDepth > 0 {
		opts.MaxDepth = min(opts.MaxDepth, r.MaxDepth)
	}
	if r.NoEstimateTablebase {
		opts.EstimateTablebase = nil
	}
	sr := newSearch(s, v, p, buf[:n], opts, r.History)
	sr.oneBest = r.OneBest && !opts.AllMoves
	sr.start, sr.progress, sr.now = start, r.Progress, s.now
	sr.run(ctx)
	s.threadNodes = sr.threadNodes
	res := sr.result()
	res.Elapsed = time.Since(start)
	return res, nil
}

// Search is New(opts) followed by one Search: a convenience for a single
// position.
func Search(ctx context.Context, v *position.Variant, p position.Position, opts Options) (Result, error) {
	s, err := New(opts)
	if err != nil {
		return Result{}, err
	}
	return s.Search(ctx, v, p)
}
