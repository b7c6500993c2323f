package tablebase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/mancala-solver/mancala/position"
)

// The mapped form of a layer (docs/tablebase-design.md, "Mapped layers")
// is its values, one byte a position in rank order, in a plain file that
// Prober.Load maps into memory instead of decoding the layer's blocks:
//
//	DIR/<variant>.r<rules>/mapped/layer-NN.values
//
// It is derived from the store, never the only copy: WriteMapped writes
// it from the layer's blocks, and Load uses it only when its header names
// the layer as stored (variant, rules version, seed count, positions and
// the values' checksum its build recorded) and its values hash to that
// checksum; any other file is ignored and the layer decoded. A file is
// written whole under a temporary name and renamed into place, never
// rewritten, so a prober's mapping stays the file it checked.
//
// Header, mappedHeaderSize bytes, little-endian:
//
//	0   [8]byte  mappedMagic
//	8   uint32   rules version
//	12  uint32   seeds (the layer)
//	16  uint64   positions
//	24  uint64   xxHash64 of the values (LayerInfo.Checksum)
//	32  [32]byte the variant's name (VariantOf), zero-padded
//
// then the positions' values, one int8 each.
const (
	mappedDirName    = "mapped"
	mappedSuffix     = ".values"
	mappedMagic      = "MNCLVAL1"
	mappedHeaderSize = 64
	mappedNameBytes  = 32
)

// errNoMapping: this system maps no files (store_mapped_other.go).
var errNoMapping = errors.New("files are not mapped on this system")

// mappedDir is the directory of v's mapped layers in the tablebase at dir.
func mappedDir(vdir string) string { return filepath.Join(vdir, mappedDirName) }

// mappedPath is the mapped file of layer n.
func mappedPath(vdir string, n int) string {
	return filepath.Join(mappedDir(vdir), layerName(n)+mappedSuffix)
}

// mappedHeader is the header of info's mapped file.
func mappedHeader(info LayerInfo) []byte {
	h := make([]byte, mappedHeaderSize)
	copy(h, mappedMagic)
	binary.LittleEndian.PutUint32(h[8:], uint32(info.RulesVersion))
	binary.LittleEndian.PutUint32(h[12:], uint32(info.Seeds))
	binary.LittleEndian.PutUint64(h[16:], uint64(info.Positions))
	binary.LittleEndian.PutUint64(h[24:], info.Checksum)
	copy(h[32:32+mappedNameBytes], info.Variant)
	return h
}

// StaleMappedError says why a layer's mapped file was not used: its
// header names another layer or build (a stale file), its size is not the
// header's and the layer's (truncated), or its values fail the checksum
// (damaged). Load then decodes the layer from the store.
type StaleMappedError struct {
	Path   string
	Seeds  int
	Detail string
}

func (e *StaleMappedError) Error() string {
	return fmt.Sprintf("mapped layer %d (%s): %s", e.Seeds, e.Path, e.Detail)
}

// openMapped maps info's mapped file read-only and returns its values and
// the function that unmaps them, after checking its size and header
// against info, but not yet its values (checkMapped). The error wraps
// fs.ErrNotExist when there is no file, errNoMapping on a system without
// mappings, or is a *StaleMappedError.
func openMapped(vdir string, info LayerInfo) ([]int8, func(), error) {
	path := mappedPath(vdir, info.Seeds)
	stale := func(format string, args ...any) error {
		return &StaleMappedError{Path: path, Seeds: info.Seeds, Detail: fmt.Sprintf(format, args...)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := mappedHeaderSize + info.Positions
	if fi.Size() != size {
		return nil, nil, stale("%d bytes, want %d (truncated or not this layer's)", fi.Size(), size)
	}
	header := make([]byte, mappedHeaderSize)
	if _, err := io.ReadFull(f, header); err != nil {
		return nil, nil, stale("header: %v", err)
	}
	if want := mappedHeader(info); !bytes.Equal(header, want) {
		return nil, nil, stale("header %s, want %s (a stale file, or not this tablebase's)", headerText(header), headerText(want))
	}
	b, release, err := mapFile(f, int(size), false)
	if err != nil {
		return nil, nil, err
	}
	return bytesInt8(b[mappedHeaderSize:]), release, nil
}

// headerText is a mapped file's header as the errors show it.
func headerText(h []byte) string {
	name := strings.TrimRight(string(h[32:32+mappedNameBytes]), "\x00")
	return fmt.Sprintf("%q %s.r%d layer %d, %d positions, xxhash64 %016x", clipText(string(h[:8]), 8), clipText(name, 32),
		binary.LittleEndian.Uint32(h[8:]), binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint64(h[16:]), binary.LittleEndian.Uint64(h[24:]))
}

// checkMapped returns a *StaleMappedError when a mapped layer's values do
// not hash to the checksum its build recorded.
func checkMapped(vdir string, info LayerInfo, values []int8) error {
	if sum := xxhash.Sum64(int8Bytes(values)); sum != info.Checksum {
		return &StaleMappedError{Path: mappedPath(vdir, info.Seeds), Seeds: info.Seeds,
			Detail: fmt.Sprintf("values hash to %016x, the layer's build recorded %016x (damaged)", sum, info.Checksum)}
	}
	return nil
}

// bytesInt8 is b as int8s, the same memory.
func bytesInt8(b []byte) []int8 {
	return unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

// MappedStats is what WriteMapped did.
type MappedStats struct {
	MaxSeeds int   // the highest layer that has a mapped file; -1: none
	Written  int   // layers whose file was written (missing, stale or damaged before)
	Kept     int   // layers whose file was there and valid
	Bytes    int64 // the mapped files of layers 0..MaxSeeds, bytes (header and one byte a position)
}

// WriteMapped writes the mapped form of v's layers 0..maxSeeds (every
// stored layer when maxSeeds is negative or beyond them) in the tablebase
// at dir: one file a layer, its values one byte a position (Kalah's six-pit
// tablebase to 20 seeds: 216 MB beside its 119 MB store), which
// Prober.Load then maps instead of decoding. A layer's file that is
// already there and valid is kept; a stale, truncated or damaged one is
// written again. Each layer is decoded from the store on threads
// goroutines (0: all cores) and checked against its recorded checksum
// before its file is renamed into place.
//
// It takes the variant's build lock (an error wrapping ErrInUse while a
// build runs) and removes what a killed WriteMapped left. Errors:
// ErrNoTablebase (wrapped) for a directory with no tablebase, a
// *DamageError for a damaged layer (nothing is written for it or above
// it), an error wrapping syscall.ENOSPC when the disk has too little room
// for a layer's file (checked before it is written), ctx's error when
// cancelled. The layers written before an error stay.
func WriteMapped(ctx context.Context, dir string, v *position.Variant, maxSeeds, threads int) (MappedStats, error) {
	stats := MappedStats{MaxSeeds: -1}
	v = VariantOf(v)
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	if err := checkMarker(dir); err != nil {
		return stats, err
	}
	s, err := openStore(dir, v, true)
	if err != nil {
		return stats, err
	}
	defer s.close()
	infos, err := s.layers()
	if err != nil {
		return stats, err
	}
	if len(infos) == 0 {
		return stats, Missing(dir, v)
	}
	if err := checkFormat(dir, v, infos); err != nil {
		return stats, err
	}
	if maxSeeds >= 0 && maxSeeds < len(infos) {
		infos = infos[:maxSeeds+1]
	}
	return s.writeMappedLayers(ctx, infos, threads, nil)
}

// writeMappedLayers writes the mapped files of the layers infos (0..k),
// keeping the valid ones; those of the layers in fresh, written just
// before (Build's resume), count as written.
func (s *store) writeMappedLayers(ctx context.Context, infos []LayerInfo, threads int, fresh map[int]bool) (MappedStats, error) {
	stats := MappedStats{MaxSeeds: -1}
	if err := s.prepareMapped(); err != nil {
		return stats, err
	}
	for _, info := range infos {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		switch {
		case fresh[info.Seeds]: // written from checked values
			stats.Written++
		case mappedValid(s.vdir, info):
			stats.Kept++
		default:
			if err := s.writeMapped(ctx, info, threads); err != nil {
				return stats, err
			}
			stats.Written++
		}
		stats.MaxSeeds = info.Seeds
		stats.Bytes += mappedHeaderSize + info.Positions
	}
	return stats, nil
}

// prepareMapped makes the directory of the variant's mapped files.
func (s *store) prepareMapped() error {
	if len(s.v.Name) > mappedNameBytes {
		return fmt.Errorf("variant name %q: longer than a mapped file's %d bytes", s.v.Name, mappedNameBytes)
	}
	return os.MkdirAll(mappedDir(s.vdir), 0o777)
}

// mapResumed writes the mapped file of a layer a build resumed, from its
// values, when BuildOptions.Mapped asks for it and no valid file is there.
func (b *builder) mapResumed(info LayerInfo, values []int8) error {
	if !b.opts.Mapped || mappedValid(b.s.vdir, info) {
		return nil
	}
	if err := b.s.prepareMapped(); err != nil {
		return err
	}
	if err := b.s.writeMappedValues(info, values); err != nil {
		return err
	}
	if b.mappedNow == nil {
		b.mappedNow = map[int]bool{}
	}
	b.mappedNow[info.Seeds] = true
	return nil
}

// writeMappedValues writes info's mapped file from its values, checked
// already (loadLayer).
func (s *store) writeMappedValues(info LayerInfo, values []int8) error {
	return s.writeMappedFile(info, func(f *os.File) error {
		if _, err := f.Write(mappedHeader(info)); err != nil {
			return err
		}
		_, err := f.Write(int8Bytes(values))
		return err
	})
}

// writeMappedFile writes info's mapped file by fill, into a temporary
// file that it renames into place once fill succeeds (commitTemp), after
// checking the free space; a full disk's error names the file and what to
// do.
func (s *store) writeMappedFile(info LayerInfo, fill func(f *os.File) error) error {
	if err := s.checkMappedSpace(mappedHeaderSize + info.Positions); err != nil {
		return err
	}
	path := mappedPath(s.vdir, info.Seeds)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	err = fill(f)
	if errors.Is(err, syscall.ENOSPC) {
		err = fmt.Errorf("tablebase %s: writing %s: %w %s", s.dir, path, err, spaceHint)
	}
	return commitTemp(f, tmp, path, err)
}

// mappedValid reports whether info's mapped file is there and would serve
// Load.
func mappedValid(vdir string, info LayerInfo) bool {
	values, release, err := openMapped(vdir, info)
	if err != nil {
		return false
	}
	defer release()
	return checkMapped(vdir, info, values) == nil
}

// writeMapped decodes info's layer into a new mapped file (on a system
// that maps files, straight into the file's pages), checks it, and
// renames it into place. Under the build lock, so the temporary file's
// name is the layer's own.
func (s *store) writeMapped(ctx context.Context, info LayerInfo, threads int) error {
	return s.writeMappedFile(info, func(f *os.File) error {
		size := mappedHeaderSize + info.Positions
		if err := f.Truncate(size); err != nil {
			return err
		}
		b, release, err := mapFile(f, int(size), true)
		switch {
		case errors.Is(err, errNoMapping):
			b, release, err = make([]byte, size), func() {}, nil
		case err != nil:
			return err
		}
		copy(b, mappedHeader(info))
		values := bytesInt8(b[mappedHeaderSize:])
		if err = decodeLayers(ctx, s, []LayerInfo{info}, [][]int8{values}, threads); err == nil {
			err = s.checkValues(info, values)
		}
		release()
		if err == nil && !mapsFiles {
			_, err = f.WriteAt(b, 0)
		}
		return err
	})
}

// checkMappedSpace fails, wrapping syscall.ENOSPC, when the file system
// has less room than a mapped file of size bytes and the store's margin.
func (s *store) checkMappedSpace(size int64) error {
	return s.needSpace(size+spaceMargin, "the next mapped layer")
}

// removeMappedLeftovers deletes the temporary files a killed WriteMapped
// left (under the build lock, no other writer runs).
func removeMappedLeftovers(vdir string) error {
	entries, err := os.ReadDir(mappedDir(vdir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), mappedSuffix+".tmp") {
			if err := os.Remove(filepath.Join(mappedDir(vdir), e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// MappedBytes returns the bytes v's mapped layers (WriteMapped) occupy on
// disk in the tablebase at dir, 0 when there are none; DiskBytes leaves
// them out.
func MappedBytes(dir string, v *position.Variant) (int64, error) {
	v = VariantOf(v)
	n, err := dirBytes(mappedDir(variantDir(dir, v)))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	return n, err
}
