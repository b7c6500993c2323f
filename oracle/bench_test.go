package oracle

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// BenchmarkSolveInTablebase: Solve of oware positions of 8 to 12 seeds,
// which the in-memory tablebase (12 seeds, built before the timer starts)
// holds: value, every move's value, best moves and principal variation,
// without a search of the position itself. Reports ms per answer.
//
//	go test ./oracle -run '^$' -bench SolveInTablebase -count 5
func BenchmarkSolveInTablebase(b *testing.B) {
	b.Setenv("XDG_DATA_HOME", b.TempDir())
	o, err := Open(Config{MemTBSeeds: 12, Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	v, _ := position.Lookup("oware")
	rng := rand.New(rand.NewPCG(1, 2))
	var setups []position.Setup
	for len(setups) < 32 {
		if p, ok := randomBoard(v, rng, 8+rng.IntN(5)); ok {
			setups = append(setups, position.Setup{Variant: v, Position: p})
		}
	}
	ctx := context.Background()
	if a, err := o.Solve(ctx, setups[0], SolveOptions{}); err != nil || a.Source != SourceTablebase {
		b.Fatalf("%+v, %v: want an answer from the tablebase", a, err)
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := o.Solve(ctx, setups[i%len(setups)], SolveOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(i), "ms/answer")
}
