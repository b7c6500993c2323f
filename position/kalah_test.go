package position

import (
	"fmt"
	"testing"
)

// TestKalahNames: every kalah variant is found by its own name and prints
// it; the sizes are kalah-MxN and kalah-std-MxN except Kalah(6,4), named
// kalah and kalah-std (kalah-6x4 and kalah-std-6x4 find them too); names
// outside the grammar are refused.
func TestKalahNames(t *testing.T) {
	for _, rules := range []KalahRules{KalahEmptyCapture, KalahStandard} {
		prefix := map[KalahRules]string{KalahEmptyCapture: "kalah", KalahStandard: "kalah-std"}[rules]
		for m := 1; m <= KalahMaxPits; m++ {
			for n := 1; n <= KalahMaxSeeds; n++ {
				want := fmt.Sprintf("%s-%dx%d", prefix, m, n)
				v, err := Lookup(want)
				if err != nil {
					t.Fatal(err)
				}
				if m == 6 && n == 4 {
					want = prefix
				}
				if got, ok := v.KalahRuleSet(); v.Name != want || !ok || got != rules || v.Pits != m || v.StartSeeds != n {
					t.Errorf("Lookup(%s-%dx%d) = %s (rules %d, %dx%d)", prefix, m, n, v.Name, got, v.Pits, v.StartSeeds)
				}
				if v2, err := Lookup(v.Name); err != nil || v2 != v {
					t.Errorf("Lookup(%q) does not give the same variant back (%v)", v.Name, err)
				}
			}
		}
	}
	for _, bad := range []string{"kalah-std-7x4", "kalah-std-", "kalah-std6x4", "kalah-sdt", "kalah-std-6x0",
		"kalah-std-6x44", "kalah-6x4-std", "kalah-std-std", "kalah-0x1", "kalah-"} {
		if v, err := Lookup(bad); err == nil {
			t.Errorf("Lookup(%q) = %s, want an error", bad, v.Name)
		}
	}
}

// TestKalahRuleSetsKeepApart: the two rule sets differ in EmptyCapture
// only; every variant has its own ID (tablebase keys, hash salts); each
// rule set has its rules version (tablebase/kalah_test.go checks that a
// size's tablebase is Kalah(m,4)'s of the same rule set).
func TestKalahRuleSetsKeepApart(t *testing.T) {
	ids := map[uint8]string{}
	for _, v := range append(Variants(), KalahVariants()...) {
		if other, dup := ids[v.ID]; dup {
			t.Errorf("%s and %s share ID %d", v.Name, other, v.ID)
		}
		ids[v.ID] = v.Name
	}
	if len(KalahVariants()) != 72 {
		t.Errorf("%d kalah variants, want 72", len(KalahVariants()))
	}
	for m := 1; m <= KalahMaxPits; m++ {
		for n := 1; n <= KalahMaxSeeds; n++ {
			empty, std := Kalah(m, n), KalahStd(m, n)
			if !empty.EmptyCapture || std.EmptyCapture {
				t.Errorf("Kalah(%d,%d): EmptyCapture %v for %s, %v for %s", m, n, empty.EmptyCapture, empty.Name,
					std.EmptyCapture, std.Name)
			}
			same := *std
			same.Name, same.ID, same.EmptyCapture = empty.Name, empty.ID, true
			if fmt.Sprint(same) != fmt.Sprint(*empty) {
				t.Errorf("%s and %s differ in more than the capture rule", empty.Name, std.Name)
			}
			if empty.RulesVersion() != KalahRulesVersion || std.RulesVersion() != KalahStdRulesVersion {
				t.Errorf("Kalah(%d,%d): rules versions %d and %d", m, n, empty.RulesVersion(), std.RulesVersion())
			}
		}
	}
}
