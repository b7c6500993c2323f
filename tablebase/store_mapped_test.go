package tablebase

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// mappedTop is the top layer of the mapped tests' kalah tablebase: layer
// 8 has 75,582 positions, two blocks.
const mappedTop = 8

// loadAll opens a prober of v at dir and loads every layer on 2 threads.
func loadAll(t *testing.T, dir string, v *position.Variant) (*Prober, Loaded) {
	t.Helper()
	pr, err := OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := pr.Load(context.Background(), -1, 2)
	if err != nil {
		pr.Close()
		t.Fatal(err)
	}
	return pr, loaded
}

// checkProbes fails unless pr answers every position of layers
// 0..mappedTop with plain minimax's value, worked out apart from the
// build.
func checkProbes(t *testing.T, pr *Prober, v *position.Variant, what string) {
	t.Helper()
	ix := NewIndex(v.Pits)
	ref := &kalahMinimax{v: v, memo: map[[2]uint64]int{}}
	for n := 0; n <= mappedTop; n++ {
		for r := uint64(0); r < uint64(ix.Size(n)); r++ {
			p := ix.Unrank(n, r)
			if value, ok := pr.Probe(p); !ok || value != ref.value(p) {
				t.Fatalf("%s: %s: probe %d (ok %v), minimax %d", what, position.Format(v, p), value, ok, ref.value(p))
			}
		}
	}
}

// TestMappedLoad: after WriteMapped, Load maps every layer (none decoded)
// and the prober answers every position of the layers with minimax's
// value, as the prober that decoded them did; a second WriteMapped keeps
// the valid files; DiskBytes leaves the files out and MappedBytes counts
// them.
func TestMappedLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only")
	}
	v := lookup(t, "kalah")
	dir := build(t, v, mappedTop, MethodAuto)
	diskBefore, err := DiskBytes(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	pr, decoded := loadAll(t, dir, v)
	checkProbes(t, pr, v, "decoded")
	pr.Close()
	if decoded.Mapped != 0 || decoded.StaleMapped != 0 {
		t.Errorf("Load with no mapped files: %+v", decoded)
	}

	st, err := WriteMapped(context.Background(), dir, v, -1, 2)
	ix := NewIndex(v.Pits)
	var want MappedStats
	want.MaxSeeds, want.Written = mappedTop, mappedTop+1
	for n := 0; n <= mappedTop; n++ {
		want.Bytes += mappedHeaderSize + ix.Size(n)
	}
	if err != nil || st != want {
		t.Fatalf("WriteMapped = %+v, %v; want %+v", st, err, want)
	}
	pr, mapped := loadAll(t, dir, v)
	defer pr.Close()
	if wantLoaded := (Loaded{MaxSeeds: mappedTop, Positions: decoded.Positions, Mapped: mappedTop + 1}); mapped != wantLoaded {
		t.Errorf("Load with mapped files = %+v, want %+v", mapped, wantLoaded)
	}
	checkProbes(t, pr, v, "mapped")

	again, err := WriteMapped(context.Background(), dir, v, -1, 2)
	if want.Written, want.Kept = 0, mappedTop+1; err != nil || again != want {
		t.Errorf("WriteMapped again = %+v, %v; want %+v", again, err, want)
	}
	diskAfter, err := DiskBytes(dir, v)
	mappedBytes, merr := MappedBytes(dir, v)
	if err != nil || merr != nil || diskAfter != diskBefore || mappedBytes < want.Bytes {
		t.Errorf("DiskBytes %d (%v), before the mapped files %d; MappedBytes %d (%v), want at least %d",
			diskAfter, err, diskBefore, mappedBytes, merr, want.Bytes)
	}
}

// TestMappedStale: a mapped file that is truncated, another layer's, of
// another build (its header's checksum not the layer's) or with a value
// changed (its header intact) is ignored: Load decodes that layer, counts
// the file stale, and every probe still has minimax's value. WriteMapped
// then writes that file again and keeps the others.
func TestMappedStale(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only")
	}
	v := lookup(t, "kalah")
	dir := build(t, v, mappedTop, MethodAuto)
	if _, err := WriteMapped(context.Background(), dir, v, -1, 2); err != nil {
		t.Fatal(err)
	}
	vdir := variantDir(dir, VariantOf(v))
	path := mappedPath(vdir, mappedTop)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edits := map[string]func([]byte) []byte{
		"truncated":     func(b []byte) []byte { return b[:len(b)-1000] },
		"header only":   func(b []byte) []byte { return b[:mappedHeaderSize] },
		"another layer": func(b []byte) []byte { b, _ = os.ReadFile(mappedPath(vdir, mappedTop-1)); return b },
		"another build": func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[24:], binary.LittleEndian.Uint64(b[24:])+1)
			return b
		},
		"a value changed": func(b []byte) []byte { b[mappedHeaderSize+70000] = byte(8 - int8(b[mappedHeaderSize+70000])); return b },
		"another magic":   func(b []byte) []byte { b[0] = 'X'; return b },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, edit(append([]byte(nil), good...)), 0o644); err != nil {
				t.Fatal(err)
			}
			pr, loaded := loadAll(t, dir, v)
			want := Loaded{MaxSeeds: mappedTop, Positions: loaded.Positions, Mapped: mappedTop, StaleMapped: 1}
			if loaded != want {
				t.Errorf("Load = %+v, want %+v", loaded, want)
			}
			checkProbes(t, pr, v, name)
			pr.Close()
			st, err := WriteMapped(context.Background(), dir, v, -1, 2)
			if err != nil || st.Written != 1 || st.Kept != mappedTop {
				t.Fatalf("WriteMapped after the edit = %+v, %v; want 1 written, %d kept", st, err, mappedTop)
			}
			if got, _ := os.ReadFile(path); string(got) != string(good) {
				t.Errorf("the file written again differs from the first")
			}
		})
	}
}

// TestMappedBesideStore: with the mapped directory (and a killed
// writer's temporary file) in the variant's directory, Verify opens and
// checks every layer's Badger database, a build resumes above the mapped
// layers and removes the temporary file, and Load then maps the layers
// that have a file and decodes the new one.
func TestMappedBesideStore(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only")
	}
	v := lookup(t, "kalah")
	dir := build(t, v, mappedTop-1, MethodAuto)
	if _, err := WriteMapped(context.Background(), dir, v, -1, 2); err != nil {
		t.Fatal(err)
	}
	vdir := variantDir(dir, VariantOf(v))
	tmp := mappedPath(vdir, mappedTop) + ".tmp"
	if err := os.WriteFile(tmp, []byte("half written"), 0o644); err != nil {
		t.Fatal(err)
	}
	if checks, err := Verify(context.Background(), dir, v, VerifyOptions{}); err != nil || len(checks) != mappedTop {
		t.Fatalf("Verify with the mapped directory: %d layers, %v", len(checks), err)
	}
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: mappedTop, Threads: 2}); err != nil {
		t.Fatalf("resuming the build beside the mapped directory: %v", err)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the build left the temporary file %s (%v)", filepath.Base(tmp), err)
	}
	pr, loaded := loadAll(t, dir, v)
	defer pr.Close()
	if loaded.Mapped != mappedTop || loaded.StaleMapped != 0 || loaded.MaxSeeds != mappedTop {
		t.Errorf("Load after the resumed build = %+v, want layers 0..%d, %d mapped, none stale", loaded, mappedTop, mappedTop)
	}
	checkProbes(t, pr, v, "resumed")
}

// TestWriteMappedRefuses: WriteMapped fails while a build holds the lock
// (ErrInUse), on a directory with no tablebase (ErrNoTablebase), and at a
// damaged layer (a *DamageError naming it), having written the layers
// below it and no file for it.
func TestWriteMappedRefuses(t *testing.T) {
	v := lookup(t, "kalah")
	ctx := context.Background()
	if _, err := WriteMapped(ctx, t.TempDir(), v, -1, 1); !errors.Is(err, ErrNoTablebase) {
		t.Errorf("WriteMapped of an empty directory: %v, want ErrNoTablebase", err)
	}
	dir := build(t, v, mappedTop, MethodAuto)
	s, err := openStore(dir, VariantOf(v), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteMapped(ctx, dir, v, -1, 1); !errors.Is(err, ErrInUse) {
		t.Errorf("WriteMapped during a build: %v, want ErrInUse", err)
	}
	s.close()
	rewriteBlock(t, dir, v, mappedTop, 1, func(blk []int8) { blk[77] = 8 - blk[77] })
	st, err := WriteMapped(ctx, dir, v, -1, 2)
	var dmg *DamageError
	if !errors.As(err, &dmg) || dmg.Seeds != mappedTop || st.MaxSeeds != mappedTop-1 || st.Written != mappedTop {
		t.Errorf("WriteMapped of a damaged layer %d: %+v, %v; want a *DamageError of it, layers below written", mappedTop, st, err)
	}
	vdir := variantDir(dir, VariantOf(v))
	for _, p := range []string{mappedPath(vdir, mappedTop), mappedPath(vdir, mappedTop) + ".tmp"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after the damaged layer: %v, want none", filepath.Base(p), err)
		}
	}
}

// TestBuildMapped: BuildOptions.Mapped writes the mapped files of the
// layers a build resumes (from the values it reads) and of those it
// builds, every one of which Load then maps, with minimax's values; a
// build of nothing more keeps them all.
func TestBuildMapped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only")
	}
	v := lookup(t, "kalah")
	dir := build(t, v, mappedTop-2, MethodAuto)
	ctx := context.Background()
	st, err := Build(ctx, dir, v, BuildOptions{MaxSeeds: mappedTop, Threads: 2, Mapped: true})
	want := MappedStats{MaxSeeds: mappedTop, Written: mappedTop + 1}
	ix := NewIndex(v.Pits)
	for n := 0; n <= mappedTop; n++ {
		want.Bytes += mappedHeaderSize + ix.Size(n)
	}
	if err != nil || st.Resumed != mappedTop-1 || st.Mapped != want {
		t.Fatalf("Build with Mapped: %d resumed, %+v, %v; want %d resumed, %+v", st.Resumed, st.Mapped, err, mappedTop-1, want)
	}
	pr, loaded := loadAll(t, dir, v)
	if loaded.Mapped != mappedTop+1 || loaded.StaleMapped != 0 {
		t.Errorf("Load after Build with Mapped: %+v", loaded)
	}
	checkProbes(t, pr, v, "built mapped")
	pr.Close()
	st, err = Build(ctx, dir, v, BuildOptions{MaxSeeds: mappedTop, Threads: 2, Mapped: true})
	if want.Written, want.Kept = 0, mappedTop+1; err != nil || st.Mapped != want {
		t.Errorf("Build with Mapped again: %+v, %v; want %+v", st.Mapped, err, want)
	}
}
