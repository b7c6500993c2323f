package tablebase

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"
	"github.com/dustin/go-humanize"

	"github.com/mancala-solver/mancala/internal/hugepage"
	"github.com/mancala-solver/mancala/position"
)

// store is one variant's part of an open tablebase directory: its complete
// layers, each a Badger database opened read-only on first use, and for a
// build the variant's lock.
type store struct {
	dir   string
	vdir  string
	v     *position.Variant
	lock  *dirLock // the build lock; nil for readers
	codec codec

	mu   sync.Mutex
	recs []layerRecord      // the complete layers' records, by seed count
	dbs  map[int]*badger.DB // layers opened so far
	bad  map[int]error      // layers found damaged by the deep check
}

// openStore opens v's part of the tablebase at dir. A build (writable)
// makes dir a tablebase if it is missing or empty, refuses any other
// non-empty directory, takes the variant's build lock (ErrInUse at once
// when another build has it, never a wait) and deletes what a killed build
// left half-written. A reader needs a tablebase (ErrNoTablebase) and takes
// no lock. Either way the layers' metadata is read and checked; damage
// below is returned as a *DamageError beside the store, whose complete
// layers are those under the damage.
func openStore(dir string, v *position.Variant, writable bool) (*store, error) {
	if dir == "" {
		return nil, errors.New("no tablebase directory: give --tb, or set XDG_DATA_HOME or HOME")
	}
	s := &store{dir: dir, vdir: variantDir(dir, v), v: v, dbs: map[int]*badger.DB{}, bad: map[int]error{}}
	if err := checkLinks(dir, v); err != nil {
		return nil, err
	}
	if writable {
		if err := s.lockForBuild(); err != nil {
			return nil, err
		}
	} else if err := checkMarker(dir); err != nil {
		return nil, err
	}
	s.codec = newCodec()
	return s, nil
}

// DanglingLinkError reports a path of a tablebase (its marker, a
// variant's directory) that is a symbolic link to nothing: what it is,
// where it points, and the repair that replaces it.
type DanglingLinkError struct {
	Dir     string // the tablebase
	Path    string // the link
	Target  string // where it points
	What    string // "the marker", "awari's layer directory"
	Variant string // the variant whose directory it is; "" for the marker
}

func (e *DanglingLinkError) Error() string {
	variant, fix := e.Variant, "replaces it with a fresh directory and rebuilds the layers"
	if variant == "" {
		variant, fix = "VARIANT", "writes it again when the layers in the directory are intact"
	}
	return fmt.Sprintf("tablebase %s: %s %s is a symbolic link to %s, which does not exist; `mancala build %s --max-seeds N --tb %s --repair` %s",
		e.Dir, e.What, e.Path, e.Target, variant, e.Dir, fix)
}

// danglingLink returns where path points when it is a symbolic link to
// nothing (os.Stat follows it and finds nothing).
func danglingLink(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	target, err := os.Readlink(path)
	if err != nil {
		target = "an unreadable target"
	}
	return target, true
}

// checkLinks returns a *DanglingLinkError when dir's marker or v's layer
// directory is a symbolic link to nothing: read through, either looks
// missing, which would make dir "not a tablebase" or v's layers absent.
func checkLinks(dir string, v *position.Variant) error {
	marker := filepath.Join(dir, markerName)
	if target, ok := danglingLink(marker); ok {
		return &DanglingLinkError{Dir: dir, Path: marker, Target: target, What: "the marker"}
	}
	vdir := variantDir(dir, v)
	if target, ok := danglingLink(vdir); ok {
		return &DanglingLinkError{Dir: dir, Path: vdir, Target: target, What: v.Name + "'s layer directory", Variant: v.Name}
	}
	return nil
}

// repairLinks removes the dangling links checkLinks reports, for a build
// with Repair: v's layer directory (nothing in it could be read; the build
// makes a fresh one and rebuilds) and the marker when dir holds a
// tablebase's layer directories (the build writes it again, and checks
// the layers it resumes).
func repairLinks(dir string, v *position.Variant) error {
	vdir := variantDir(dir, v)
	if _, ok := danglingLink(vdir); ok {
		if err := os.Remove(vdir); err != nil {
			return fmt.Errorf("repairing %s: %w", dir, err)
		}
	}
	marker := filepath.Join(dir, markerName)
	if _, ok := danglingLink(marker); ok {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("repairing %s: %w", dir, err)
		}
		layers := false
		for _, e := range entries {
			layers = layers || e.IsDir() && isVariantDirName(e.Name())
		}
		if !layers {
			return fmt.Errorf("repairing %s: the marker %s is a dangling link and no layer directory is there: not a tablebase to repair", dir, marker)
		}
		if err := os.Remove(marker); err != nil {
			return fmt.Errorf("repairing %s: %w", dir, err)
		}
		data, _ := json.Marshal(struct {
			Format string `json:"format"`
		}{ToolVersion})
		return writeFileSynced(marker, append(data, '\n'))
	}
	return nil
}

// isVariantDirName reports a name variantDir gives: NAME.rN.
func isVariantDirName(name string) bool {
	base, rules, ok := strings.Cut(name, ".r")
	if !ok || base == "" || rules == "" {
		return false
	}
	for _, c := range rules {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lockForBuild prepares dir and v's directory for a build and takes the
// build lock.
func (s *store) lockForBuild() error {
	if err := ensureMarker(s.dir); err != nil {
		return err
	}
	if err := os.MkdirAll(s.vdir, 0o777); err != nil {
		return err
	}
	lock, err := lockFile(filepath.Join(s.vdir, buildLock))
	if errors.Is(err, ErrInUse) {
		return fmt.Errorf("tablebase %s is %w (another build of %s holds it)", s.dir, err, s.v.Name)
	}
	if err != nil {
		return err
	}
	s.lock = lock
	if err := removeLeftovers(s.vdir); err != nil {
		lock.release()
		return fmt.Errorf("tablebase %s: %w", s.dir, err)
	}
	return nil
}

// removeLeftovers deletes the staging and dropped layer directories a
// killed build or repair left, and a killed WriteMapped's temporary files.
func removeLeftovers(vdir string) error {
	if err := removeMappedLeftovers(vdir); err != nil {
		return fmt.Errorf("cannot remove a mapped layer's temporary file, left by an earlier run (%v)", err)
	}
	entries, err := os.ReadDir(vdir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), stagePrefix) || strings.HasPrefix(e.Name(), dropPrefix) {
			path := filepath.Join(vdir, e.Name())
			if err := os.RemoveAll(path); err != nil {
				return fmt.Errorf("cannot remove %s, left by an earlier build (%v); give it back its permissions, or remove it, and run the build again", path, errors.Unwrap(err))
			}
		}
	}
	return nil
}

// openReading opens dir for reading v's layers, with their metadata. A
// damaged directory is an error (a *DamageError) here: readers serve
// nothing from a tablebase whose layers they cannot all account for.
func openReading(dir string, v *position.Variant) (*store, []LayerInfo, error) {
	s, err := openStore(dir, v, false)
	if err != nil {
		return nil, nil, err
	}
	infos, err := s.layers()
	if err != nil {
		s.close()
		return nil, nil, err
	}
	return s, infos, nil
}

// close closes the layers' databases and drops the lock.
func (s *store) close() error {
	s.codec.close()
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	for n, db := range s.dbs {
		if cerr := s.guard(n, "closing", db.Close); err == nil {
			err = cerr
		}
	}
	s.dbs = nil
	if lerr := s.lock.release(); err == nil {
		err = lerr
	}
	return err
}

// layers reads and checks the metadata of the variant's stored layers
// (see readLayers) and returns it by seed count: the complete layers, or
// the ones under the first damage with a *DamageError.
func (s *store) layers() ([]LayerInfo, error) {
	recs, err := readLayers(s.dir, s.v)
	s.mu.Lock()
	s.recs = recs
	s.mu.Unlock()
	infos := make([]LayerInfo, len(recs))
	for i, r := range recs {
		infos[i] = r.LayerInfo
	}
	return infos, err
}

// complete returns the metadata of layers 0..N, the longest run with no
// gap: the layers a prober may serve and a build may resume after.
func complete(infos []LayerInfo) []LayerInfo {
	for i, info := range infos {
		if info.Seeds != i {
			return infos[:i]
		}
	}
	return infos
}

// damage returns a *DamageError for layer n of the store's variant.
func (s *store) damage(n int, detail string) error {
	return &DamageError{Dir: s.dir, Variant: s.v.Name, Seeds: n, Top: max(n, s.topLayer()), Detail: detail}
}

// topLayer returns the highest layer stored, or -1.
func (s *store) topLayer() int {
	if seeds, _ := storedLayers(s.vdir); len(seeds) > 0 {
		return seeds[len(seeds)-1]
	}
	return -1
}

// guard runs f, turning a panic inside Badger on the caller's goroutine
// into damage of complete layer n (writes are guarded by running in a
// child process: store_badger.go).
func (s *store) guard(n int, what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			msg := clipText(strings.ReplaceAll(fmt.Sprint(r), "\n", " "), 100)
			err = s.damage(n, what+": "+msg)
		}
	}()
	return f()
}

// layerDB returns layer n's database, opening it read-only on first use
// after re-hashing its files (the deep check), so that Badger never parses
// a damaged file.
func (s *store) layerDB(n int) (*badger.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db := s.dbs[n]; db != nil {
		return db, nil
	}
	if err := s.bad[n]; err != nil {
		return nil, err
	}
	if n >= len(s.recs) {
		return nil, fmt.Errorf("layer %d is not stored", n)
	}
	ldir := filepath.Join(s.vdir, layerName(n))
	if detail := checkFiles(ldir, s.recs[n]); detail != "" {
		s.bad[n] = s.damage(n, detail)
		return nil, s.bad[n]
	}
	var db *badger.DB
	err := s.guard(n, "opening", func() (err error) {
		db, err = badger.Open(badgerOptions(ldir, true))
		return err
	})
	var dmg *DamageError
	if err != nil && !errors.As(err, &dmg) && !errors.Is(err, fs.ErrPermission) {
		err = s.damage(n, "opening: "+clipText(strings.ReplaceAll(err.Error(), "\n", " "), 100))
	}
	if err != nil {
		s.bad[n] = err
		return nil, err
	}
	s.dbs[n] = db
	return db, nil
}

// putLayer stores a finished layer: its blocks (given already encoded, in
// order) into a new Badger database in a staging directory, closed
// cleanly, then layer.json with the files' sizes and checksums, synced,
// then one rename makes it layer-NN. Until the rename the layer does not
// exist for any reader, so a crash anywhere leaves at worst a staging
// directory that the next build deletes. Too little free space for the
// layer is an error wrapping syscall.ENOSPC before anything is written.
// The blocks are consumed: each is set to nil once written.
func (s *store) putLayer(info LayerInfo, blocks, distBlocks [][]byte) error {
	return s.putStream(info, func(w io.Writer) error { return s.streamBlocks(w, info.Seeds, blocks, distBlocks) })
}

// putStream is putLayer with the layer's records written by stream
// (writeKV), so that they need not all be in memory (Import).
func (s *store) putStream(info LayerInfo, stream func(w io.Writer) error) error {
	if err := s.checkSpace(info.StoredBytes + info.DistanceBytes); err != nil {
		return err
	}
	stage := filepath.Join(s.vdir, fmt.Sprintf("%s%02d", stagePrefix, info.Seeds))
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	if err := os.Mkdir(stage, 0o777); err != nil {
		return err
	}
	if err := s.writeStage(stage, info, stream); err != nil {
		os.RemoveAll(stage)
		if errors.Is(err, syscall.ENOSPC) {
			err = fmt.Errorf("%w %s", err, spaceHint)
		}
		return err
	}
	if err := os.Rename(stage, filepath.Join(s.vdir, layerName(info.Seeds))); err != nil {
		os.RemoveAll(stage)
		return err
	}
	return syncDir(s.vdir)
}

// writeStage writes a layer's database and layer.json into stage.
func (s *store) writeStage(stage string, info LayerInfo, stream func(w io.Writer) error) error {
	if err := writeDB(s.dir, stage, info.Seeds, stream); err != nil {
		return err
	}
	if beforeMeta != nil {
		if err := beforeMeta(info.Seeds); err != nil {
			return err
		}
	}
	mode, err := umaskMode(stage)
	if err != nil {
		return err
	}
	files, err := sumFiles(stage, mode)
	if err != nil {
		return err
	}
	if err := syncFiles(stage, files); err != nil {
		return err
	}
	data, err := json.MarshalIndent(layerRecord{LayerInfo: info, Files: files}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileSynced(filepath.Join(stage, layerFile), append(data, '\n'))
}

// syncFiles fsyncs the files of a layer directory.
func syncFiles(dir string, files []fileSum) error {
	for _, f := range files {
		fh, err := os.Open(filepath.Join(dir, f.Name))
		if err != nil {
			return err
		}
		err = fh.Sync()
		fh.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// beforeMeta, when set (by tests), runs between a layer's blocks and its
// metadata; an error aborts the write there, as a crash would.
var beforeMeta func(seeds int) error

// getBlock reads and decodes value block b of layer n into dst, whose
// length is the block's number of values.
func (s *store) getBlock(n, b int, dst []int8) error {
	return s.readBlock(n, blockKey(s.v, n, b), fmt.Sprintf("block %d", b), func(data []byte) error {
		return s.codec.decodeValues(b, data, dst)
	})
}

// getDistanceBlock reads and decodes distance block b of layer n into dst.
func (s *store) getDistanceBlock(n, b int, dst []uint16) error {
	return s.readBlock(n, distanceKey(s.v, n, b), fmt.Sprintf("distance block %d", b), func(data []byte) error {
		return s.codec.decodeDistances(b, data, dst)
	})
}

// readBlock reads the block under key from layer n's database and hands
// it to decode; a block that is missing (named what) or fails to decode is
// damage.
func (s *store) readBlock(n int, key []byte, what string, decode func([]byte) error) error {
	db, err := s.layerDB(n)
	if err != nil {
		return err
	}
	return s.guard(n, "reading", func() error {
		return db.View(func(txn *badger.Txn) error {
			item, err := txn.Get(key)
			if err != nil {
				return s.damage(n, fmt.Sprintf("%s: %v", what, err))
			}
			return item.Value(func(data []byte) error {
				if err := decode(data); err != nil {
					return s.damage(n, err.Error())
				}
				return nil
			})
		})
	})
}

// loadLayer reads a whole layer and checks it against its metadata's
// checksum.
func (s *store) loadLayer(info LayerInfo) ([]int8, error) {
	values := make([]int8, info.Positions)
	hugepage.Advise(values)
	for b := 0; b < info.Blocks; b++ {
		dst := values[b*BlockSize : min(int64((b+1)*BlockSize), info.Positions)]
		if err := s.getBlock(info.Seeds, b, dst); err != nil {
			return nil, err
		}
	}
	return values, s.checkValues(info, values)
}

// scanLayer hands each block of a layer's values to fn in rank order,
// one block in memory at a time (fn must not keep it), then checks the
// layer's checksum as loadLayer does: for reading a whole layer in
// bounded memory (Stats).
func (s *store) scanLayer(info LayerInfo, fn func(block []int8)) error {
	buf := make([]int8, BlockSize)
	h := xxhash.New()
	for b := 0; b < info.Blocks; b++ {
		dst := buf[:min(BlockSize, info.Positions-int64(b)*BlockSize)]
		if err := s.getBlock(info.Seeds, b, dst); err != nil {
			return err
		}
		_, _ = h.Write(int8Bytes(dst))
		fn(dst)
	}
	return s.checkSum(info, h.Sum64())
}

// checkValues returns the damage (a *DamageError whose Cause is a
// *ChecksumError) when a layer's values do not match its checksum, else
// nil.
func (s *store) checkValues(info LayerInfo, values []int8) error {
	return s.checkSum(info, xxhash.Sum64(int8Bytes(values)))
}

// checkSum is checkValues for the values' xxHash64 sum.
func (s *store) checkSum(info LayerInfo, sum uint64) error {
	if sum != info.Checksum {
		cause := &ChecksumError{Seeds: info.Seeds, Got: sum, Want: info.Checksum}
		dmg := s.damage(info.Seeds, fmt.Sprintf("its values have checksum %016x, its build recorded %016x", sum, info.Checksum)).(*DamageError)
		dmg.Cause = cause
		return dmg
	}
	return nil
}

// ChecksumError reports a layer whose values do not match the checksum
// recorded when it was built.
type ChecksumError struct {
	Seeds     int
	Got, Want uint64
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("layer %d: checksum %016x, stored %016x: the layer is corrupt", e.Seeds, e.Got, e.Want)
}

// loadDistances reads a whole layer's distances and checks their checksum.
func (s *store) loadDistances(info LayerInfo) ([]uint16, error) {
	dist := make([]uint16, info.Positions)
	hugepage.Advise(dist)
	for b := 0; b < info.Blocks; b++ {
		dst := dist[int64(b)*BlockSize : min(int64(b+1)*BlockSize, info.Positions)]
		if err := s.getDistanceBlock(info.Seeds, b, dst); err != nil {
			return nil, err
		}
	}
	if sum := distanceChecksum(dist); sum != info.DistanceChecksum {
		return dist, s.damage(info.Seeds, fmt.Sprintf("distance checksum %016x, stored %016x", sum, info.DistanceChecksum))
	}
	return dist, nil
}

// loadPacked reads a whole layer's distances block by block and packs
// each with its value (values, the layer's loaded values) into one uint16
// (packBlock), so that verify reads a child's value and distance in one
// load; the distances' checksum is checked as loadDistances does. It
// returns nil and no error, having read no further, at the first value or
// distance that does not fit the packing: the caller then loads the
// distances apart (loadDistances), so the packing never loses a bit.
func (s *store) loadPacked(info LayerInfo, values []int8) ([]uint16, error) {
	packed := make([]uint16, info.Positions)
	hugepage.Advise(packed)
	buf := make([]uint16, BlockSize)
	le := make([]byte, 2*BlockSize)
	h := xxhash.New()
	for b := 0; b < info.Blocks; b++ {
		lo := int64(b) * BlockSize
		dst := buf[:min(BlockSize, info.Positions-lo)]
		if err := s.getDistanceBlock(info.Seeds, b, dst); err != nil {
			return nil, err
		}
		for i, d := range dst {
			binary.LittleEndian.PutUint16(le[2*i:], d)
		}
		_, _ = h.Write(le[:2*len(dst)])
		if !packBlock(packed[lo:lo+int64(len(dst))], values[lo:lo+int64(len(dst))], dst) {
			return nil, nil
		}
	}
	if sum := h.Sum64(); sum != info.DistanceChecksum {
		return packed, s.damage(info.Seeds, fmt.Sprintf("distance checksum %016x, stored %016x", sum, info.DistanceChecksum))
	}
	return packed, nil
}

// spaceMargin is the free space kept beyond a layer's estimate: Badger's
// manifest, key registry and discard files and the file system's own
// blocks.
const spaceMargin = 4 << 20

// spaceHint ends every error of a full disk: what to do about it.
const spaceHint = "(free some space and run the same command to resume)"

// freeSpace reports the bytes that may still be written under a directory;
// tests replace it to simulate a full disk.
var freeSpace = diskFree

// checkSpace fails, wrapping syscall.ENOSPC, when the file system holding
// the tablebase has less free space than a layer of stored compressed
// bytes needs: Badger writes the blocks to its write-ahead log, then to a
// table, and may compact them once more, so three times the blocks plus a
// margin. It is checked before anything is written, so that a layer that
// cannot fit fails at once; a disk that fills after the check, while the
// layer is written, is caught by the writer process (store_badger.go).
func (s *store) checkSpace(stored int64) error {
	return s.needSpace(3*stored+spaceMargin, "the next layer")
}

// needSpace fails, wrapping syscall.ENOSPC, when the file system holding
// the tablebase has less than need bytes free for what (named in the
// error); it passes where free space cannot be read.
func (s *store) needSpace(need int64, what string) error {
	free, err := freeSpace(s.vdir)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	if err != nil {
		return err
	}
	if free < need {
		return fmt.Errorf("tablebase %s: %s needs about %s free, %s are: %w %s",
			s.dir, what, humanize.IBytes(uint64(need)), humanize.IBytes(uint64(max(free, 0))), syscall.ENOSPC, spaceHint)
	}
	return nil
}

// checkDroppable fails, before anything is deleted, unless dropFrom(n)
// can remove every layer it would: each must be a link or file (removed
// as such, never followed) or a directory tree this process can list and
// delete. The error names the first that cannot go and says what to do.
func (s *store) checkDroppable(n int) error {
	seeds, err := storedLayers(s.vdir)
	if err != nil {
		return err
	}
	for _, k := range seeds {
		if k < n {
			continue
		}
		path := filepath.Join(s.vdir, layerName(k))
		if err := removableTree(path); err != nil {
			return fmt.Errorf("tablebase %s: cannot repair %s: %s cannot be removed (%v); give it back its permissions, or remove it, and run the repair again",
				s.dir, s.v.Name, path, errors.Unwrap(err))
		}
	}
	return nil
}

// removableTree reports why the tree at path could not be removed: a
// directory that cannot be listed, or whose entries cannot be deleted.
func removableTree(path string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return writableDir(p)
		}
		return nil
	})
}

// dropFrom removes the variant's layers n and above, highest first (renamed aside,
// then deleted), so that a crash part-way leaves layers 0..k with no gap.
// Layers of other variants and rules versions are not touched.
func (s *store) dropFrom(n int) error {
	seeds, err := storedLayers(s.vdir)
	if err != nil {
		return err
	}
	s.forgetFrom(n)
	for i := len(seeds) - 1; i >= 0 && seeds[i] >= n; i-- {
		name := layerName(seeds[i])
		aside := filepath.Join(s.vdir, dropPrefix+name)
		if err := os.Rename(filepath.Join(s.vdir, name), aside); err != nil {
			return err
		}
		if err := syncDir(s.vdir); err != nil {
			return err
		}
		if err := os.RemoveAll(aside); err != nil {
			return err
		}
	}
	return nil
}

// forgetFrom closes the databases of layers n and above and forgets that
// they were found damaged, so that the layers built again in their place
// are read afresh (a repaired build reads them back for the layers above).
// A damaged database's failure to close is of no account: it is deleted.
func (s *store) forgetFrom(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for m, db := range s.dbs {
		if m >= n {
			_ = s.guard(m, "closing", db.Close)
			delete(s.dbs, m)
		}
	}
	for m := range s.bad {
		if m >= n {
			delete(s.bad, m)
		}
	}
}

// dirBytes returns the bytes that the files under dir occupy on disk
// (allocated blocks where the system reports them, else file sizes).
func dirBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += allocated(info)
		return nil
	})
	return total, err
}

// DiskBytes returns the bytes v's layers under the current rules occupy on
// disk in the tablebase at dir (allocated blocks where the system reports
// them, else file sizes): the figure to divide by v's positions, whatever
// other variants the directory holds. Their mapped form (WriteMapped) is
// left out: MappedBytes.
func DiskBytes(dir string, v *position.Variant) (int64, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	all, err := dirBytes(variantDir(dir, v))
	if err != nil {
		return 0, err
	}
	mapped, err := MappedBytes(dir, v)
	return all - mapped, err
}

// streamBlocks writes layer n's blocks as the writer's records: value
// block b under blockKey, distance block b under distanceKey. It lets go
// of each block (sets it to nil) once written, so that a layer being
// stored gives its memory back to the next layer, which the build solves
// meanwhile, block by block (28 MB for kalah's layer 19).
func (s *store) streamBlocks(w io.Writer, n int, blocks, distBlocks [][]byte) error {
	for b, data := range blocks {
		if err := writeKV(w, blockKey(s.v, n, b), data); err != nil {
			return err
		}
		blocks[b] = nil
	}
	for b, data := range distBlocks {
		if err := writeKV(w, distanceKey(s.v, n, b), data); err != nil {
			return err
		}
		distBlocks[b] = nil
	}
	return nil
}
