package oracle

import (
	"context"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// Prepared is what Prepare readied for a variant, and how long each part
// took: work that would otherwise fall inside the first search's time.
type Prepared struct {
	// Loaded is the disk tablebase's layers held in memory
	// (Config.TBLoadSeeds; MaxSeeds -1: none), LoadTime how long reading
	// them took.
	Loaded   tablebase.Loaded
	LoadTime time.Duration
	// HashMiB is the transposition table's size, TableTime how long
	// mapping and zeroing it took (solver.New: a table of GiBs takes
	// seconds).
	HashMiB   int
	TableTime time.Duration
}

// Prepare readies v for a timed search before it starts: it opens v's
// tablebase on disk, reads the layers Config.TBLoadSeeds asks for into
// memory (ctx bounds that read; cancelled, the tablebase serves unloaded
// and ctx's error is returned) and makes v's solver, whose transposition
// table is allocated then. It returns what it readied, on a later call
// what the first readied; errors are those of opening or loading the
// tablebase (Solve's), or the solver's options.
func (o *Oracle) Prepare(ctx context.Context, v *position.Variant) (Prepared, error) {
	vs := o.variant(v)
	if _, err := o.openDisk(ctx, vs); err != nil {
		return Prepared{}, err
	}
	prep := Prepared{Loaded: vs.loaded, LoadTime: vs.loadTime}
	vs.solverMu.Lock()
	defer vs.solverMu.Unlock()
	if err := o.makeSolver(vs); err != nil {
		return Prepared{}, err
	}
	prep.HashMiB, prep.TableTime = vs.solver.Options().HashMiB, vs.tableTime
	return prep, nil
}
