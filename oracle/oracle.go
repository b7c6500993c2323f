package oracle

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// Config configures an Oracle. The zero value is usable.
type Config struct {
	// TBDir is the tablebase directory; "" means tablebase.DefaultDir(),
	// used only when it holds the variant's layers. An explicit TBDir that
	// cannot be opened, or that holds none of a variant's layers, is an
	// error (a *tablebase.MissingError for the latter) unless TBOptional.
	TBDir string
	// TBOptional: a variant whose layers an explicit TBDir lacks is served
	// without a tablebase on disk, as with the default directory, rather
	// than being an error; a directory that is damaged or not a tablebase
	// is still one. A server that plays every variant wants this.
	TBOptional bool
	// NoTB disables every tablebase, on disk and in memory.
	NoTB bool
	// MemTBSeeds is the largest seed count of the tablebase built in
	// memory for endgames of at most twice as many seeds, when none on
	// disk holds as many: MemTBAuto (-1) means the largest of at most
	// MemoryPositions positions, 0 never. The same numbers as the
	// commands' --mem-tb flag.
	MemTBSeeds int
	// Threads is the number of search threads; 0 means runtime.NumCPU().
	Threads int
	// HashMiB is each variant's transposition table size in MiB (one
	// table per variant used, allocated on its first search); 0 means
	// solver.DefaultHashMiB.
	HashMiB int
	// TBCacheBytes bounds the decoded blocks kept by each tablebase read
	// from disk, in bytes (values and distances apart); 0 means
	// DefaultTBCacheBytes.
	TBCacheBytes int64
	// TBLoadSeeds reads the values of layers 0..TBLoadSeeds of each
	// tablebase on disk into memory when it is opened (-1: every layer;
	// 0: none, blocks are read and cached as probes need them; TBLoadFit:
	// as many as fit in TBLoadBudget), one byte a position
	// (tablebase.Prober.Load); the commands' --load-tb flag.
	// A deep search probes all over the top layers, and with them loaded
	// a probe is one memory read instead of a block decoded again.
	TBLoadSeeds int
	// Play makes every search one for playing a move (solver.Options.Play),
	// as the engine's are. Play or not, a variant whose repetitions are
	// not worth 0 (oware-own), which has no tablebase of its own
	// (tablebase.Buildable), takes its neutral twin's tablebase on disk
	// (oware's, position.Variant.NeutralTwin) as estimates
	// (solver.Options.EstimateTablebase), never as values.
	Play bool
}

// DefaultTBCacheBytes is the default Config.TBCacheBytes: an eighth of
// the memory a build may use (tablebase.DefaultMemBytes, itself 3/4 of the
// machine's or cgroup's), at least tablebase.DefaultCacheBytes. On a
// 24 GiB machine that is 2.2 GiB, all of a 24-seed kalah tablebase's
// values: a search probes the same top layers over and over, and a block
// decoded again costs a thousand cached probes.
func DefaultTBCacheBytes() int64 {
	return max(tablebase.DefaultMemBytes()/8, tablebase.DefaultCacheBytes)
}

// TBLoadFit is Config.TBLoadSeeds for the layers that fit in
// TBLoadBudget: the engine's choice, so that a deeper tablebase on disk is
// used in memory as far as the machine allows.
const TBLoadFit = -2

// TBLoadBudget is the memory the layers loaded under TBLoadFit may take:
// an eighth of what a build may use (tablebase.DefaultMemBytes), 2.2 GiB
// on a 24 GiB machine, which holds oware to 24 seeds (1.25 G positions);
// the machine that built a tablebase can hold its top layers this way.
func TBLoadBudget() int64 { return tablebase.DefaultMemBytes() / 8 }

// MemTBAuto is Config.MemTBSeeds (and --mem-tb) for an in-memory
// tablebase of the automatic size.
const MemTBAuto = -1

// MemoryPositions bounds the automatic in-memory tablebase: about half a
// second to build on two cores, a few tens of MB while it builds.
const MemoryPositions = 3_000_000

// Oracle answers positions and games. See the package doc for what it
// shares between calls and how it locks.
type Oracle struct {
	cfg      Config
	explicit bool // cfg.TBDir was given and not TBOptional: failing to open it is an error

	mu       sync.Mutex
	variants map[string]*variantState

	// builds is the context of in-memory tablebase builds, canceled by
	// Close.
	builds     context.Context
	stopBuilds context.CancelFunc
}

// variantState is what the Oracle keeps for one variant.
type variantState struct {
	v *position.Variant

	diskOnce sync.Once
	disk     *tablebase.Prober // nil: none
	diskErr  error
	loaded   tablebase.Loaded // the disk tablebase's layers in memory (Config.TBLoadSeeds)
	loadTime time.Duration    // how long reading them took

	buildMu  sync.Mutex
	memBuilt chan struct{} // closed when the in-memory build ends; nil until started
	mem      *tablebase.Memory
	memErr   error

	// solverSem (weight 1) is the lock of solver and tableTime, a
	// semaphore rather than a mutex so that a call waiting for another's
	// search leaves when its context ends (takeSolver).
	solverSem *semaphore.Weighted
	solver    *solver.Solver
	tableTime time.Duration // how long making the solver (its table) took
	waiting   func()        // when not nil, called as a call starts to wait for the solver (tests)
}

// Open returns an Oracle for cfg. Tablebases are opened and solvers made
// lazily, per variant, on first use. It returns an error for an invalid
// configuration.
func Open(cfg Config) (*Oracle, error) {
	switch {
	case cfg.Threads < 0 || cfg.Threads > solver.MaxThreads:
		return nil, fmt.Errorf("threads %d: want 0 (all cores) to %d", cfg.Threads, solver.MaxThreads)
	case cfg.HashMiB < 0:
		return nil, fmt.Errorf("hash %d MiB: want 0 (default) or more", cfg.HashMiB)
	case cfg.MemTBSeeds < MemTBAuto:
		return nil, fmt.Errorf("in-memory tablebase %d seeds: want -1 (automatic), 0 (never) or a seed count", cfg.MemTBSeeds)
	case cfg.TBLoadSeeds < TBLoadFit:
		return nil, fmt.Errorf("tablebase layers to load %d: want -2 (as many as fit), -1 (all), 0 (none) or a seed count", cfg.TBLoadSeeds)
	case cfg.NoTB && cfg.TBDir != "":
		return nil, errors.New("a tablebase directory and no tablebase: give one or the other")
	}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.NumCPU()
	}
	o := &Oracle{cfg: cfg, explicit: cfg.TBDir != "" && !cfg.TBOptional, variants: map[string]*variantState{}}
	o.builds, o.stopBuilds = context.WithCancel(context.Background())
	if o.cfg.TBDir == "" && !cfg.NoTB {
		o.cfg.TBDir = tablebase.DefaultDir()
	}
	return o, nil
}

// Close releases every tablebase opened. The Oracle must not be used
// afterwards.
func (o *Oracle) Close() error {
	o.stopBuilds()
	o.mu.Lock()
	defer o.mu.Unlock()
	var errs []error
	for _, vs := range o.variants {
		vs.diskOnce.Do(func() {}) // no open after Close
		if vs.disk != nil {
			errs = append(errs, vs.disk.Close())
			vs.disk = nil
		}
	}
	return errors.Join(errs...)
}

// Threads returns the number of search threads in use.
func (o *Oracle) Threads() int { return o.cfg.Threads }

// variant returns v's state, adding it on first use.
func (o *Oracle) variant(v *position.Variant) *variantState {
	o.mu.Lock()
	defer o.mu.Unlock()
	vs := o.variants[v.Name]
	if vs == nil {
		vs = &variantState{v: v, solverSem: semaphore.NewWeighted(1)}
		o.variants[v.Name] = vs
	}
	return vs
}

// diskTablebase returns v's tablebase on disk, nil when there is none. It
// is an error only when Config.TBDir was given and cannot be opened or
// holds no layers of v (a *tablebase.MissingError), and, with TBOptional,
// only when it cannot be opened for another reason than a missing
// tablebase.
func (o *Oracle) diskTablebase(vs *variantState) (*tablebase.Prober, error) {
	return o.openDisk(o.builds, vs)
}

// openDisk is diskTablebase, with ctx bounding the load of its layers
// into memory (Config.TBLoadSeeds) when this call opens it: cancelled,
// the tablebase serves unloaded and ctx's error is returned.
func (o *Oracle) openDisk(ctx context.Context, vs *variantState) (*tablebase.Prober, error) {
	var loadErr error
	vs.diskOnce.Do(func() {
		if o.cfg.NoTB || o.cfg.TBDir == "" || tablebase.Buildable(vs.v) != nil {
			return // none, or none can exist: a twin's serves as estimates (estimateTablebase)
		}
		pr, err := tablebase.OpenProber(o.cfg.TBDir, vs.v)
		if err == nil && pr.MaxSeeds() < 0 {
			pr.Close()
			pr, err = nil, tablebase.Missing(o.cfg.TBDir, vs.v)
		}
		if err != nil {
			if o.explicit || o.cfg.TBDir != "" && o.cfg.TBOptional && !errors.Is(err, ErrNoTablebase) {
				vs.diskErr = err
			}
			return
		}
		cache := o.cfg.TBCacheBytes
		if cache <= 0 {
			cache = DefaultTBCacheBytes()
		}
		pr.SetCacheBytes(cache)
		vs.disk = pr
		vs.loaded = tablebase.Loaded{MaxSeeds: -1}
		if o.cfg.TBLoadSeeds != 0 {
			loadErr = o.load(ctx, vs)
		}
	})
	if vs.diskErr != nil {
		return nil, vs.diskErr
	}
	return vs.disk, loadErr
}

// load reads the layers Config.TBLoadSeeds asks for of vs's tablebase on
// disk into memory. Damage found makes the tablebase an error, as damage
// found opening it is; cancellation leaves it serving unloaded.
func (o *Oracle) load(ctx context.Context, vs *variantState) error {
	start := time.Now()
	seeds := o.cfg.TBLoadSeeds
	if seeds == TBLoadFit {
		if seeds = vs.disk.SeedsWithin(TBLoadBudget()); seeds < 0 {
			return nil
		}
	}
	loaded, err := vs.disk.Load(ctx, seeds, o.cfg.Threads)
	vs.loaded, vs.loadTime = loaded, time.Since(start)
	if err != nil && ctx.Err() == nil {
		vs.disk.Close()
		vs.disk, vs.diskErr = nil, err
	}
	return err
}

// memSeeds is the seed count of v's in-memory tablebase, 0 for none.
func (o *Oracle) memSeeds(v *position.Variant) int {
	switch {
	case o.cfg.NoTB || o.cfg.MemTBSeeds == 0 || v.Repetition != position.RepetitionNobody:
		return 0 // none, or a variant without tablebases (tablebase.Build)
	case o.cfg.MemTBSeeds > 0:
		return min(o.cfg.MemTBSeeds, v.Total())
	}
	seeds := 0
	for seeds < v.Total() && tablebase.MemoryPositions(v, seeds+1) <= MemoryPositions {
		seeds++
	}
	return seeds
}

// served is the tablebase that serves a position, and how.
type served struct {
	tb       solver.Tablebase // nil: none
	inMemory bool
	prober   *tablebase.Prober // the disk tablebase, for its read errors
}

// tablebaseFor returns the tablebase for p: the one on disk, or one built
// in memory when the disk holds fewer layers, for an endgame (at most
// twice the in-memory seed count) or, with reach > 0 (a proof within
// reach, SolveOptions.Reach), for any p (memServing). The build starts with the first call
// that needs it and runs once per process and variant; a call waits for it
// for at most half the time left before ctx's deadline (its time limit
// covers the wait), and is then served by the disk tablebase or none while
// the build goes on for later calls.
func (o *Oracle) tablebaseFor(ctx context.Context, vs *variantState, p position.Position, reach int) (served, error) {
	disk, err := o.diskTablebase(vs)
	if err != nil {
		return served{}, err
	}
	var s served
	if disk != nil {
		s = served{tb: disk, prober: disk}
	}
	seeds := o.memServing(vs, disk, p, reach)
	switch {
	case seeds == 0:
		return s, nil
	case disk != nil && p.Seeds() <= disk.MaxSeeds():
		return s, nil // the disk holds p itself
	}
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		// Keep half the time for the answer itself, should the build
		// (slow on a busy machine) not finish in the other half.
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(ctx, time.Until(deadline)/2)
		defer cancel()
	}
	select {
	case <-o.startBuild(vs, seeds):
		if vs.memErr != nil {
			if o.builds.Err() != nil {
				return s, nil // closing
			}
			return served{}, fmt.Errorf("in-memory tablebase of %d seeds: %w", seeds, vs.memErr)
		}
		return served{tb: vs.mem, inMemory: true}, nil
	case <-wait.Done():
		return s, nil // out of time: answer without it
	}
}

// memServing is the seed count of the in-memory tablebase that serves p
// beside disk (nil: none), 0 for none: v's (memNeeded) when p is an
// endgame of at most twice as many seeds; under a proof within reach
// (reach > 0 seeds, SolveOptions.Reach) the larger of v's and reach's
// for any p, unless the disk holds reach's layers.
func (o *Oracle) memServing(vs *variantState, disk *tablebase.Prober, p position.Position, reach int) int {
	seeds := o.memNeeded(vs, disk)
	switch {
	case reach > 0 && (disk == nil || disk.MaxSeeds() < reach):
		return max(seeds, reach)
	case p.Seeds() > 2*seeds:
		return 0
	}
	return seeds
}

// memNeeded is the seed count of the in-memory tablebase that serves v's
// endgames beside disk (nil: none), 0 when none does: when the disk holds
// as many seeds, or none is to be built.
func (o *Oracle) memNeeded(vs *variantState, disk *tablebase.Prober) int {
	seeds := o.memSeeds(vs.v)
	if disk != nil && disk.MaxSeeds() >= seeds {
		return 0
	}
	return seeds
}

// Warm readies what serves v's positions now rather than on a first
// call: it opens v's tablebase on disk and builds the in-memory one that
// serves v's endgames beside it (Config.MemTBSeeds), waiting for the
// build without a time limit. It returns the error a call would meet
// (a tablebase that cannot be opened, a failed build), or ctx's error
// when ctx ends first; the build then goes on for later calls.
func (o *Oracle) Warm(ctx context.Context, v *position.Variant) error {
	vs := o.variant(v)
	disk, err := o.diskTablebase(vs)
	if err != nil {
		return err
	}
	seeds := o.memNeeded(vs, disk)
	if seeds == 0 {
		return nil
	}
	select {
	case <-o.startBuild(vs, seeds):
		if vs.memErr != nil {
			return fmt.Errorf("in-memory tablebase of %d seeds: %w", seeds, vs.memErr)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// memPending reports whether p would be served by v's in-memory
// tablebase, whatever the disk holds (reach as for tablebaseFor: any p
// under a proof within reach), and that has not been built yet.
func (o *Oracle) memPending(vs *variantState, p position.Position, reach int) bool {
	seeds := o.memSeeds(vs.v)
	if reach == 0 && (seeds == 0 || p.Seeds() > 2*seeds) {
		return false
	}
	vs.buildMu.Lock()
	started := vs.memBuilt
	vs.buildMu.Unlock()
	if started == nil {
		return true
	}
	select {
	case <-started:
		return false
	default:
		return true
	}
}

// startBuild starts v's in-memory build if it has not started, and
// returns the channel closed when it ends.
func (o *Oracle) startBuild(vs *variantState, seeds int) <-chan struct{} {
	vs.buildMu.Lock()
	defer vs.buildMu.Unlock()
	if vs.memBuilt == nil {
		done := make(chan struct{})
		vs.memBuilt = done
		go func() {
			defer close(done)
			vs.mem, vs.memErr = tablebase.BuildMemory(o.builds, vs.v, seeds, o.cfg.Threads)
		}()
	}
	return vs.memBuilt
}

func (s served) maxSeeds() int {
	if s.tb == nil {
		return -1
	}
	return s.tb.MaxSeeds()
}

// probeErr is the error behind a failed probe of a stored seed count.
func (s served) probeErr(pos string) error {
	if s.prober != nil {
		if err := s.prober.Err(); err != nil {
			return fmt.Errorf("%s: reading the tablebase: %w", pos, err)
		}
	}
	return fmt.Errorf("%s: the tablebase lacks a position it should hold", pos)
}

// takeSolver takes vs's solver, waiting for the search that holds it for
// as long as ctx lasts; the caller must release it (releaseSolver). When
// ctx ends first it returns ctx's error, wrapped with the variant's name,
// so that a request whose client left, or whose deadline passed, stops
// queueing behind a search it will never use. A free solver is taken
// whatever ctx's state: an uncontended call behaves as it did with a plain
// mutex (a search under a cancelled ctx still gives its first iteration).
func (vs *variantState) takeSolver(ctx context.Context) error {
	if vs.solverSem.TryAcquire(1) {
		return nil
	}
	if vs.waiting != nil {
		vs.waiting()
	}
	if err := vs.solverSem.Acquire(ctx, 1); err != nil {
		return fmt.Errorf("waiting for the %s solver, busy with another search: %w", vs.v.Name, err)
	}
	return nil
}

// releaseSolver releases the solver takeSolver took.
func (vs *variantState) releaseSolver() { vs.solverSem.Release(1) }

// lockSolver returns v's Solver, taken (takeSolver: wait bounds the wait
// for it), with tb in force; the caller must release it (releaseSolver).
// Errors: wait's error when wait ends while another search holds the
// solver, or the solver's options (makeSolver).
func (o *Oracle) lockSolver(wait context.Context, vs *variantState, tb solver.Tablebase) (*solver.Solver, error) {
	if err := vs.takeSolver(wait); err != nil {
		return nil, err
	}
	if err := o.makeSolver(vs); err != nil {
		vs.releaseSolver()
		return nil, err
	}
	vs.solver.SetTablebase(tb)
	return vs.solver, nil
}

// makeSolver makes v's Solver if there is none yet, timing it (its
// transposition table is allocated then); the caller holds the solver
// (takeSolver).
func (o *Oracle) makeSolver(vs *variantState) error {
	if vs.solver != nil {
		return nil
	}
	start := time.Now()
	opts := solver.Options{Threads: o.cfg.Threads, HashMiB: o.cfg.HashMiB, Play: o.cfg.Play}
	if etb := o.estimateTablebase(vs.v); etb != nil { // a nil *Prober would be a non-nil interface
		opts.EstimateTablebase = etb
	}
	s, err := solver.New(opts)
	if err != nil {
		return err
	}
	vs.solver, vs.tableTime = s, time.Since(start)
	return nil
}

// estimateTablebase is the tablebase on disk of v's neutral twin when v's
// repetitions are not worth 0, else nil; a twin without one, or whose one
// cannot be opened, leaves the search without it.
func (o *Oracle) estimateTablebase(v *position.Variant) *tablebase.Prober {
	twin := v.NeutralTwin()
	if twin == nil || twin == v {
		return nil
	}
	pr, err := o.diskTablebase(o.variant(twin))
	if err != nil {
		return nil
	}
	return pr
}

// HashMiBFor is the transposition table size, in MiB, that a search of
// the given time limit gets when none is asked for: 64 MiB a second of the
// limit, from 16 to 256 MiB (256 with no limit). The table starts at
// 16 MiB and grows as the search fills it, each new part's pages mapped
// and zeroed as it grows (solver/tt.go); on a loaded virtual machine that
// took 3 s for 256 MiB (0.75 s of system time), six times a 0.5 s budget,
// so a short search's limit keeps it from growing past what its time can
// fill: a 0.5 s search fills far less than 32 MiB (about 2 M nodes at most
// on two threads).
func HashMiBFor(limit time.Duration) int {
	const perSecond, least, most = 64, 16, 256
	if limit <= 0 {
		return most
	}
	return min(most, max(least, int(limit.Seconds()*perSecond)))
}
