package tablebase

import (
	"fmt"

	"github.com/mancala-solver/mancala/position"
)

// Layers returns the metadata of v's complete layers in dir (layers 0..N
// with no gap, by seed count) as their builds recorded it in layer.json,
// without reading any values: positions, the checksums of the values and
// of the distances, the method and the build time. It reads layers of any
// stored format, so it compares a build with one made by an older
// program. A kalah size reads the tablebase it shares (VariantOf). A
// missing or empty dir wraps ErrNoTablebase; damaged metadata is a
// *DamageError, returned with the layers under the damage.
func Layers(dir string, v *position.Variant) ([]LayerInfo, error) {
	v = VariantOf(v)
	if dir == "" {
		return nil, fmt.Errorf("%w: no directory given", ErrNoTablebase)
	}
	if err := checkMarker(dir); err != nil {
		return nil, err
	}
	recs, err := readLayers(dir, v)
	infos := make([]LayerInfo, len(recs))
	for i, r := range recs {
		infos[i] = r.LayerInfo
	}
	return complete(infos), err
}

// ChecksumDiff compares two builds of one variant layer by layer: one line
// for each layer whose position count, value checksum (xxHash64 of the
// values) or distance checksum (of the distances) differ, and one when
// either build holds layers the other lacks. Two builds agree, whatever
// program, method or thread count made them, exactly when it returns no
// line.
func ChecksumDiff(got, want []LayerInfo) []string {
	var diffs []string
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.Positions != w.Positions || g.Checksum != w.Checksum || g.DistanceChecksum != w.DistanceChecksum {
			diffs = append(diffs, fmt.Sprintf("layer %d: %d positions, values %016x, distances %016x; the other %d, %016x, %016x",
				g.Seeds, g.Positions, g.Checksum, g.DistanceChecksum, w.Positions, w.Checksum, w.DistanceChecksum))
		}
	}
	if len(got) != len(want) {
		diffs = append(diffs, fmt.Sprintf("%d layers (0..%d), the other %d (0..%d)", len(got), len(got)-1, len(want), len(want)-1))
	}
	return diffs
}
