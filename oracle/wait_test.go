package oracle

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// holdSolver starts a search of pos's variant that holds its solver until
// the returned release is called, and returns once the search has it;
// release waits for that search's end.
func holdSolver(t *testing.T, o *Oracle, pos string) (release func()) {
	t.Helper()
	started, free, ended := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	first := true
	hold := func(solver.Progress) {
		if first { // the search's own goroutine: no other reads first
			first = false
			close(started)
			<-free
		}
	}
	s := mustSetup(t, pos)
	go func() {
		_, err := o.Solve(context.Background(), s, SolveOptions{Depth: 3, Progress: hold})
		ended <- err
	}()
	waitFor(t, started, "the holding search's first iteration")
	return func() {
		close(free)
		if err := <-ended; err != nil {
			t.Errorf("the holding search: %v", err)
		}
	}
}

// waitFor waits for ch, failing the test after failsafe (a failing run only).
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(failsafe):
		t.Fatalf("no %s after %v", what, failsafe)
		panic("unreachable")
	}
}

// busyAwari returns an oracle whose awari solver a search holds until
// release (holdSolver), awari's start, its variant state, and a channel
// that gets a value each time a call starts to wait for that solver.
func busyAwari(t *testing.T) (o *Oracle, s position.Setup, vs *variantState, waiting chan struct{}, release func()) {
	t.Helper()
	o = newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	s = mustSetup(t, "awari")
	vs = o.variant(s.Variant)
	waiting = make(chan struct{}, 1)
	vs.waiting = func() { waiting <- struct{}{} }
	return o, s, vs, waiting, holdSolver(t, o, "awari")
}

// A call waiting for the variant's solver, which another search holds,
// leaves with ctx's error when ctx is cancelled, whether before the call
// or during the wait, and leaves the solver to the next call. With a
// mutex, which ignores ctx, the calls waited for the whole search.
func TestSolveWaitEndsWithCtx(t *testing.T) {
	o, s, vs, waiting, release := busyAwari(t)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := o.Solve(cancelled, s, SolveOptions{Depth: 1})
		done <- err
	}()
	if err := waitFor(t, done, "answer to a cancelled Solve"); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve, cancelled before the call: %v; want context.Canceled", err)
	}
	<-waiting // it did wait: the solver was busy
	go func() {
		_, err := o.Prepare(cancelled, s.Variant)
		done <- err
	}()
	if err := waitFor(t, done, "answer to a cancelled Prepare"); !errors.Is(err, context.Canceled) {
		t.Errorf("Prepare, cancelled before the call: %v; want context.Canceled", err)
	}
	<-waiting

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, err := o.Solve(ctx, s, SolveOptions{Depth: 1})
		done <- err
	}()
	waitFor(t, waiting, "wait for the solver")
	cancel()
	if err := waitFor(t, done, "answer to Solve, cancelled while it waited"); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve, cancelled while it waited: %v; want context.Canceled", err)
	}

	release()
	vs.waiting = nil
	if _, err := o.Solve(context.Background(), s, SolveOptions{Depth: 1}); err != nil {
		t.Errorf("Solve after the waits: %v", err)
	}
}

// Solve's own time limit does not cut its wait for the solver: once it
// has the solver, the expired limit gives the first iteration, an
// answer, as it would without the wait.
func TestSolveTimeDoesNotCutTheWait(t *testing.T) {
	o, s, _, waiting, release := busyAwari(t)

	type result struct {
		a   Answer
		err error
	}
	done := make(chan result, 1)
	go func() {
		a, err := o.Solve(context.Background(), s, SolveOptions{Time: time.Nanosecond})
		done <- result{a, err}
	}()
	waitFor(t, waiting, "wait for the solver")
	release()
	got := waitFor(t, done, "answer after the wait")
	if got.err != nil || len(got.a.BestMoves) == 0 {
		t.Errorf("Solve: %v, best moves %v; want an estimate", got.err, got.a.BestMoves)
	}
}

// A call under a cancelled ctx still takes a free solver and answers with
// the first iteration (solver.Solver.Search), as it did before the wait
// for a busy one honoured ctx: only waiting is cut.
func TestSolveCancelledTakesAFreeSolver(t *testing.T) {
	o := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := o.Solve(ctx, mustSetup(t, "awari"), SolveOptions{})
	if err != nil || len(a.BestMoves) == 0 {
		t.Errorf("Solve: %v, best moves %v; want an estimate", err, a.BestMoves)
	}
}

// Analyze keeps the plies done when its ctx ends while a ply waits for
// the variant's solver, as it does when ctx ends during a ply's search,
// and returns ctx's error rather than the ply's.
func TestAnalyzeKeepsPliesWhenItsWaitIsCut(t *testing.T) {
	o := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 4})
	games, err := ParseGames(strings.NewReader("awari 3 3 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var release func()
	opts := AnalyzeOptions{Nodes: 1000, Progress: func(done, total int) {
		if done == 1 { // the next ply finds the solver busy and ctx ended
			release = holdSolver(t, o, "awari")
			cancel()
		}
	}}
	an, err := o.Analyze(ctx, games[0], opts)
	if release != nil {
		release()
	}
	if err != context.Canceled || len(an.Plies) != 1 || an.Complete {
		t.Errorf("Analyze: %v, %d plies, complete %v; want context.Canceled, 1 ply, incomplete", err, len(an.Plies), an.Complete)
	}
}
