package bench

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// PerftDepth is the fixed depth of the perft benchmark of the variants
// named here, chosen so that one run takes a fraction of a second on a
// small machine. Any other variant gets a derived depth (PerftDepthOf).
var PerftDepth = map[string]int{
	"awari": 10, "oware": 11, "akon": 9, "djenon-abe": 10, "djenon-aboure": 12, "kalah": 10, "kalah-std": 10,
}

// perftTargetNodes is the node count a derived perft depth reaches: about
// that of the fixed depths (6.5 M to 92 M nodes).
const perftTargetNodes = 10_000_000

// perftMaxDepth bounds the derived depth: Kalah(1,1)'s whole game tree
// ends within a few plies, and no start position needs more to reach
// perftTargetNodes.
const perftMaxDepth = 40

// PerftDepthOf returns the perft benchmark's depth for v: PerftDepth's
// entry, or else the smallest depth whose count from the start position
// reaches perftTargetNodes, or the depth of the last non-empty count when
// the whole game tree is smaller (every kalah size but kalah and
// kalah-std). The derived depth depends on the rules alone.
func PerftDepthOf(v *position.Variant) int {
	if d, ok := PerftDepth[v.Name]; ok {
		return d
	}
	depth := 1
	for ; depth < perftMaxDepth; depth++ {
		n := v.Perft(v.Start(), depth)
		if n >= perftTargetNodes {
			break
		}
		if n == 0 {
			return depth - 1
		}
	}
	return depth
}

// Perft measures perft from each variant's start position to PerftDepthOf
// on one thread, bulk counting at the last ply or, with opts.PlayLeaves,
// making every leaf's move (position.Variant.PerftPlayed; the counts are
// the same), and returns the node counts as signatures: they change only
// when the rules do.
func Perft(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Signature) {
	var figures []Figure
	var signatures []Signature
	for _, v := range variants {
		depth := PerftDepthOf(v)
		perft, name := v.Perft, "perft depth "+itoa(depth)
		if opts.PlayLeaves {
			perft, name = v.PerftPlayed, name+", leaves played"
		}
		var nodes uint64
		f := Figure{Group: "perft", Name: name, Variant: v.Name, Threads: 1, Unit: "nodes/s"}
		f, ok := repeat(ctx, f, opts, func() float64 {
			start := time.Now()
			nodes = perft(v.Start(), depth)
			return float64(nodes) / time.Since(start).Seconds()
		})
		if !ok {
			continue
		}
		figures = append(figures, f)
		signatures = append(signatures, Signature{Group: "perft", Name: "nodes at depth " + itoa(depth), Variant: v.Name, Value: nodes})
	}
	return figures, signatures
}

// sinkValue keeps benchmark results alive so the compiler cannot drop the
// work that produced them.
var sinkValue atomic.Uint64
