package bench

import (
	"context"
	"fmt"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/position/reference"
)

// Sow measures make-move throughput on each variant's PlaySample: the
// packed engine's raw make-move (position.Variant.Play) and the reference
// implementation's (reference.Apply, which also checks legality), on one
// thread and on opts.Threads, and the packed/reference ratio on one thread.
// It returns each sample's make-up too, so that a rate can be read against
// the positions it was measured on.
func Sow(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Ratio, []MakeUp) {
	var figures []Figure
	var ratios []Ratio
	var makeUps []MakeUp
	for _, v := range variants {
		s := PlaySample(v)
		makeUps = append(makeUps, s.MakeUp())
		states := referenceStates(s)
		packed := func(i int) int {
			const batch = 256
			var sink uint64
			for k := 0; k < batch; k++ {
				j := (i + k) % SampleSize
				next, c := v.Play(s.Positions[j], s.Pits[j])
				sink += next.Own ^ uint64(c)
			}
			sinkValue.Store(sink)
			return batch
		}
		ref := func(i int) int {
			const batch = 16
			for k := 0; k < batch; k++ {
				j := (i + k) % SampleSize
				if _, _, _, err := reference.Apply(states[j], s.Pits[j]); err != nil {
					panic(fmt.Sprintf("bench: reference refuses a sampled move: %v", err))
				}
			}
			return batch
		}
		var one [2]Figure
		for e, engine := range []struct {
			name string
			work func(int) int
		}{{"make-move packed", packed}, {"make-move reference", ref}} {
			for _, threads := range threadCounts(opts.Threads) {
				f := Figure{Group: "sow", Name: engine.name, Variant: v.Name, Threads: threads, Unit: "moves/s"}
				f, ok := repeat(ctx, f, opts, func() float64 { return rate(ctx, threads, opts.runDuration(), engine.work) })
				if !ok {
					continue
				}
				figures = append(figures, f)
				if threads == 1 {
					one[e] = f
				}
			}
		}
		if one[0].Median > 0 && one[1].Median > 0 {
			ratios = append(ratios, Ratio{Group: "sow", Name: "packed / reference, 1 thread", Variant: v.Name,
				Value: one[0].Median / one[1].Median})
		}
	}
	return figures, ratios, makeUps
}

// referenceStates converts a sample to the reference implementation's
// form once, outside the timed loop.
func referenceStates(s Sample) []reference.State {
	states := make([]reference.State, len(s.Positions))
	for i, p := range s.Positions {
		row1, row2 := p.Rows()
		states[i] = reference.State{Variant: referenceName(s.Variant), ToMove: p.Player(),
			Rows: [2][]int{position.UnpackRow(row1, s.Variant.Pits), position.UnpackRow(row2, s.Variant.Pits)}}
	}
	return states
}

// referenceName is the game whose moves the reference implementation
// makes for v: v itself, or for a game that differs from a listed one in
// its repetition rule alone (oware-own), that game (NeutralTwin), whose
// sowing and captures are v's; repetitions play no part in a move.
func referenceName(v *position.Variant) string {
	if twin := v.NeutralTwin(); twin != nil {
		return twin.Name
	}
	return v.Name
}

// threadCounts is 1 and, when different, all threads.
func threadCounts(all int) []int {
	if all <= 1 {
		return []int{1}
	}
	return []int{1, all}
}
