package solver

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestFeaturesExported: Features gives, by name, the values that
// TestFeaturesByHand works out for the same oware position, and nil for
// a position without moves.
func TestFeaturesExported(t *testing.T) {
	v := mustVariant(t, "oware")
	p := position.Position{Own: position.PackRow([]int{1, 0, 0, 0, 0, 2}), Opp: position.PackRow([]int{1, 2, 0, 0, 0, 13})}
	want := map[string]float64{"tempo": 1, "row-diff": 3 - 16, "capture": 5, "threat": 5, "own-weak": 2, "opp-weak": 2,
		"own-moves": 2, "opp-moves": 3, "own-kroo": 0, "opp-kroo": 2, "own-reach": 1, "opp-reach": 1}
	f, names := Features(v, p), FeatureNames()
	if len(f) != len(names) || len(names) != len(want) || len(TunedWeights()) != len(names) {
		t.Fatalf("%d features, %d names, %d weights; want %d", len(f), len(names), len(TunedWeights()), len(want))
	}
	for i, name := range names {
		if w, ok := want[name]; !ok || f[i] != w {
			t.Errorf("%s = %v, want %v", name, f[i], w)
		}
	}
	over := position.Position{Own: 0, Opp: position.PackRow([]int{0, 0, 0, 0, 0, 1})}
	if f := Features(v, over); f != nil {
		t.Errorf("a position without moves: %v, want nil", f)
	}
}

// TestSetWeights: the committed weights set again search exactly as the
// default (same nodes and value at a fixed depth, one thread); weights
// that differ change the search; a wrong count is an error.
func TestSetWeights(t *testing.T) {
	v := mustVariant(t, "oware")
	search := func(w []float64) Result {
		s, err := New(Options{Threads: 1, HashMiB: 1, MaxDepth: 6, Estimate: EstimateTuned})
		if err != nil {
			t.Fatal(err)
		}
		if w != nil {
			if err := s.SetWeights(w); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Search(context.Background(), v, v.Start())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	def, same := search(nil), search(TunedWeights())
	if def.Nodes != same.Nodes || def.Value != same.Value {
		t.Errorf("committed weights set again: %d nodes, value %d; default %d, %d", same.Nodes, same.Value, def.Nodes, def.Value)
	}
	rows := make([]float64, len(FeatureNames()))
	rows[1] = 0.25 // row-diff: the rows estimate's quarter seed a seed
	if other := search(rows); other.Nodes == def.Nodes {
		t.Errorf("other weights searched the same %d nodes", other.Nodes)
	}
	s, _ := New(Options{HashMiB: 1})
	if err := s.SetWeights([]float64{1}); err == nil {
		t.Error("one weight accepted")
	}
}

// TestVariantWeights: a variant with weights of its own (akon) searches
// by default (EstimateAuto, and EstimateTuned) exactly as with those
// weights set, and not as with oware's; oware's default is oware's.
func TestVariantWeights(t *testing.T) {
	search := func(name string, e Estimate, w []float64) Result {
		s, err := New(Options{Threads: 1, HashMiB: 1, MaxDepth: 6, Estimate: e})
		if err != nil {
			t.Fatal(err)
		}
		if w != nil {
			if err := s.SetWeights(w); err != nil {
				t.Fatal(err)
			}
		}
		v := mustVariant(t, name)
		res, err := s.Search(context.Background(), v, v.Start())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	akon := variantWeights["akon"]
	own := search("akon", EstimateTuned, akon[:])
	for _, e := range []Estimate{EstimateAuto, EstimateTuned} {
		if got := search("akon", e, nil); got.Nodes != own.Nodes || got.Value != own.Value {
			t.Errorf("akon, %v: %d nodes, value %d; with akon's weights set %d, %d", e, got.Nodes, got.Value, own.Nodes, own.Value)
		}
	}
	if oware := search("akon", EstimateTuned, TunedWeights()); oware.Nodes == own.Nodes {
		t.Errorf("akon with oware's weights searched the same %d nodes as with its own", own.Nodes)
	}
	if def, set := search("oware", EstimateAuto, nil), search("oware", EstimateTuned, TunedWeights()); def.Nodes != set.Nodes {
		t.Errorf("oware: default %d nodes, oware's weights set %d", def.Nodes, set.Nodes)
	}
}
