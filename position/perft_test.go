package position

import (
	"testing"

	"mancala/internal/testsize"
	"mancala/position/reference"
)

// referencePerft is perft written on the reference implementation: move
// sequences of depth plies, forced passes transparent, game ends cutting
// lines short, repetition ignored.
func referencePerft(s reference.State, depth int) uint64 {
	s, _ = reference.Normalize(s)
	if depth == 0 {
		return 1
	}
	var nodes uint64
	for _, pit := range reference.LegalMoves(s) {
		next, _, _, err := reference.Apply(s, pit)
		if err != nil {
			panic(err)
		}
		nodes += referencePerft(next, depth-1)
	}
	return nodes
}

// perftStart holds perft counts from each start position, depths 1..8,
// computed by the packed engine and recomputed with the reference
// implementation: to depth 8 with MANCALA_LONG=1, 6 by default, 5 under
// -short. A change to any of
// them means a rules change: bump RulesVersion.
var perftStart = map[string][]uint64{
	"awari":         {6, 36, 190, 1014, 5219, 27332, 138783, 707716},
	"oware":         {6, 36, 190, 1014, 5219, 27332, 139157, 711414},
	"akon":          {7, 49, 308, 1953, 12054, 75300, 461716, 2835119},
	"djenon-abe":    {6, 32, 154, 749, 3732, 18282, 88065, 417165},
	"djenon-aboure": {6, 27, 120, 512, 1963, 7862, 26776, 92742},
}

func TestPerftStart(t *testing.T) {
	agreeDepth := testsize.Pick(5, 6, 8)
	for _, v := range Variants() {
		want := perftStart[v.Name]
		for depth := 1; depth <= len(want); depth++ {
			if got := v.Perft(v.Start(), depth); got != want[depth-1] {
				t.Errorf("%s perft %d = %d, want %d", v.Name, depth, got, want[depth-1])
			}
			if depth > agreeDepth {
				continue
			}
			if ref := referencePerft(reference.Start(v.Name), depth); ref != want[depth-1] {
				t.Errorf("%s perft %d: reference %d, regression value %d", v.Name, depth, ref, want[depth-1])
			}
		}
	}
}

// Divide's counts add up to Perft's, also where the mover must pass at
// once (the pass is no ply).
func TestDivideSumsToPerft(t *testing.T) {
	for _, s := range []string{"awari", "oware", "akon", "djenon-abe", "djenon-aboure",
		"djenon-aboure:1,2,1,2,2,1/1,0,1,0,1,0:2", "djenon-abe:0,0,0,0,0,0/0,0,0,0,0,5:1"} {
		st, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for depth := 1; depth <= 5; depth++ {
			var sum uint64
			for pit, n := range st.Variant.Divide(st.Position, depth) {
				if pit == PassPit {
					t.Errorf("%s: divide lists a pass", s)
				}
				sum += n
			}
			if want := st.Variant.Perft(st.Position, depth); sum != want {
				t.Errorf("%s depth %d: divide sums to %d, perft %d", s, depth, sum, want)
			}
		}
	}
}
