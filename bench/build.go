package bench

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// buildTargetPositions bounds the build benchmark's size: every layer up
// to the most seeds whose layers together hold at most this many
// positions. That is 12 seeds for the 2x6 games and six-pit kalah (2.7
// million positions) and 10 for akon (2.0 million).
const buildTargetPositions = 3_000_000

// BuildSeeds returns the build benchmark's size for v: the most seeds n
// (at most v's total) whose layers 0..n hold at most buildTargetPositions
// positions. It depends on the board alone, so every variant has one.
func BuildSeeds(v *position.Variant) int {
	n := 0
	for n < v.Total() && tablebase.MemoryPositions(v, n+1) <= buildTargetPositions {
		n++
	}
	return n
}

// Build measures a tablebase build of each variant's layers 0..BuildSeeds
// into a fresh temporary directory, on one thread and on opts.Threads:
// positions per second of wall time and per CPU-second (user plus system
// time of the whole process, from getrusage), and the speedup of the
// second thread count over one (wall time). Two signatures come with each
// variant: the positions built and the stored layers' checksums folded
// into one number; both change only when the rules (or the value
// definition) do. A kalah size builds the tablebase it shares with the
// other sizes of its row length (tablebase.VariantOf).
func Build(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Ratio, []Signature, error) {
	var figures []Figure
	var ratios []Ratio
	var signatures []Signature
	for _, v := range variants {
		seeds := BuildSeeds(v)
		name := "tablebase to " + itoa(seeds) + " seeds"
		var res buildResult
		var wall [2]float64 // median positions/s on one thread and on opts.Threads
		measured := false
		for t, threads := range threadCounts(opts.Threads) {
			f := Figure{Group: "build", Name: name, Variant: v.Name, Threads: threads, Unit: "positions/s"}
			var cpuRates []float64
			var err error
			f, ok := repeat(ctx, f, opts, func() float64 {
				res, err = buildOnce(ctx, v, seeds, threads)
				if res.cpuSeconds > 0 {
					cpuRates = append(cpuRates, float64(res.positions)/res.cpuSeconds)
				}
				return float64(res.positions) / res.seconds
			})
			if err != nil {
				return figures, ratios, signatures, err
			}
			if !ok {
				continue
			}
			figures, measured, wall[t] = append(figures, f), true, f.Median
			if len(cpuRates) == f.Runs {
				cpu := summarise(Figure{Group: "build", Name: name, Variant: v.Name, Threads: threads,
					Unit: "positions/CPU-s"}, cpuRates)
				if opts.Measured != nil {
					opts.Measured(cpu)
				}
				figures = append(figures, cpu)
			}
		}
		if !measured {
			continue
		}
		if wall[0] > 0 && wall[1] > 0 {
			ratios = append(ratios, Ratio{Group: "build", Variant: v.Name,
				Name: fmt.Sprintf("speedup %d threads / 1 (wall)", opts.Threads), Value: wall[1] / wall[0]})
		}
		signatures = append(signatures,
			Signature{Group: "build", Name: "positions to " + itoa(seeds) + " seeds", Variant: v.Name, Value: uint64(res.positions)},
			Signature{Group: "build", Name: "layer checksums to " + itoa(seeds) + " seeds", Variant: v.Name, Value: res.checksum})
	}
	return figures, ratios, signatures, nil
}

// buildResult is what one benchmark build did and took.
type buildResult struct {
	positions  int64
	seconds    float64 // wall
	cpuSeconds float64 // user + system of the process; 0 if not measured
	checksum   uint64  // the layers' checksums folded into one
}

// buildOnce builds into a new temporary directory and removes it.
func buildOnce(ctx context.Context, v *position.Variant, seeds, threads int) (buildResult, error) {
	dir, err := os.MkdirTemp("", "mancala-bench-build-")
	if err != nil {
		return buildResult{}, err
	}
	defer os.RemoveAll(dir)
	cpu0, cpuOK := processCPUSeconds()
	start := time.Now()
	stats, err := tablebase.Build(ctx, dir, v, tablebase.BuildOptions{MaxSeeds: seeds, Threads: threads})
	if err != nil {
		return buildResult{}, err
	}
	res := buildResult{positions: stats.Positions, seconds: time.Since(start).Seconds()}
	if cpu1, ok := processCPUSeconds(); ok && cpuOK && cpu1 > cpu0 {
		res.cpuSeconds = cpu1 - cpu0
	}
	for _, l := range stats.Layers {
		res.checksum = res.checksum*1099511628211 ^ l.Checksum
	}
	return res, nil
}
