package web

import (
	"testing"

	"mancala/oracle"
)

// testBackend is the Oracle the browser and load tests run over: the one
// `mancala serve` uses, with an in-memory endgame tablebase of 10 seeds
// (the tests' endgames have at most 10, so their values are probed, exact
// and quick to build even under the race detector).
func testBackend(t testing.TB) *Answers {
	a, err := NewAnswers(oracle.Config{Threads: 1, HashMiB: 16, MemTBSeeds: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
