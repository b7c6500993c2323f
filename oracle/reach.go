package oracle

import (
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// Reach is how a start position whose proof is within reach of a default
// solve, with no tablebase on disk, is proven (SolveOptions.Reach): the
// in-memory tablebase its search wants, and what the proof costs, as
// measured (docs/performance.md "Proofs").
type Reach struct {
	// MemTBSeeds is the seed count of the in-memory tablebase built for
	// the proof: the one with the least CPU time, build and search
	// together, among those measured.
	MemTBSeeds int
	// CPUSeconds is that build and proof's CPU time at one thread, in
	// seconds, on the machine of docs/performance.md.
	CPUSeconds float64
}

// reaches are the start positions proven by default, by variant name.
// Kalah(6,4) = +10 (Irving et al. 2000) with an 18-seed tablebase built
// in memory (260 MB; 621 MB peak with the transposition table): 23.7 s of
// CPU on one thread (median of 3; 20.8 in the sweep of sizes), against
// 41.9 with 14 seeds, 30.5 with 16 and 21.4 with 20 (1.17 GB peak), every
// best move proven (docs/performance.md "Proofs", 2026-12-06). No size
// proves it within the default 10 s on 2 cores (20 CPU-seconds at best),
// hence no limit rather than a size fitted to the time. Kalah(6,4) under
// the standard capture rule (kalah-std) = +8 with a 20-seed one (677 MB;
// 1.16 GB peak): 25.7 s of CPU on one thread (median of 3), against 49.1
// with 16 seeds, 33.7 with 18 and 38.3 with 22 (2026-12-07).
var reaches = map[string]Reach{
	position.KalahName:    {MemTBSeeds: 18, CPUSeconds: 24},
	position.KalahStdName: {MemTBSeeds: 20, CPUSeconds: 26},
}

// ReachOf returns how s is proven by default (Reach) when s is the start
// position of a variant listed in reaches (player 1 to move, nothing
// captured) and the in-memory tablebase it wants fits in memBudget bytes
// (tablebase.MemoryBytes; a build may use tablebase.DefaultMemBytes); ok
// is false otherwise, and for a variant without tablebases.
func ReachOf(s position.Setup, memBudget int64) (r Reach, ok bool) {
	v := s.Variant
	r, ok = reaches[v.Name]
	switch {
	case !ok || s.Position != v.Start() || s.CapturesKnown && s.Captured != [2]int{}:
		return Reach{}, false
	case v.Repetition != position.RepetitionNobody:
		return Reach{}, false // no tablebase (tablebase.Build)
	case tablebase.MemoryBytes(v, r.MemTBSeeds) > memBudget:
		return Reach{}, false
	}
	return r, true
}
