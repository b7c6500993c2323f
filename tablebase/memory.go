package tablebase

import (
	"context"
	"fmt"

	"mancala/position"
)

// Memory is a tablebase built and held in memory only: the same layers as
// Build computes, without Badger. The solver uses one to prove small
// endgames when no database on disk covers them. It implements
// solver.Tablebase and is safe for concurrent use once built.
type Memory struct {
	ix     *Index
	layers [][]int8 // layers[n][rank]: value of the positions with n seeds
}

// MemoryPositions returns how many positions a Memory of v up to maxSeeds
// holds (one byte each, plus the build's scratch space while it runs).
func MemoryPositions(v *position.Variant, maxSeeds int) int64 {
	ix := NewIndex(v.Pits)
	total := int64(0)
	for n := 0; n <= maxSeeds; n++ {
		total += ix.Size(n)
	}
	return total
}

// BuildMemory computes v's layers 0..maxSeeds by retrograde analysis in
// memory, on threads goroutines (0: all cores). It returns ctx's error if
// cancelled, or an error for a maxSeeds outside 0..v.Total().
func BuildMemory(ctx context.Context, v *position.Variant, maxSeeds, threads int) (*Memory, error) {
	if !Supports(v) {
		return nil, errUnsupported(v)
	}
	if maxSeeds < 0 || maxSeeds > min(v.Total(), maxLayer) {
		return nil, fmt.Errorf("max seeds %d: want 0..%d for %s", maxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: withDefaults(BuildOptions{MaxSeeds: maxSeeds, Threads: threads})}
	for n := 0; n <= maxSeeds; n++ {
		values, _, err := b.solve(ctx, n, b.ix.Size(n))
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", n, err)
		}
		b.lower = append(b.lower, values)
	}
	return &Memory{ix: b.ix, layers: b.lower}, nil
}

// MaxSeeds returns the largest seed count held.
func (m *Memory) MaxSeeds() int { return len(m.layers) - 1 }

// Probe returns the value of p (rules.md section 6, from the side to move)
// when it has at most MaxSeeds seeds.
func (m *Memory) Probe(p position.Position) (int, bool) {
	n := p.Seeds()
	if n >= len(m.layers) {
		return 0, false
	}
	return int(m.layers[n][m.ix.Rank(p)]), true
}
