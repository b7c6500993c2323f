package bench

import (
	"testing"

	"github.com/mancala-solver/mancala/position"
)

func TestSummariseMedianMinMax(t *testing.T) {
	f := summarise(Figure{}, []float64{5, 1, 3})
	if f.Median != 3 || f.Min != 1 || f.Max != 5 || f.Runs != 3 {
		t.Errorf("odd runs: %+v", f)
	}
	f = summarise(Figure{}, []float64{4, 1, 3, 10})
	if f.Median != 3.5 || f.Min != 1 || f.Max != 10 || f.Runs != 4 {
		t.Errorf("even runs: %+v", f)
	}
}

// The make-move sample is the same every time and every sampled move is
// legal where it was sampled.
func TestPlaySample(t *testing.T) {
	for _, v := range position.Variants() {
		a, b := PlaySample(v), PlaySample(v)
		if len(a.Positions) != SampleSize {
			t.Fatalf("%s: %d positions", v.Name, len(a.Positions))
		}
		seeds := map[int]bool{}
		for i, p := range a.Positions {
			if p != b.Positions[i] || a.Pits[i] != b.Pits[i] {
				t.Fatalf("%s: sample differs between runs at %d", v.Name, i)
			}
			if _, err := v.MakeMove(p, a.Pits[i]); err != nil {
				t.Fatalf("%s: sampled move %d in %s: %v", v.Name, a.Pits[i], position.Format(v, p), err)
			}
			seeds[p.Seeds()] = true
		}
		if len(seeds) < 10 {
			t.Errorf("%s: the sample covers only %d seed counts; want openings to endgames", v.Name, len(seeds))
		}
	}
}

// The embedded suite parses and has midgames and endgames for every variant.
func TestSuite(t *testing.T) {
	suite, err := Suite()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range position.Variants() {
		for _, section := range []string{"midgame", "endgame"} {
			if len(sectionOf(suite, v, section)) == 0 {
				t.Errorf("%s: no %s positions", v.Name, section)
			}
		}
	}
}
