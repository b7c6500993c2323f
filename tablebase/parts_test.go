package tablebase

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sync/errgroup"

	"github.com/mancala-solver/mancala/position"
)

// partsChecksums returns the value and distance checksums of the
// complete layers of the parts at dir.
func partsChecksums(t *testing.T, dir string, v *position.Variant) [][2]uint64 {
	t.Helper()
	p, err := openParts(dir, v, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	recs, err := p.layers()
	if err != nil {
		t.Fatal(err)
	}
	var sums [][2]uint64
	for _, rec := range recs {
		sums = append(sums, [2]uint64{rec.Checksum, rec.DistanceChecksum})
	}
	return sums
}

// sameValues checks that layers 0..seeds of v have the same values and
// distances, read back block by block, in the tablebases at got and want.
func sameValues(t *testing.T, got, want string, v *position.Variant, seeds int) {
	t.Helper()
	read := func(dir string) ([][]int8, [][]uint16) {
		s, infos, err := openReading(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		var values [][]int8
		var dists [][]uint16
		for _, info := range infos[:seeds+1] {
			vals, err := s.loadLayer(info)
			if err != nil {
				t.Fatal(err)
			}
			dist, err := s.loadDistances(info)
			if err != nil {
				t.Fatal(err)
			}
			values, dists = append(values, vals), append(dists, dist)
		}
		return values, dists
	}
	gv, gd := read(got)
	wv, wd := read(want)
	for n := range wv {
		if !slices.Equal(gv[n], wv[n]) || !slices.Equal(gd[n], wd[n]) {
			t.Errorf("layer %d: values or distances differ from the one-machine build's", n)
		}
	}
}

// partPath is the file of part rank of layer n of v in the parts at dir.
func partPath(dir string, v *position.Variant, n, rank int) string {
	return filepath.Join(variantDir(dir, v), layerName(n), partName(rank))
}

// TestPartsDamageRefused: a byte changed in a part file (awari, 3 ranks,
// layer 10: six blocks, two a part) makes Import refuse that layer,
// naming the part, after importing the layers below it; a build resuming
// on the parts refuses it too.
func TestPartsDamageRefused(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	v := lookup(t, "awari")
	parts := t.TempDir()
	buildCluster(t, parts, "awari", 3, 10)
	path := partPath(parts, v, 10, 1)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[100] ^= 0x40
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tb := t.TempDir()
	st, err := Import(context.Background(), parts, tb, v, ImportOptions{})
	if err == nil || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "layer 10") || !strings.Contains(err.Error(), "part-0001") {
		t.Fatalf("import of a damaged part: %v; want damage naming layer 10's part-0001", err)
	}
	if st.MaxSeeds != 9 || len(completeLayers(t, tb, v)) != 10 {
		t.Errorf("imported to layer %d, %d layers stored; want 9, 10", st.MaxSeeds, len(completeLayers(t, tb, v)))
	}
	_, err = tryBuildCluster(parts, v, 3, 11, nil)
	if err == nil || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "part-0001") {
		t.Errorf("build resuming on a damaged part: %v; want damage naming part-0001", err)
	}
}

// TestPartsImportResumes: an import interrupted before layer 7's metadata
// leaves layers 0..6 in the tablebase; run again, it keeps them and
// imports the rest, equal to the one-machine build.
func TestPartsImportResumes(t *testing.T) {
	v := lookup(t, "oware")
	parts := t.TempDir()
	buildCluster(t, parts, "oware", 4, 10)
	tb := t.TempDir()
	beforeMeta = func(seeds int) error {
		if seeds == 7 {
			return errors.New("interrupted")
		}
		return nil
	}
	_, err := Import(context.Background(), parts, tb, v, ImportOptions{})
	beforeMeta = nil
	if err == nil || len(completeLayers(t, tb, v)) != 7 {
		t.Fatalf("interrupted import: %v, %d layers stored; want an error, 7", err, len(completeLayers(t, tb, v)))
	}
	st, err := Import(context.Background(), parts, tb, v, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Kept != 7 || len(st.Layers) != 4 || st.MaxSeeds != 10 {
		t.Errorf("resumed import: kept %d, imported %d, to %d; want 7, 4, 10", st.Kept, len(st.Layers), st.MaxSeeds)
	}
	one := refBuild(t, v, 10, MethodAuto)
	if got, want := layerChecksums(t, tb, v), layerChecksums(t, one, v); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums\n%x\nwant\n%x", got, want)
	}
}

// TestPartsBuildResumes: a rank failing at the start of layer 9 stops
// every rank with layers 0..8 complete; the build run again resumes at
// 9. Then layer 10's metadata removed and one of its parts garbled (a
// half-written layer): the build run again rebuilds layer 10 alone. The
// result equals the one-machine build.
func TestPartsBuildResumes(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	v := lookup(t, "awari")
	parts := t.TempDir()
	failed := errors.New("rank 2 fails")
	_, err := tryBuildCluster(parts, v, 3, 10, func(rank int, p LayerPlan) error {
		if rank == 2 && p.Seeds == 9 {
			return failed
		}
		return nil
	})
	if !errors.Is(err, failed) {
		t.Fatalf("a failing rank: %v, want %v", err, failed)
	}
	st := buildCluster(t, parts, "awari", 3, 10)[0]
	if st.Resumed != 9 || len(st.Layers) != 2 {
		t.Errorf("after a failure at layer 9: resumed %d, built %d; want 9, 2", st.Resumed, len(st.Layers))
	}
	if err := os.Remove(filepath.Join(variantDir(parts, v), layerName(10), layerFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(partPath(parts, v, 10, 1), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	st = buildCluster(t, parts, "awari", 3, 10)[0]
	if st.Resumed != 10 || len(st.Layers) != 1 {
		t.Errorf("after a half-written layer 10: resumed %d, built %d; want 10, 1", st.Resumed, len(st.Layers))
	}
	tb, _ := importParts(t, parts, v)
	one := refBuild(t, v, 10, MethodAuto)
	if got, want := layerChecksums(t, tb, v), layerChecksums(t, one, v); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums\n%x\nwant\n%x", got, want)
	}
	// The parts' directory is not a tablebase, nor a tablebase parts
	// (tried on a copy: the reference is shared).
	copied := filepath.Join(t.TempDir(), "tb")
	if err := os.CopyFS(copied, os.DirFS(one)); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), copied, v, BuildOptions{MaxSeeds: 10, Threads: 1, Parts: 1, Cluster: newGoClusters(1)[0]}); err == nil || !strings.Contains(err.Error(), "one-machine tablebase") {
		t.Errorf("a build in parts into a tablebase: %v; want a refusal", err)
	}
}

// TestPartsImportByLayer: one import a layer, all at once (the tasks of
// an array job), fill the tablebase; an import of every layer then keeps
// them all, and they equal the one-machine build; a layer the parts do
// not hold is refused.
func TestPartsImportByLayer(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	v := lookup(t, "awari")
	parts := t.TempDir()
	buildCluster(t, parts, "awari", 3, 10)
	tb := t.TempDir()
	var eg errgroup.Group
	for n := 10; n >= 0; n-- {
		eg.Go(func() error {
			st, err := Import(context.Background(), parts, tb, v, ImportOptions{Layers: []int{n}})
			if err == nil && (len(st.Layers) != 1 || st.Layers[0].Seeds != n) {
				err = fmt.Errorf("imported %d layers, want layer %d", len(st.Layers), n)
			}
			return err
		})
	}
	if err := eg.Wait(); err != nil {
		t.Fatal(err)
	}
	st, err := Import(context.Background(), parts, tb, v, ImportOptions{})
	if err != nil || st.Kept != 11 || len(st.Layers) != 0 || st.MaxSeeds != 10 {
		t.Errorf("import after the layers' imports: %v, kept %d, imported %d, to %d; want nil, 11, 0, 10", err, st.Kept, len(st.Layers), st.MaxSeeds)
	}
	one := refBuild(t, v, 10, MethodAuto)
	if got, want := layerChecksums(t, tb, v), layerChecksums(t, one, v); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums\n%x\nwant\n%x", got, want)
	}
	if _, err := Import(context.Background(), parts, tb, v, ImportOptions{Layers: []int{11}}); err == nil || !strings.Contains(err.Error(), "layer 11 is not complete") {
		t.Errorf("importing a layer the parts lack: %v", err)
	}
}

// TestHashSolvedState: a range hashed from its propagation state gives
// the sums of its values and distances hashed as arrays (xxhash.Sum64
// and distanceChecksum), so storeRange may be given either.
func TestHashSolvedState(t *testing.T) {
	state := make([]uint32, 3*4096+17)
	for i := range state {
		state[i] = uint32(i)*2654435761 ^ uint32(i>>3)
	}
	values, dist := stateArrays(slices.Clone(state))
	hv, hd := xxhash.New(), xxhash.New()
	hashSolved(hv, hd, solved{state: state})
	if hv.Sum64() != xxhash.Sum64(int8Bytes(values)) || hd.Sum64() != distanceChecksum(dist) {
		t.Errorf("from the state: %016x/%016x; from the arrays: %016x/%016x", hv.Sum64(), hd.Sum64(), xxhash.Sum64(int8Bytes(values)), distanceChecksum(dist))
	}
}
