package tablebase

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkBuild builds awari from scratch to benchSeeds by un-sowing and
// on the graph (14 by default;
// TABLEBASE_BENCH_SEEDS=16 for the figure the issue asks for, which
// `mancala build awari --max-seeds 16` also gives) on one thread and on
// all, and reports positions per second.
func BenchmarkBuild(b *testing.B) {
	seeds := 14
	if s, err := strconv.Atoi(os.Getenv("TABLEBASE_BENCH_SEEDS")); err == nil {
		seeds = s
	}
	v := lookup(b, "awari")
	positions := int64(0)
	for n := 0; n <= seeds; n++ {
		positions += NewIndex(v.Pits).Size(n)
	}
	methods := map[string]Method{"unsow": MethodUnsow, "graph": MethodGraph}
	for _, threads := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, name := range []string{"unsow", "graph"} {
			b.Run(fmt.Sprintf("awari-%d/threads-%d/%s", seeds, threads, name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					dir := b.TempDir()
					opts := BuildOptions{MaxSeeds: seeds, Threads: threads, Method: methods[name]}
					if _, err := Build(context.Background(), dir, v, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(positions)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
			})
		}
	}
}
