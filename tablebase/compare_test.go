package tablebase

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestChecksumDiff: the comparison finds a layer whose values, distances
// or size differ, and a missing layer; equal builds give no line.
func TestChecksumDiff(t *testing.T) {
	base := []LayerInfo{{Seeds: 0, Positions: 1, Checksum: 1, DistanceChecksum: 2}, {Seeds: 1, Positions: 12, Checksum: 3, DistanceChecksum: 4}}
	same := slices.Clone(base)
	same[1].Method, same[1].Seconds = "graph", 9 // not part of the signature
	if d := ChecksumDiff(same, base); len(d) != 0 {
		t.Errorf("equal builds: %q", d)
	}
	for _, change := range []func(*LayerInfo){
		func(l *LayerInfo) { l.Checksum++ },
		func(l *LayerInfo) { l.DistanceChecksum++ },
		func(l *LayerInfo) { l.Positions++ },
	} {
		other := slices.Clone(base)
		change(&other[1])
		if d := ChecksumDiff(other, base); len(d) != 1 || !strings.HasPrefix(d[0], "layer 1:") {
			t.Errorf("a changed layer 1: %q", d)
		}
	}
	for _, d := range [][]string{ChecksumDiff(base[:1], base), ChecksumDiff(base, base[:1])} {
		if len(d) != 1 || !strings.Contains(d[0], "layers") {
			t.Errorf("a missing layer: %q", d)
		}
	}
}

// TestLayersAgreeWithStats: Layers reads, from metadata alone, the
// checksums that Stats reports after reading every value; two builds of
// one variant by different methods agree by ChecksumDiff, and a directory
// without a tablebase is ErrNoTablebase.
func TestLayersAgreeWithStats(t *testing.T) {
	v := lookup(t, "awari")
	dir := build(t, v, 5, MethodAuto)
	infos, err := Layers(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := Stats(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 6 || len(stats) != 6 {
		t.Fatalf("%d layers by Layers, %d by Stats; want 6 (0..5 seeds)", len(infos), len(stats))
	}
	for i, s := range stats {
		if g := infos[i]; g.Seeds != s.Seeds || g.Positions != s.Positions || g.Checksum != s.Checksum || g.DistanceChecksum != s.DistanceChecksum {
			t.Errorf("layer %d: Layers %+v, Stats %+v", i, g, s)
		}
	}
	other, err := Layers(build(t, v, 5, MethodGraph), v)
	if err != nil {
		t.Fatal(err)
	}
	if d := ChecksumDiff(other, infos); len(d) != 0 {
		t.Errorf("graph against auto build: %q", d)
	}
	if _, err := Layers(t.TempDir(), v); !errors.Is(err, ErrNoTablebase) {
		t.Errorf("empty directory: %v, want ErrNoTablebase", err)
	}
}
