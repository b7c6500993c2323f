package tablebase

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/mancala-solver/mancala/position"
)

// Directory layout (see docs/tablebase-design.md, "Storage"):
//
//	DIR/mancala-tablebase.json          marker: {"format": ToolVersion}
//	DIR/<variant>.r<rules>/build.lock   held (flock) by the variant's build
//	DIR/<variant>.r<rules>/layer-NN/    a complete layer: a cleanly closed
//	                                    Badger database plus layer.json
//	DIR/<variant>.r<rules>/staging-NN/  the layer being written (a build
//	                                    deletes leftovers when it starts)
//	DIR/<variant>.r<rules>/staging-NN.graph  layer NN's spilled graph
//	                                    (build_graph.go), unlinked once mapped
const (
	markerName   = "mancala-tablebase.json"
	layerFile    = "layer.json"
	layerPrefix  = "layer-"
	stagePrefix  = "staging-"
	dropPrefix   = "dropped-"
	buildLock    = "build.lock"
	legacyMarker = "MANIFEST" // a format-1 tablebase: one Badger database in DIR itself
)

// variantDir is the directory of v's layers under the current rules.
func variantDir(dir string, v *position.Variant) string {
	return filepath.Join(dir, fmt.Sprintf("%s.r%d", v.Name, v.RulesVersion()))
}

func layerName(n int) string { return fmt.Sprintf("%s%02d", layerPrefix, n) }

// fileSum is the size and xxHash64 of one file of a layer's database, as
// the build left it.
type fileSum struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	XXHash uint64 `json:"xxhash64"`
}

// layerRecord is the content of a layer's layer.json: its metadata and the
// files of its database.
type layerRecord struct {
	LayerInfo
	Files []fileSum `json:"files"`
}

// DamageError reports a tablebase whose stored files or metadata differ
// from what its build recorded (truncated, edited, flipped bytes, a layer
// missing below stored ones). Errors.Is(err, ErrDamaged) holds.
type DamageError struct {
	Dir     string
	Variant string
	Seeds   int    // the first damaged layer
	Top     int    // the highest layer stored, for the repair command
	Detail  string // what was found, one line
	Cause   error  // the underlying error, if any (a *ChecksumError, say)
}

// ErrDamaged is wrapped by every DamageError.
var ErrDamaged = errors.New("tablebase is damaged")

func (e *DamageError) Error() string {
	return fmt.Sprintf("tablebase %s is damaged (%s layer %d: %s); rebuild the damaged layers with `mancala build %s --max-seeds %d --tb %s --repair`",
		e.Dir, e.Variant, e.Seeds, e.Detail, e.Variant, max(e.Top, e.Seeds), e.Dir)
}

func (e *DamageError) Is(target error) bool { return target == ErrDamaged }
func (e *DamageError) Unwrap() error        { return e.Cause }

// checkMarker tells what dir is: nil for a tablebase, ErrNoTablebase
// (wrapped) for a missing or empty directory, or an error for a format-1
// tablebase or a non-empty directory that is not a tablebase.
func checkMarker(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, markerName))
	if err == nil {
		var m struct{ Format string }
		if json.Unmarshal(data, &m) != nil || m.Format != ToolVersion {
			return fmt.Errorf("tablebase %s has format %q, this program reads %q: move it away and build again", dir, clipText(strings.TrimSpace(string(data)), 60), ToolVersion)
		}
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("tablebase %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	entries = slices.DeleteFunc(entries, isMarkerTemp)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist), err == nil && len(entries) == 0:
		return fmt.Errorf("%w in %s", ErrNoTablebase, dir)
	case err != nil:
		return fmt.Errorf("tablebase %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, markerName)); err == nil {
		// Another build made dir a tablebase between the marker's read
		// and the listing (it then adds its variant's directory at once):
		// read the marker it wrote. A marker is never removed, so this
		// recurses once at most.
		return checkMarker(dir)
	}
	if _, err := os.Stat(filepath.Join(dir, legacyMarker)); err == nil {
		return fmt.Errorf("%s holds a tablebase of an older format (one Badger database): move it away and build again", dir)
	}
	return fmt.Errorf("%s is not empty and is not a tablebase (no %s): give an empty or new directory", dir, markerName)
}

// clipText cuts s to about n characters, marking the cut.
func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ensureMarker makes dir a tablebase directory, refusing a non-empty
// directory that is not one.
func ensureMarker(dir string) error {
	err := checkMarker(dir)
	if err == nil || !errors.Is(err, ErrNoTablebase) {
		return err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	data, _ := json.Marshal(struct {
		Format string `json:"format"`
	}{ToolVersion})
	return writeFileSynced(filepath.Join(dir, markerName), append(data, '\n'))
}

// isMarkerTemp reports a marker being written (writeFileSynced's
// temporary, perhaps left by a killed build): a directory holding only
// such files is still empty, so that two builds making one new directory
// a tablebase at once, or a reader meanwhile, never take it for a
// foreign directory.
func isMarkerTemp(e fs.DirEntry) bool {
	return strings.HasPrefix(e.Name(), markerName+".") && strings.HasSuffix(e.Name(), ".tmp")
}

// tempSeq numbers the temporary files of this process.
var tempSeq atomic.Int64

// writeFileSynced writes a new file atomically (a temporary file of its
// own, sync, rename, sync of the directory), with the umask's
// permissions. Two processes writing the same file at once both succeed,
// the last rename winning.
func writeFileSynced(path string, data []byte) error {
	tmp := fmt.Sprintf("%s.%d-%d.tmp", path, os.Getpid(), tempSeq.Add(1))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return commitTemp(f, tmp, path, err)
}

// commitTemp ends the writing of a temporary file f (named tmp, written
// with the error err so far): sync, close, rename over path, sync of the
// directory. On any error the temporary file is removed and path left as
// it was.
func commitTemp(f *os.File, tmp, path string, err error) error {
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes a directory's entries (a rename, a removal) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// storedLayers lists the seed counts of the layers under vdir, ascending:
// every entry named layer-NN, whatever it is, so that one that is not a
// readable directory (a dangling symlink, a file) is damage and not a
// layer missing.
func storedLayers(vdir string) ([]int, error) {
	entries, err := os.ReadDir(vdir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var seeds []int
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), layerPrefix); ok {
			if k, err := strconv.Atoi(n); err == nil {
				seeds = append(seeds, k)
			}
		}
	}
	sort.Ints(seeds)
	return seeds, nil
}

// readLayers reads and checks the metadata of every stored layer of v (the
// cheap checks: no file is read beyond layer.json and the sizes). It
// returns the layers 0..k-1 below the first damage, and the damage, if any,
// as a *DamageError: a gap below a stored layer, unreadable or
// inconsistent metadata, a missing or resized file.
func readLayers(dir string, v *position.Variant) ([]layerRecord, error) {
	vdir := variantDir(dir, v)
	seeds, err := storedLayers(vdir)
	if err != nil {
		return nil, fmt.Errorf("tablebase %s: %w", dir, err)
	}
	top := -1
	if len(seeds) > 0 {
		top = seeds[len(seeds)-1]
	}
	damage := func(n int, format string, args ...any) error {
		return &DamageError{Dir: dir, Variant: v.Name, Seeds: n, Top: top, Detail: fmt.Sprintf(format, args...)}
	}
	ix := NewIndex(v.Pits)
	var recs []layerRecord
	for i, n := range seeds {
		if n != i {
			return recs, damage(i, "layer %d is missing below stored layer %d", i, n)
		}
		rec, detail := readRecord(filepath.Join(vdir, layerName(n)))
		if detail == "" {
			detail = checkRecord(rec, v, n, ix.Size(n))
		}
		if detail != "" {
			return recs, damage(n, "%s", detail)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// readRecord reads a layer directory's layer.json and checks its files'
// sizes, returning what is wrong ("" when nothing).
func readRecord(ldir string) (layerRecord, string) {
	var rec layerRecord
	data, err := os.ReadFile(filepath.Join(ldir, layerFile))
	if err != nil {
		return rec, fmt.Sprintf("its %s cannot be read: %v", layerFile, err)
	}
	var present struct {
		Checksum *uint64 `json:"xxhash64"`
	}
	if err := json.Unmarshal(data, &rec); err != nil || json.Unmarshal(data, &present) != nil {
		return rec, fmt.Sprintf("its %s is not valid metadata", layerFile)
	}
	if present.Checksum == nil {
		return rec, "its metadata has no checksum"
	}
	if len(rec.Files) == 0 {
		return rec, "its metadata lists no files"
	}
	for _, f := range rec.Files {
		st, err := os.Stat(filepath.Join(ldir, f.Name))
		if err != nil || filepath.Base(f.Name) != f.Name {
			return rec, fmt.Sprintf("file %s is missing", clipText(f.Name, 40))
		}
		if st.Size() != f.Size {
			return rec, fmt.Sprintf("file %s has %d bytes, its build wrote %d", f.Name, st.Size(), f.Size)
		}
	}
	return rec, ""
}

// checkRecord checks a layer's metadata against what layer n of v must
// be: positions, block size and count, variant, rules, format.
func checkRecord(rec layerRecord, v *position.Variant, n int, size int64) string {
	switch {
	case rec.Variant != v.Name || rec.RulesVersion != int(v.RulesVersion()) || rec.Seeds != n:
		return fmt.Sprintf("its metadata names %s rules %d layer %d", clipText(rec.Variant, 20), rec.RulesVersion, rec.Seeds)
	case rec.ToolVersion != ToolVersion:
		return fmt.Sprintf("its metadata has format %q, want %q", clipText(rec.ToolVersion, 30), ToolVersion)
	case rec.Positions != size:
		return fmt.Sprintf("its metadata says %d positions, the layer has %d", rec.Positions, size)
	case rec.BlockSize != BlockSize:
		return fmt.Sprintf("its metadata says blocks of %d positions, this program uses %d", rec.BlockSize, BlockSize)
	case int64(rec.Blocks) != (size+BlockSize-1)/BlockSize:
		return fmt.Sprintf("its metadata says %d blocks, the layer has %d", rec.Blocks, (size+BlockSize-1)/BlockSize)
	}
	return ""
}

// checkFiles re-hashes a layer's files against its record (the deep check,
// run before Badger opens the layer, so that Badger never parses a damaged
// file: its parsers panic on some).
func checkFiles(ldir string, rec layerRecord) string {
	for _, f := range rec.Files {
		sum, size, err := hashFile(filepath.Join(ldir, f.Name))
		switch {
		case err != nil:
			return fmt.Sprintf("file %s cannot be read: %v", f.Name, err)
		case size != f.Size:
			return fmt.Sprintf("file %s has %d bytes, its build wrote %d", f.Name, size, f.Size)
		case sum != f.XXHash:
			return fmt.Sprintf("file %s has changed since its build (checksum %016x, recorded %016x)", f.Name, sum, f.XXHash)
		}
	}
	return ""
}

// hashFile returns a file's xxHash64 and size.
func hashFile(path string) (uint64, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	h := xxhash.New()
	n, err := io.Copy(h, f)
	return h.Sum64(), n, err
}

// sumFiles records every regular file of a finished layer directory and
// gives each the permissions of layer.json's kind (the umask's, where
// Badger creates some files owner-only).
func sumFiles(ldir string, mode os.FileMode) ([]fileSum, error) {
	entries, err := os.ReadDir(ldir)
	if err != nil {
		return nil, err
	}
	var sums []fileSum
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == layerFile {
			continue
		}
		path := filepath.Join(ldir, e.Name())
		if err := os.Chmod(path, mode); err != nil {
			return nil, err
		}
		sum, size, err := hashFile(path)
		if err != nil {
			return nil, err
		}
		sums = append(sums, fileSum{Name: e.Name(), Size: size, XXHash: sum})
	}
	return sums, nil
}

// umaskMode returns the permissions a new file gets under the process's
// umask (0644 under the usual 022), from a probe file created in dir (a
// staging directory, which only its build writes) and removed.
func umaskMode(dir string) (os.FileMode, error) {
	name := filepath.Join(dir, ".mode-probe")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o666)
	if err != nil {
		return 0, err
	}
	defer os.Remove(name)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Mode().Perm(), nil
}

// DefaultDir returns the default tablebase directory:
// $XDG_DATA_HOME/mancala, else ~/.local/share/mancala (the user data
// directory), or "" when neither XDG_DATA_HOME (absolute) nor a home
// directory is known.
func DefaultDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mancala")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "mancala")
}

// ErrInUse is returned (wrapped, with the directory) when another build
// of the same variant holds the tablebase. Readers never conflict: they
// read complete layers only, which no build writes.
var ErrInUse = errors.New("in use by another process")

// ErrNoTablebase is returned (wrapped) by OpenProber, Stats and Verify when
// the directory is missing or empty.
var ErrNoTablebase = errors.New("no tablebase")

// LayerInfo is a layer's metadata, stored as JSON in its layer.json.
type LayerInfo struct {
	Variant      string    `json:"variant"`
	RulesVersion int       `json:"rules_version"`
	Seeds        int       `json:"seeds"`
	Positions    int64     `json:"positions"`
	BlockSize    int       `json:"block_size"`
	Blocks       int       `json:"blocks"`
	Checksum     uint64    `json:"xxhash64"`     // xxHash64 of the layer's values as bytes
	StoredBytes  int64     `json:"stored_bytes"` // compressed size of its blocks
	InnerMoves   int64     `json:"inner_moves"`  // moves that stay in the layer (graph edges)
	Method       string    `json:"method"`       // "unsow", "graph", "graph-spilled" or "iteration" (see doc.go)
	Seconds      float64   `json:"seconds"`      // wall time to build the layer
	BuiltAt      time.Time `json:"built_at"`
	ToolVersion  string    `json:"tool_version"`
	// Format is the stored format (store_codec.go); 0 for layers written
	// before it was recorded.
	Format           int    `json:"format,omitempty"`
	DistanceChecksum uint64 `json:"distance_xxhash64,omitempty"` // of the distances as little-endian uint16s
	DistanceBytes    int64  `json:"distance_bytes,omitempty"`    // compressed size of the distance blocks
	MaxDistance      int    `json:"max_distance,omitempty"`      // the longest distance in the layer, plies
	Rounds           int    `json:"rounds,omitempty"`            // propagation rounds (distance levels over all thresholds)
}

// ErrFormat is wrapped by the error for a layer stored in a format this
// program does not read (an older build without distances).
var ErrFormat = errors.New("stored in an older format")

// checkFormat reports the first layer of infos not stored in Format.
func checkFormat(dir string, v *position.Variant, infos []LayerInfo) error {
	for _, info := range infos {
		if info.Format != Format {
			return fmt.Errorf("tablebase %s: %s layer %d is %w (values without distances; this program reads format %d): run `mancala build %s --max-seeds %d --tb %s` to rebuild it in place",
				dir, v.Name, info.Seeds, ErrFormat, Format, v.Name, infos[len(infos)-1].Seeds, dir)
		}
	}
	return nil
}
