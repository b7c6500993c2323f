package tablebase

import (
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestVariantOf: each kalah size is held by the four-seed size of its row
// length and capture rule (the two rules never share); every other
// variant by itself.
func TestVariantOf(t *testing.T) {
	for _, v := range position.KalahVariants() {
		rules, _ := v.KalahRuleSet()
		if got, want := VariantOf(v), position.KalahOf(rules, v.Pits, 4); got != want {
			t.Errorf("VariantOf(%s) = %s, want %s", v.Name, got.Name, want.Name)
		}
	}
	for _, v := range position.Variants() {
		if v.Sow != position.SowStore && VariantOf(v) != v {
			t.Errorf("VariantOf(%s) = %s, want itself", v.Name, VariantOf(v).Name)
		}
	}
}
