package bench

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
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

// The make-move sample is the same every time, every sampled move is legal
// where it was sampled, and the sample is spread over the seed counts: no
// count holds more than three times an even share (the sample of greedy games
// it replaces was 97.7% positions of 2 seeds in awari, 99.1% one-seed
// sowings), and the 2x6 games and kalah cover openings to endgames.
func TestPlaySample(t *testing.T) {
	for _, v := range DefaultVariants("sow") {
		a, b := PlaySample(v), PlaySample(v)
		if len(a.Positions) != SampleSize {
			t.Fatalf("%s: %d positions", v.Name, len(a.Positions))
		}
		for i, p := range a.Positions {
			if p != b.Positions[i] || a.Pits[i] != b.Pits[i] {
				t.Fatalf("%s: sample differs between runs at %d", v.Name, i)
			}
			if _, err := v.MakeMove(p, a.Pits[i]); err != nil {
				t.Fatalf("%s: sampled move %d in %s: %v", v.Name, a.Pits[i], position.Format(v, p), err)
			}
		}
		mu := a.MakeUp()
		if mu.SeedCounts < 20 || mu.MaxSeeds < v.Total()-4 || mu.MinSeeds > 4 {
			t.Errorf("%s: the sample covers %d seed counts, %d..%d; want openings to endgames", v.Name,
				mu.SeedCounts, mu.MinSeeds, mu.MaxSeeds)
		}
		if even := 1 / float64(mu.SeedCounts); mu.LargestShare > 3*even {
			t.Errorf("%s: one seed count holds %.1f%% of the sample, an even share is %.1f%%", v.Name,
				100*mu.LargestShare, 100*even)
		}
		if mu.OneSeedSowings > 0.5 {
			t.Errorf("%s: %.1f%% of the sampled moves sow one seed", v.Name, 100*mu.OneSeedSowings)
		}
	}
}

// MakeUp counts a hand-made sample: awari positions of 3, 3 and 10 seeds
// whose moves sow 1, 2 and 4 seeds.
func TestMakeUp(t *testing.T) {
	v := position.Variants()[0]
	var s Sample
	s.Variant = v
	for _, c := range []struct {
		pos string
		pit int
	}{{"awari:1,0,0,0,0,0/0,0,2,0,0,0:1", 1}, {"awari:0,2,0,0,0,0/0,0,1,0,0,0:1", 2}, {"awari:4,0,0,0,0,0/0,3,0,0,3,0:1", 1}} {
		st, err := position.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		s.Positions, s.Pits = append(s.Positions, st.Position), append(s.Pits, c.pit)
	}
	mu := s.MakeUp()
	if mu.Positions != 3 || mu.MinSeeds != 3 || mu.MaxSeeds != 10 || mu.SeedCounts != 2 || mu.BySeeds[3] != 2 ||
		mu.BySeeds[10] != 1 || math.Abs(mu.LargestShare-2.0/3) > 1e-12 || math.Abs(mu.OneSeedSowings-1.0/3) > 1e-12 ||
		math.Abs(mu.MeanSown-7.0/3) > 1e-12 {
		t.Errorf("make-up %+v", mu)
	}
}

// The benchmark sizes: the fixed perft depths stay; a kalah size gets the
// first depth reaching 10 M nodes, or the depth where its game tree ends
// (Kalah(1,1): the one move banks the seed and empties the row, so one
// ply); the build size is the most seeds whose layers hold at most 3 M
// positions: 12 for the 2x6 boards (C(24,12) = 2,704,156 positions, 13
// seeds C(25,12) = 5,200,300), 10 for akon (C(24,14) = 1,961,256), 19 for
// Kalah(4,3) (C(27,8) = 2,220,075; 20 seeds C(28,8) = 3,108,105), and the
// whole game of Kalah(2,2).
func TestBenchmarkSizes(t *testing.T) {
	for name, want := range map[string]int{"awari": 10, "kalah": 10, "kalah-std": 10, "kalah-1x1": 1, "kalah-std-1x1": 1} {
		v, _ := position.Lookup(name)
		if got := PerftDepthOf(v); got != want {
			t.Errorf("%s: perft depth %d, want %d", name, got, want)
		}
	}
	v := position.KalahStd(6, 5)
	d := PerftDepthOf(v)
	if v.Perft(v.Start(), d) < perftTargetNodes || v.Perft(v.Start(), d-1) >= perftTargetNodes {
		t.Errorf("%s: derived perft depth %d is not the first to reach %d nodes", v.Name, d, perftTargetNodes)
	}
	for name, want := range map[string]int{"awari": 12, "oware": 12, "akon": 10, "kalah": 12, "kalah-std-4x3": 19, "kalah-2x2": 8} {
		v, _ := position.Lookup(name)
		if got := BuildSeeds(v); got != want {
			t.Errorf("%s: build seeds %d, want %d", name, got, want)
		}
	}
}

// bench build reports, per thread count, positions per second and per
// CPU-second, the speedup, and the positions built: Kalah(2,2)'s whole
// game, C(12,4) = 495 positions.
func TestBuildFigures(t *testing.T) {
	v := position.KalahStd(2, 2)
	figures, ratios, signatures, err := Build(t.Context(), []*position.Variant{v}, Options{Threads: 2, Runs: 1, Seconds: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	units := map[string]int{}
	for _, f := range figures {
		if f.Median <= 0 {
			t.Errorf("figure %+v", f)
		}
		units[f.Unit+" "+itoa(f.Threads)]++
	}
	want := map[string]int{"positions/s 1": 1, "positions/s 2": 1}
	if _, ok := processCPUSeconds(); ok {
		want["positions/CPU-s 1"], want["positions/CPU-s 2"] = 1, 1
	}
	if !maps.Equal(units, want) {
		t.Errorf("figures %v, want %v", units, want)
	}
	if len(ratios) != 1 || ratios[0].Value <= 0 {
		t.Errorf("ratios %+v, want the speedup", ratios)
	}
	if len(signatures) != 2 || signatures[0].Value != 495 {
		t.Errorf("signatures %+v, want 495 positions first", signatures)
	}
}

// bench perft counts the same nodes with and without --play-leaves.
// The short run and -race count to depth 8 instead of the fixed depths
// (20 million nodes): the counts are position/perft_test.go's.
func TestPerftPlayLeavesSameSignature(t *testing.T) {
	variants := []*position.Variant{position.KalahStd(6, 4), position.Variants()[4]}
	want := [2]uint64{13519607, 6547201} // depths 10 and 12
	if testsize.Short() {
		saved := PerftDepth
		t.Cleanup(func() { PerftDepth = saved })
		PerftDepth = map[string]int{"kalah-std": 8, "djenon-aboure": 8}
		want = [2]uint64{563055, 92742}
	}
	_, bulk := Perft(t.Context(), variants, Options{Runs: 1})
	figures, played := Perft(t.Context(), variants, Options{Runs: 1, PlayLeaves: true})
	if len(bulk) != 2 || !slices.Equal(bulk, played) || bulk[0].Value != want[0] || bulk[1].Value != want[1] {
		t.Errorf("signatures bulk %+v, leaves played %+v", bulk, played)
	}
	if !strings.HasSuffix(figures[0].Name, "leaves played") {
		t.Errorf("figure %q does not say the leaves were played", figures[0].Name)
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
