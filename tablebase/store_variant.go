package tablebase

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// VariantOf returns the variant whose tablebase holds v's positions: the
// one place that choice is made, called by every function of this package
// that takes a variant (Build, Verify, OpenProber, Stats, DiskBytes) and by
// anyone who reports it.
//
// Every kalah size with m pits a row shares Kalah(m,4)'s tablebase of the
// same capture rule (kalah's or kalah-std's, for six pits): the rules never
// look at the seeds a game started with, so a position of Kalah(6,5) with
// 20 seeds on the board is the same position, with the same value, as one
// of Kalah(6,4) (docs/kalah.md). The two capture rules never share one. Any
// other variant is its own.
func VariantOf(v *position.Variant) *position.Variant {
	if rules, ok := v.KalahRuleSet(); ok && v.StartSeeds != 4 {
		return position.KalahOf(rules, v.Pits, 4)
	}
	return v
}

// MissingError: the tablebase at Dir holds no layer of Variant under the
// current rules. Holds names the variants it does hold layers of (by
// VariantOf's names), so that a message can say which. Errors.Is(err,
// ErrNoTablebase) holds.
type MissingError struct {
	Dir     string
	Variant string
	Holds   []string
}

func (e *MissingError) Error() string {
	msg := fmt.Sprintf("no tablebase of %s in %s", e.Variant, e.Dir)
	if len(e.Holds) > 0 {
		msg += fmt.Sprintf(" (it holds %s's)", strings.Join(e.Holds, "'s, "))
	}
	return msg
}

func (e *MissingError) Is(target error) bool { return target == ErrNoTablebase }

// Missing returns the *MissingError for v in the tablebase at dir.
func Missing(dir string, v *position.Variant) *MissingError {
	return &MissingError{Dir: dir, Variant: v.Name, Holds: Holds(dir)}
}

// Holds returns the names of the variants whose layer 0 the tablebase at
// dir holds under the current rules, sorted; none when dir is not a
// tablebase.
func Holds(dir string) []string {
	var names []string
	for _, v := range append(position.Variants(), position.KalahVariants()...) {
		if VariantOf(v) != v {
			continue // held under another size's name
		}
		if st, err := os.Stat(filepath.Join(variantDir(dir, v), layerName(0))); err == nil && st.IsDir() {
			names = append(names, v.Name)
		}
	}
	sort.Strings(names)
	return names
}
