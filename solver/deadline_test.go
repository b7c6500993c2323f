package solver

import (
	"context"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// TestDeadlineFromThreads checks that the search threads stop at the
// context's deadline by reading the clock themselves, not only when the
// context's timer fires (which on a loaded machine ran up to 80 ms late:
// 31 of 1,900 match searches overran their time). The clock is the
// test's: it moves one second each time a thread reads it, that is once
// every 1024 nodes (pollMask), and the deadline is 50 such reads ahead,
// while the context's own timer is an hour away; so the search must stop
// for time after about 51 polls' worth of nodes, whatever the machine's
// speed. Before the threads read the clock, it ran on to the node limit.
func TestDeadlineFromThreads(t *testing.T) {
	v := mustVariant(t, "oware")
	s, err := New(Options{Threads: 1, HashMiB: 1, MaxNodes: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Hour)
	const reads = 50
	calls := 0
	s.now = func() time.Time {
		calls++
		return deadline.Add(time.Duration(calls-1-reads) * time.Second)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	res, err := s.Search(ctx, v, v.Start())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopTime {
		t.Fatalf("stopped by %q after %d nodes and %d clock reads, want %q after %d reads", res.Stop, res.Nodes, calls, StopTime, reads+1)
	}
	if lo, hi := uint64(reads*(pollMask+1)), uint64((reads+2)*(pollMask+1)); res.Nodes < lo || res.Nodes > hi {
		t.Errorf("stopped after %d nodes, want %d..%d (%d clock reads)", res.Nodes, lo, hi, calls)
	}
	if res.Exact || res.Depth < 1 || len(res.BestMoves) != 1 {
		t.Errorf("result %+v: want an estimate with a best move", res)
	}
}

func mustVariant(t *testing.T, name string) *position.Variant {
	t.Helper()
	v, err := position.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
