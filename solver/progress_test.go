package solver_test

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// TestProgressCountsTheIterationsNodes: with one thread, the progress
// report of iteration d counts every node searched to its end, the same
// count as a search stopped at MaxDepth d (which ends after that
// iteration, before a proof). Nodes reached the shared count only every
// 1024, so a small search reported 0 nodes at every depth (newcomer
// report item 4).
func TestProgressCountsTheIterationsNodes(t *testing.T) {
	setup, err := position.Parse("awari:3,2,1,0,0,0/0,0,0,1,0,0:1")
	if err != nil {
		t.Fatal(err)
	}
	v, p := setup.Variant, setup.Position
	const d = 3 // the value is proven at depth 6, so depth 3 ends unproven
	var reported []solver.Progress
	s, err := solver.New(solver.Options{Threads: 1, HashMiB: 1, MaxDepth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SearchRequest(context.Background(), v, p, solver.Request{Progress: func(pr solver.Progress) { reported = append(reported, pr) }}); err != nil {
		t.Fatal(err)
	}
	stopped, err := solver.New(solver.Options{Threads: 1, HashMiB: 1, MaxDepth: d})
	if err != nil {
		t.Fatal(err)
	}
	res, err := stopped.Search(context.Background(), v, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact {
		t.Fatalf("proven by depth %d; the cross-check needs an unproven iteration", d)
	}
	for _, pr := range reported {
		if pr.Depth == d {
			if pr.Nodes != res.Nodes || pr.Nodes == 0 {
				t.Errorf("depth %d reported %d nodes; the search stopped there counted %d", d, pr.Nodes, res.Nodes)
			}
			return
		}
	}
	t.Errorf("no report of depth %d in %+v", d, reported)
}
