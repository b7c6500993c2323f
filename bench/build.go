package bench

import (
	"context"
	"os"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// BuildSeeds is the fixed size of the build benchmark: every layer up to
// this many seeds (2.7 million positions for the 2x6 games, 2.0 million for
// akon).
var BuildSeeds = map[string]int{
	"awari": 12, "oware": 12, "akon": 10, "djenon-abe": 12, "djenon-aboure": 12,
}

// Build measures positions per second of a tablebase build of layers
// 0..BuildSeeds into a fresh temporary directory, on one thread and on
// opts.Threads. The stored layers' checksums, folded into one number, are a
// signature that changes only when the rules (or the value definition) do.
func Build(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Signature, error) {
	var figures []Figure
	var signatures []Signature
	for _, v := range variants {
		seeds := BuildSeeds[v.Name]
		var signature uint64
		measured := false
		for _, threads := range threadCounts(opts.Threads) {
			f := Figure{Group: "build", Name: "tablebase to " + itoa(seeds) + " seeds", Variant: v.Name,
				Threads: threads, Unit: "positions/s"}
			var err error
			f, ok := repeat(ctx, f, opts, func() float64 {
				var r float64
				r, signature, err = buildOnce(ctx, v, seeds, threads)
				return r
			})
			if ok {
				figures, measured = append(figures, f), true
			}
			if err != nil {
				return figures, signatures, err
			}
		}
		if !measured {
			continue
		}
		signatures = append(signatures, Signature{Group: "build", Name: "layer checksums to " + itoa(seeds) + " seeds",
			Variant: v.Name, Value: signature})
	}
	return figures, signatures, nil
}

// buildOnce builds into a new temporary directory and removes it.
func buildOnce(ctx context.Context, v *position.Variant, seeds, threads int) (float64, uint64, error) {
	dir, err := os.MkdirTemp("", "mancala-bench-build-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	stats, err := tablebase.Build(ctx, dir, v, tablebase.BuildOptions{MaxSeeds: seeds, Threads: threads})
	if err != nil {
		return 0, 0, err
	}
	var signature uint64
	for _, l := range stats.Layers {
		signature = signature*1099511628211 ^ l.Checksum
	}
	return float64(stats.Positions) / time.Since(start).Seconds(), signature, nil
}
