package tablebase

import (
	"fmt"

	"mancala/position"
)

// Supports reports whether Build and BuildMemory compute v's values
// correctly. The retrograde build values a move that banks seeds as the
// seeds minus the child's value (retro.go exitValue), which is wrong after
// kalah's extra move, where the same player moves again (Move.Value adds
// the child's value instead). Until the build takes Move.Value, kalah
// variants are refused rather than given wrong values.
func Supports(v *position.Variant) bool { return v.Sow != position.SowStore }

// errUnsupported is the error Build and BuildMemory give for a variant
// that Supports refuses.
func errUnsupported(v *position.Variant) error {
	return fmt.Errorf("%s: tablebases of variants with extra moves are not built yet", v.Name)
}
