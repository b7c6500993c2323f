package bench

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// PerftDepth is the fixed depth of each variant's perft benchmark, chosen
// so that one run takes a fraction of a second on a small machine.
var PerftDepth = map[string]int{
	"awari": 10, "oware": 11, "akon": 9, "djenon-abe": 10, "djenon-aboure": 12, "kalah": 10,
}

// Perft measures perft from each variant's start position to PerftDepth
// (bulk counting at the last ply) on one thread, and returns the node
// counts as signatures: they change only when the rules do.
func Perft(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Signature) {
	var figures []Figure
	var signatures []Signature
	for _, v := range variants {
		depth := PerftDepth[v.Name]
		var nodes uint64
		f := Figure{Group: "perft", Name: "perft depth " + itoa(depth), Variant: v.Name, Threads: 1, Unit: "nodes/s"}
		f, ok := repeat(ctx, f, opts, func() float64 {
			start := time.Now()
			nodes = v.Perft(v.Start(), depth)
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
