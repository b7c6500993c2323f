package tablebase

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDanglingLinks: a variant's layer directory or the marker replaced
// by a symbolic link to nothing is named as such, with where it points,
// by builds and readers alike; a build with Repair replaces the layer
// directory by a fresh one and rebuilds the same checksums, and writes
// the marker again over intact layers (reliability trial 4-5 of issue 43:
// "mkdir ...: file exists", "more seeds than a tablebase can hold" and
// "is not empty and is not a tablebase").
func TestDanglingLinks(t *testing.T) {
	v := lookup(t, "awari")
	dir := build(t, v, 5, MethodAuto)
	want := layerChecksums(t, dir, v)
	nowhere := filepath.Join(t.TempDir(), "nowhere")
	ctx := context.Background()
	for _, path := range []string{variantDir(dir, v), filepath.Join(dir, markerName)} {
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(nowhere, path); err != nil {
			t.Fatal(err)
		}
		var link *DanglingLinkError
		if _, err := Build(ctx, dir, v, BuildOptions{MaxSeeds: 5, Threads: 1}); !errors.As(err, &link) || link.Path != path || link.Target != nowhere {
			t.Errorf("%s: build: %v; want a dangling link error naming it and %s", path, err, nowhere)
		}
		if _, err := OpenProber(dir, v); !errors.As(err, &link) {
			t.Errorf("%s: reader: %v; want a dangling link error", path, err)
		}
		if _, err := Build(ctx, dir, v, BuildOptions{MaxSeeds: 5, Threads: 1, Repair: true}); err != nil {
			t.Fatalf("%s: repair: %v", path, err)
		}
		if got := layerChecksums(t, dir, v); !slices.Equal(got, want) {
			t.Errorf("%s: after repair, checksums %v, want %v", path, got, want)
		}
		pr, err := OpenProber(dir, v)
		if err != nil || pr.MaxSeeds() != 5 {
			t.Fatalf("%s: after repair: %v", path, err)
		}
		pr.Close()
	}
}
