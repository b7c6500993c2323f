package tablebase

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"github.com/mancala-solver/mancala/position"
)

// Memory is a tablebase built and held in memory only: the same layers as
// Build computes, without Badger. The solver uses one to prove small
// endgames when no database on disk covers them. It implements
// solver.Tablebase and is safe for concurrent use once built.
type Memory struct {
	ix     *Index
	layers [][]int8   // layers[n][rank]: value of the positions with n seeds
	dists  [][]uint16 // dists[n][rank]: their distances (doc.go)
}

// MemoryPositions returns how many positions a Memory of v up to maxSeeds
// holds (three bytes each: value and distance; plus the build's scratch
// space while it runs).
func MemoryPositions(v *position.Variant, maxSeeds int) int64 {
	ix := NewIndex(v.Pits)
	total := int64(0)
	for n := 0; n <= maxSeeds; n++ {
		total += ix.Size(n)
	}
	return total
}

// MemoryBytes is the memory, in bytes, that a Memory of v up to maxSeeds
// holds when built: three bytes a position, its value and its distance
// (the build's scratch space for the top layer comes on top while it runs).
func MemoryBytes(v *position.Variant, maxSeeds int) int64 {
	return 3 * MemoryPositions(v, maxSeeds)
}

// MemoryFits returns the largest seed count, at most v.Total(), whose
// Memory of v fits in budget bytes (MemoryBytes); -1 when not even layer 0
// does.
func MemoryFits(v *position.Variant, budget int64) int {
	n := -1
	for n < min(v.Total(), maxLayer) && MemoryBytes(v, n+1) <= budget {
		n++
	}
	return n
}

// BuildMemory computes v's layers 0..maxSeeds by retrograde analysis in
// memory, on threads goroutines (0: all cores). It returns ctx's error if
// cancelled, or an error for a maxSeeds outside 0..v.Total() or whose
// layers (MemoryBytes) need more memory than a build may use
// (DefaultMemBytes), before any work, rather than growing until the
// machine runs out.
func BuildMemory(ctx context.Context, v *position.Variant, maxSeeds, threads int) (*Memory, error) {
	if maxSeeds < 0 || maxSeeds > min(v.Total(), maxLayer) {
		return nil, fmt.Errorf("max seeds %d: want 0..%d for %s", maxSeeds, min(v.Total(), maxLayer), v.Name)
	}
	if err := buildable(v); err != nil {
		return nil, err
	}
	if need, budget := MemoryBytes(v, maxSeeds), DefaultMemBytes(); need > budget {
		return nil, fmt.Errorf("%s in memory up to %d seeds: %d positions need about %s, more than the %s a build may use; up to %d seeds fit",
			v.Name, maxSeeds, MemoryPositions(v, maxSeeds), humanize.IBytes(uint64(need)), humanize.IBytes(uint64(budget)), MemoryFits(v, budget))
	}
	b := &builder{v: v, ix: NewIndex(v.Pits), opts: withDefaults(BuildOptions{MaxSeeds: maxSeeds, Threads: threads})}
	for n := 0; n <= maxSeeds; n++ {
		res, err := b.solve(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", n, err)
		}
		res.arrays()
		b.lower = append(b.lower, res.values)
		b.dists = append(b.dists, res.dist)
	}
	return &Memory{ix: b.ix, layers: b.lower, dists: b.dists}, nil
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

// ProbeDistance returns the value of p (as Probe) and its distance in
// plies (doc.go: the plies to the capture or game end that realises the
// value, 0 for value 0), with ok=false when p has more than MaxSeeds seeds.
func (m *Memory) ProbeDistance(p position.Position) (value, plies int, ok bool) {
	n := p.Seeds()
	if n >= len(m.layers) {
		return 0, 0, false
	}
	r := m.ix.Rank(p)
	return int(m.layers[n][r]), int(m.dists[n][r]), true
}
