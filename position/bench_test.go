package position

import (
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/position/reference"
)

// benchSample returns n (position, legal pit) pairs met in random games from
// the start, with a fixed seed so that every run measures the same work.
func benchSample(v *Variant, n int) ([]Position, []int) {
	rng := rand.New(rand.NewPCG(1, uint64(v.ID)))
	positions, pits := make([]Position, 0, n), make([]int, 0, n)
	var buf [MaxPits]Move
	p := v.Start()
	for len(positions) < n {
		k := v.Moves(p, &buf)
		if k == 0 || (k == 1 && buf[0].IsPass()) {
			p = v.Start()
			if k == 1 {
				p = buf[0].Next
			}
			continue
		}
		m := buf[rng.IntN(k)]
		positions, pits = append(positions, p), append(pits, int(m.Pit))
		p = m.Next
	}
	return positions, pits
}

// BenchmarkPlay measures the raw packed make-move (sowing, relays,
// captures) of legal moves from positions of random play.
func BenchmarkPlay(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			positions, pits := benchSample(v, 4096)
			var sink uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j := i & 4095
				next, c := v.Play(positions[j], pits[j])
				sink += next.Own + uint64(c)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
			_ = sink
		})
	}
}

// BenchmarkMoves measures full legal-move generation: every legal move
// made, with feeding, grand-slam, endless-move and pass rules applied; and
// kalah's (Kalah(6,4), the search's hot path).
func BenchmarkMoves(b *testing.B) {
	for _, v := range append(Variants(), Kalah(6, 4)) {
		b.Run(v.Name, func(b *testing.B) {
			positions, _ := benchSample(v, 4096)
			var buf [MaxPits]Move
			total := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				total += v.Moves(positions[i&4095], &buf)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkPerft measures perft from the start position (bulk counting).
func BenchmarkPerft(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				nodes += v.Perft(v.Start(), 7)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftPlayed is BenchmarkPerft with every move of the last ply
// made (PerftPlayed), the figure to set beside perft programs without bulk
// counting.
func BenchmarkPerftPlayed(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				nodes += v.PerftPlayed(v.Start(), 7)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkReferenceApply measures the reference implementation's
// make-move on the same positions and moves as BenchmarkPlay, so that
// the packed engine's gain is a measured ratio.
func BenchmarkReferenceApply(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			states, pits := referenceSample(v)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j := i & 4095
				if _, _, _, err := reference.Apply(states[j], pits[j]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// BenchmarkReferenceLegalMoves is BenchmarkMoves for the reference.
func BenchmarkReferenceLegalMoves(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			states, _ := referenceSample(v)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				reference.LegalMoves(states[i&4095])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// referenceSample is benchSample in the reference implementation's form.
func referenceSample(v *Variant) ([]reference.State, []int) {
	positions, pits := benchSample(v, 4096)
	states := make([]reference.State, len(positions))
	for i, p := range positions {
		states[i] = toState(v, p)
	}
	return states, pits
}
