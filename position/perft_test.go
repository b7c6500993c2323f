package position

import (
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position/reference"
)

// referencePerft is perft written on the reference implementation, for
// every depth 1..depth in one walk: counts[d-1] is the number of move
// sequences of d plies, forced passes transparent, game ends cutting lines
// short, repetition ignored.
func referencePerft(s reference.State, depth int) (counts []uint64) {
	counts = make([]uint64, depth)
	var walk func(s reference.State, ply int)
	walk = func(s reference.State, ply int) {
		s, _ = reference.Normalize(s)
		moves := reference.LegalMoves(s)
		counts[ply] += uint64(len(moves))
		if ply+1 == depth {
			return
		}
		for _, pit := range moves {
			next, _, _, err := reference.Apply(s, pit)
			if err != nil {
				panic(err)
			}
			walk(next, ply+1)
		}
	}
	walk(s, 0)
	return counts
}

// perftStart holds perft counts from each start position, depths 1..8
// (1..10 for kalah), computed by the packed engine and recomputed with the
// reference implementation: to depth 10 with MANCALA_LONG=1, 6 by default,
// 5 under -short. A change to any of
// them means a rules change: bump RulesVersion (KalahRulesVersion or
// KalahStdRulesVersion for kalah).
var perftStart = map[string][]uint64{
	"awari":         {6, 36, 190, 1014, 5219, 27332, 138783, 707716},
	"oware":         {6, 36, 190, 1014, 5219, 27332, 139157, 711414},
	"akon":          {7, 49, 308, 1953, 12054, 75300, 461716, 2835119},
	"djenon-abe":    {6, 32, 154, 749, 3732, 18282, 88065, 417165},
	"djenon-aboure": {6, 27, 120, 512, 1963, 7862, 26776, 92742},
	// Kalah(6,4) to depth 10 (rules version 2: KalahRulesVersion); an extra
	// move is a ply of its own.
	"kalah":     {6, 35, 185, 942, 4685, 23169, 113959, 559885, 2743126, 13394138},
	"kalah-3x3": {3, 8, 19, 48, 120, 280, 610, 1276, 2530, 4824},
	// The same sizes under the standard capture rule (KalahStdRulesVersion
	// 1). Captures from an empty facing pit first matter at ply 8 of
	// Kalah(3,3) and ply 10 of Kalah(6,4).
	"kalah-std":     {6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519607},
	"kalah-std-3x3": {3, 8, 19, 48, 120, 280, 610, 1283, 2565, 4962},
}

// perftVariants are the variants TestPerftStart covers: the five games,
// the usual kalah and a small one, under both capture rules.
func perftVariants() []*Variant {
	return append(Variants(), Kalah(6, 4), Kalah(3, 3), KalahStd(6, 4), KalahStd(3, 3))
}

func TestPerftStart(t *testing.T) {
	agreeDepth := testsize.Pick(5, 6, 10)
	for _, v := range perftVariants() {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			checkPerftStart(t, v, agreeDepth)
		})
	}
}

// checkPerftStart checks v's perftStart counts with the packed engine, and
// to agreeDepth with the reference implementation.
func checkPerftStart(t *testing.T, v *Variant, agreeDepth int) {
	want := perftStart[v.Name]
	for depth := 1; depth <= len(want); depth++ {
		if got := v.Perft(v.Start(), depth); got != want[depth-1] {
			t.Errorf("%s perft %d = %d, want %d", v.Name, depth, got, want[depth-1])
		}
	}
	ref := referencePerft(reference.Start(v.Name), min(agreeDepth, len(want)))
	for depth, n := range ref {
		if n != want[depth] {
			t.Errorf("%s perft %d: reference %d, regression value %d", v.Name, depth+1, n, want[depth])
		}
	}
}

// Divide's counts add up to Perft's, also where the mover must pass at
// once (the pass is no ply).
func TestDivideSumsToPerft(t *testing.T) {
	for _, s := range []string{"awari", "oware", "akon", "djenon-abe", "djenon-aboure", "kalah", "kalah-2x5", "kalah-std", "kalah-std-2x5",
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

// PerftPlayed, which makes every move of the last ply, counts what Perft's
// bulk count does, in every variant (oware and kalah count their last ply
// without playing it) and where the mover must pass; DividePlayed adds up
// to the same.
func TestPerftPlayedCountsAsPerft(t *testing.T) {
	for _, s := range []string{"awari", "oware", "akon", "djenon-abe", "djenon-aboure", "kalah", "kalah-std", "kalah-std-3x3",
		"djenon-aboure:1,2,1,2,2,1/1,0,1,0,1,0:2", "djenon-abe:0,0,0,0,0,0/0,0,0,0,0,5:1",
		"oware:0,0,0,0,0,0/1,0,3,0,0,9:2", "kalah-std:1,0,0,0,0,2/0,0,0,0,0,1:1"} {
		st, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		v, p := st.Variant, st.Position
		for depth := 0; depth <= 5; depth++ {
			bulk, played := v.Perft(p, depth), v.PerftPlayed(p, depth)
			var sum uint64
			for _, n := range v.DividePlayed(p, depth) {
				sum += n
			}
			if played != bulk || (depth > 0 && sum != bulk) {
				t.Errorf("%s depth %d: perft %d, played %d, divide played sums to %d", s, depth, bulk, played, sum)
			}
		}
	}
	if testing.Short() {
		return
	}
	for _, v := range perftVariants() {
		depth := min(len(perftStart[v.Name]), 7)
		if got, want := v.PerftPlayed(v.Start(), depth), perftStart[v.Name][depth-1]; got != want {
			t.Errorf("%s: perft played %d = %d, want %d", v.Name, depth, got, want)
		}
	}
}

// perftPlain, the fast walk of awari, oware and kalah, counts what the walk
// with Moves counts (bulk and leaves played) from positions of random play,
// and from positions where the opponent's row is empty (feeding) or the
// mover's pits hold a lap or more.
func TestPerftPlainAgreesWithMoves(t *testing.T) {
	extra := []string{"oware:0,0,0,0,0,0/1,0,3,0,0,9:2", "awari:0,0,0,0,0,20/2,2,1,3,2,0:1",
		"oware:13,0,0,0,2,1/2,3,2,0,3,2:1", "kalah-std:1,0,0,0,0,2/0,0,0,0,0,1:1", "kalah:0,0,0,0,13,1/0,2,0,0,0,0:2"}
	positions, depth := 200, 4
	if testing.Short() {
		positions = 50
	}
	for _, name := range []string{"awari", "oware", "kalah", "kalah-std", "kalah-3x3", "oware-own"} {
		v, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if !v.plainPerft {
			t.Fatalf("%s: perftPlain does not count it", name)
		}
		ps, _ := benchSample(v, positions)
		for _, s := range extra {
			st, err := Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			if st.Variant == v {
				ps = append(ps, st.Position)
			}
		}
		for _, p := range ps {
			for _, played := range []bool{false, true} {
				if got, want := v.perftPlain(p.Own, p.Opp, depth, played), v.perftMoves(p, depth, played); got != want {
					t.Errorf("%s %s depth %d (leaves played %v): perftPlain %d, Moves %d",
						name, Setup{Variant: v, Position: p}, depth, played, got, want)
				}
			}
		}
	}
}
