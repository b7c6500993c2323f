package tablebase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
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

// BenchmarkProbeDeep probes random positions of a tablebase far larger
// than the prober's block cache (awari to 12 seeds, 2.6 million positions
// in 41 blocks of values and 41 of distances, against a cache of 4
// blocks of each), the situation of a search probing a deep tablebase: it
// reports the median and the 90th percentile of one probe's time, value
// and distance: with the small cache most probes miss it and decode a
// block; with the default cache (which holds it all) they hit.
func BenchmarkProbeDeep(b *testing.B) {
	v := lookup(b, "awari")
	const seeds = 12
	dir := b.TempDir()
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: seeds}); err != nil {
		b.Fatal(err)
	}
	pr, err := OpenProber(dir, v)
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	ix := NewIndex(v.Pits)
	rng := rand.New(rand.NewPCG(1, 2))
	positions := make([]position.Position, 4096)
	for i := range positions {
		n := seeds - rng.IntN(3)
		positions[i] = ix.Unrank(n, rng.Uint64N(uint64(ix.Size(n))))
	}
	for _, c := range []struct {
		name  string
		bytes int64
	}{{"cache-4-blocks", 4 * BlockSize * 2}, {"cache-all", DefaultCacheBytes}} {
		b.Run(c.name, func(b *testing.B) {
			pr.SetCacheBytes(c.bytes)
			times := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				p := positions[i%len(positions)]
				began := time.Now()
				if _, _, ok := pr.ProbeDistance(p); !ok {
					b.Fatal(pr.Err())
				}
				times = append(times, time.Since(began))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/probe")
			b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "p90-ns/probe")
		})
	}
}

// BenchmarkVerify re-derives the top layer of an awari tablebase built to
// benchSeeds (14 by default, TABLEBASE_BENCH_SEEDS to change it) from its
// moves, as `mancala verify awari --from N` does, and reports that
// layer's positions per second of the whole run (reading and checksumming
// the layers below included). Its lower layers fit the caches at these
// sizes; the cache misses that dominate a 30-seed verify show only in
// `mancala verify`'s own rates.
func BenchmarkVerify(b *testing.B) {
	seeds := 14
	if s, err := strconv.Atoi(os.Getenv("TABLEBASE_BENCH_SEEDS")); err == nil {
		seeds = s
	}
	v := lookup(b, "awari")
	dir := b.TempDir()
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: seeds}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Verify(context.Background(), dir, v, VerifyOptions{From: seeds}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(NewIndex(v.Pits).Size(seeds))*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkLoad loads every layer of a kalah tablebase to 14 seeds
// (9,657,700 positions, 159 blocks) into memory, decoded on one thread and
// on all, and mapped from the files WriteMapped wrote (Linux), and
// reports positions per second of the load.
func BenchmarkLoad(b *testing.B) {
	v := lookup(b, "kalah")
	const seeds = 14
	dir := b.TempDir()
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: seeds}); err != nil {
		b.Fatal(err)
	}
	load := func(b *testing.B, threads, wantMapped int) {
		var positions int64
		for i := 0; i < b.N; i++ {
			pr, err := OpenProber(dir, v)
			if err != nil {
				b.Fatal(err)
			}
			loaded, err := pr.Load(context.Background(), -1, threads)
			if err != nil || loaded.Mapped != wantMapped {
				b.Fatalf("Load: %+v, %v; want %d layers mapped", loaded, err, wantMapped)
			}
			positions += loaded.Positions
			pr.Close()
		}
		b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
	}
	for _, threads := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("decoded/threads-%d", threads), func(b *testing.B) { load(b, threads, 0) })
	}
	if runtime.GOOS != "linux" {
		return
	}
	if _, err := WriteMapped(context.Background(), dir, v, -1, 0); err != nil {
		b.Fatal(err)
	}
	b.Run("mapped/threads-1", func(b *testing.B) { load(b, 1, seeds+1) })
}
