package oracle

import (
	"context"
	"fmt"
	"time"

	"github.com/dustin/go-humanize"

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
// tablebase (Solve's), or the solver's options, or a *MemTBError when the
// in-memory tablebase asked for (Config.MemTBSeeds) cannot be built for v,
// or ctx's error, wrapped, when ctx ends while a search of v holds its
// solver.
func (o *Oracle) Prepare(ctx context.Context, v *position.Variant) (Prepared, error) {
	if err := o.checkMemTB(v); err != nil {
		return Prepared{}, err
	}
	vs := o.variant(v)
	if _, err := o.openDisk(ctx, vs); err != nil {
		return Prepared{}, err
	}
	prep := Prepared{Loaded: vs.loaded, LoadTime: vs.loadTime}
	if err := vs.takeSolver(ctx); err != nil {
		return Prepared{}, err
	}
	defer vs.releaseSolver()
	if err := o.makeSolver(vs); err != nil {
		return Prepared{}, err
	}
	prep.HashMiB, prep.TableTime = vs.solver.Options().HashMiB, vs.tableTime
	return prep, nil
}

// MemTBError is Prepare's refusal of an in-memory tablebase of Seeds seeds
// (Config.MemTBSeeds) for a variant with Total seeds in all, or one whose
// layers need Need bytes (tablebase.MemoryBytes), more than the Have a
// build may use (tablebase.DefaultMemBytes); layers up to Fits seeds fit.
type MemTBError struct {
	Variant            string
	Seeds, Total, Fits int
	Need, Have         int64
}

func (e *MemTBError) Error() string {
	return fmt.Sprintf("in-memory tablebase of %d seeds: %s", e.Seeds, e.Detail())
}

// Detail is the error without the size asked for: why it cannot be built.
func (e *MemTBError) Detail() string {
	if e.Seeds > e.Total {
		return fmt.Sprintf("%s has %d seeds in all; want at most %d for %s", e.Variant, e.Total, e.Fits, e.Variant)
	}
	return fmt.Sprintf("%s's layers 0..%d need about %s of memory, more than the %s a build may use; want at most %d for %s",
		e.Variant, e.Seeds, humanize.IBytes(uint64(e.Need)), humanize.IBytes(uint64(e.Have)), e.Fits, e.Variant)
}

// checkMemTB returns a *MemTBError when Config.MemTBSeeds asks v for an
// in-memory tablebase that cannot be built: more seeds than v has, or
// more memory than a build may use. The automatic size always fits.
func (o *Oracle) checkMemTB(v *position.Variant) error {
	n := o.cfg.MemTBSeeds
	if n <= 0 || o.cfg.NoTB || v.Repetition != position.RepetitionNobody {
		return nil
	}
	have := tablebase.DefaultMemBytes()
	fits := tablebase.MemoryFits(v, have)
	switch {
	case n > v.Total():
		return &MemTBError{Variant: v.Name, Seeds: n, Total: v.Total(), Fits: fits, Have: have}
	case n > fits:
		return &MemTBError{Variant: v.Name, Seeds: n, Total: v.Total(), Fits: fits, Need: tablebase.MemoryBytes(v, n), Have: have}
	}
	return nil
}
