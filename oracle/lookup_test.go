package oracle

import (
	"context"
	"slices"
	"testing"
	"time"
)

// failsafe bounds a wait that only a failing test reaches.
const failsafe = time.Minute

// Lookup answers a position the in-memory tablebase holds at once, while a
// search holds the variant's solver, with the answer Solve gives; it
// declines (ok false) a position no ready tablebase holds, and every
// position before the in-memory build is done, without starting it.
func TestLookupAnswersBesideASearch(t *testing.T) {
	o := newOracle(t, Config{MemTBSeeds: 6, Threads: 1, HashMiB: 4})
	held := mustSetup(t, "awari:0,0,1,1,0,0/0,0,1,2,0,1:1")   // 6 seeds
	beyond := mustSetup(t, "awari:0,3,1,1,0,0/0,0,1,2,0,1:1") // 9 seeds
	ctx := context.Background()
	if _, ok, err := o.Lookup(ctx, held); ok || err != nil {
		t.Fatalf("before the in-memory build: ok %v, %v; want a refusal", ok, err)
	}
	vs := o.variant(held.Variant)
	if vs.memBuilt != nil {
		t.Fatal("Lookup started the in-memory build")
	}
	<-o.startBuild(vs, 6)
	want, err := o.Solve(ctx, held, SolveOptions{AllMoves: true})
	if err != nil || want.Source != SourceTablebase {
		t.Fatalf("Solve: %v, source %q", err, want.Source)
	}

	if err := vs.takeSolver(ctx); err != nil { // as a search in flight does
		t.Fatal(err)
	}
	type result struct {
		a   Answer
		ok  bool
		err error
	}
	done := make(chan result, 2)
	go func() {
		a, ok, err := o.Lookup(ctx, held)
		done <- result{a, ok, err}
		a, ok, err = o.Lookup(ctx, beyond)
		done <- result{a, ok, err}
	}()
	var got, far result
	select {
	case got = <-done:
		far = <-done
	case <-time.After(failsafe):
		t.Fatal("Lookup waited for the solver")
	}
	vs.releaseSolver()
	if got.err != nil || !got.ok {
		t.Fatalf("held position: ok %v, %v", got.ok, got.err)
	}
	a := got.a
	if a.Value != want.Value || !a.Exact || !slices.Equal(a.BestMoves, want.BestMoves) || !a.BestMovesComplete ||
		len(a.Moves) != len(want.Moves) || a.Source != SourceTablebase || !a.TablebaseInMemory {
		t.Errorf("Lookup %+v\nSolve  %+v", a, want)
	}
	if far.ok || far.err != nil {
		t.Errorf("a position beyond the tablebase: ok %v, %v; want a refusal", far.ok, far.err)
	}
}

// A forced pass and a finished game are answered by Lookup too.
func TestLookupPassAndGameOver(t *testing.T) {
	o := newOracle(t, Config{MemTBSeeds: 8, Threads: 1, HashMiB: 4})
	ctx := context.Background()
	pass := mustSetup(t, "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1")
	<-o.startBuild(o.variant(pass.Variant), 8)
	a, ok, err := o.Lookup(ctx, pass)
	if err != nil || !ok || a.Value != -5 || !a.MustPass || !slices.Equal(a.BestMoves, []Move{Pass}) {
		t.Errorf("forced pass: ok %v, %v, %+v; want -5 with best move pass", ok, err, a)
	}
	over := mustSetup(t, "awari:0,0,0,0,0,0/0,0,0,0,0,0:1")
	if a, ok, err := o.Lookup(ctx, over); err != nil || !ok || !a.GameOver {
		t.Errorf("game over: ok %v, %v, %+v", ok, err, a)
	}
}
