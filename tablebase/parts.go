package tablebase

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/mancala-solver/mancala/position"
)

// A tablebase in parts: what a build across processes writes
// (build_cluster.go, parts_build.go), each rank its own range of every
// layer, as plain files on a filesystem every rank sees; `mancala
// import` (Import, parts_import.go) puts it into the one-machine store,
// which every reader uses. Layout:
//
//	DIR/mancala-parts.json                 marker: {"format": partsFormat}
//	DIR/<variant>.r<rules>/build.lock      held (flock) by rank 0 of the build
//	DIR/<variant>.r<rules>/layer-NN/part-TTTT  rank T's range of layer NN
//	DIR/<variant>.r<rules>/layer-NN/layer.json the layer's metadata, written
//	                                       last, by rank 0, once every part
//	                                       is synced: a layer exists only with it
//
// A part file is the range's blocks as the store encodes them (zstd
// frames of BlockSize values, then of distances, store_codec.go), an
// offset index and a trailer:
//
//	frames:  value block 0..B-1, then distance block 0..B-1 of the range
//	index:   2B+1 offsets (uint64, little-endian) of each frame's start,
//	         the last one the end of the frames
//	trailer: partMagic (8 bytes), the range's first rank, its positions
//	         and the index's offset (uint64 each, little-endian)
//
// A range starts on a block boundary (partRanges), so part t's block i is
// the layer's block lo/BlockSize + i, and the frames can go into the
// store as they are. layer.json holds the LayerInfo (its checksums are
// the one-machine build's: xxHash64 of the layer's values in rank order,
// chained over the parts, parts_build.go) and every part's range, size
// and xxHash64 of its file.
const (
	partsMarker   = "mancala-parts.json"
	partsFormat   = "mancala-parts/1"
	partPrefix    = "part-"
	partMagic     = "MCPART01"
	partTrailer   = 8 + 3*8
	partsLockName = buildLock
)

// partRecord is one part of a layer in its layer.json: part Rank's range
// [Lo, Lo+Positions) and the size and xxHash64 of its file.
type partRecord struct {
	Name      string `json:"name"`
	Rank      int    `json:"rank"`
	Lo        int64  `json:"lo"`
	Positions int64  `json:"positions"`
	Size      int64  `json:"size"`
	XXHash    uint64 `json:"xxhash64"`
}

// partsLayer is a layer's layer.json in a tablebase in parts.
type partsLayer struct {
	LayerInfo
	Parts []partRecord `json:"parts"`
}

// partsDir is one variant's part of a tablebase in parts.
type partsDir struct {
	dir, vdir string
	v         *position.Variant
	codec     codec
	lock      *dirLock
}

// openParts opens v's part of the tablebase in parts at dir. A writer
// (rank 0 of a build) makes dir one if it is missing or empty, refuses
// any other directory (a one-machine tablebase included), and takes the
// variant's lock; a reader needs the marker.
func openParts(dir string, v *position.Variant, writable bool) (*partsDir, error) {
	if dir == "" {
		return nil, errors.New("no directory for the build's parts")
	}
	p := &partsDir{dir: dir, vdir: variantDir(dir, v), v: v, codec: newCodec()}
	err := checkPartsMarker(dir)
	if writable && errors.Is(err, ErrNoTablebase) {
		err = makePartsDir(dir)
	}
	if err != nil {
		return nil, err
	}
	if !writable {
		return p, nil
	}
	if err := os.MkdirAll(p.vdir, 0o777); err != nil {
		return nil, err
	}
	lock, err := lockFile(filepath.Join(p.vdir, partsLockName))
	if errors.Is(err, ErrInUse) {
		return nil, fmt.Errorf("parts %s are %w (another build of %s holds them)", dir, err, v.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("parts %s: %w", dir, err)
	}
	p.lock = lock
	return p, nil
}

// checkPartsMarker is checkMarker for a tablebase in parts.
func checkPartsMarker(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, partsMarker))
	if err == nil {
		var m struct{ Format string }
		if json.Unmarshal(data, &m) != nil || m.Format != partsFormat {
			return fmt.Errorf("parts %s have format %q, this program reads %q", dir, clipText(strings.TrimSpace(string(data)), 60), partsFormat)
		}
		return nil
	}
	entries, rerr := os.ReadDir(dir)
	switch {
	case errors.Is(rerr, os.ErrNotExist), rerr == nil && len(entries) == 0:
		return fmt.Errorf("%w in parts in %s", ErrNoTablebase, dir)
	case rerr != nil:
		return fmt.Errorf("parts %s: %w", dir, rerr)
	}
	if _, err := os.Stat(filepath.Join(dir, markerName)); err == nil {
		return fmt.Errorf("%s is a one-machine tablebase, not a build's parts: a build across processes writes its parts into a new directory, and `mancala import` puts them into a tablebase", dir)
	}
	return fmt.Errorf("%s is not empty and holds no build's parts (no %s): give an empty or new directory", dir, partsMarker)
}

// makePartsDir makes dir a tablebase in parts.
func makePartsDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	data, _ := json.Marshal(struct {
		Format string `json:"format"`
	}{partsFormat})
	return writeFileSynced(filepath.Join(dir, partsMarker), append(data, '\n'))
}

func (p *partsDir) close() error {
	p.codec.close()
	return p.lock.release()
}

func (p *partsDir) layerDir(n int) string { return filepath.Join(p.vdir, layerName(n)) }

func partName(rank int) string { return fmt.Sprintf("%s%04d", partPrefix, rank) }

// layers returns the metadata of the complete layers 0..k-1: those whose
// layer.json is there, up to the first that is not. Metadata that is
// there but wrong (unreadable, another layer's, a part's file missing
// or of another size, ranges that do not tile the layer) is damage.
func (p *partsDir) layers() ([]partsLayer, error) {
	ix := NewIndex(p.v.Pits)
	var out []partsLayer
	for n := 0; n <= maxLayer; n++ {
		data, err := os.ReadFile(filepath.Join(p.layerDir(n), layerFile))
		if errors.Is(err, os.ErrNotExist) {
			return out, nil
		}
		if err != nil {
			return out, p.damage(n, "its %s cannot be read: %v", layerFile, err)
		}
		var rec partsLayer
		if err := json.Unmarshal(data, &rec); err != nil {
			return out, p.damage(n, "its %s is not valid metadata", layerFile)
		}
		if detail := checkRecord(layerRecord{LayerInfo: rec.LayerInfo}, p.v, n, ix.Size(n)); detail != "" {
			return out, p.damage(n, "%s", detail)
		}
		if detail := p.checkParts(n, rec); detail != "" {
			return out, p.damage(n, "%s", detail)
		}
		out = append(out, rec)
	}
	return out, nil
}

// checkParts checks that a layer's parts tile it on block boundaries and
// that their files have the sizes recorded.
func (p *partsDir) checkParts(n int, rec partsLayer) string {
	next := int64(0)
	for _, part := range rec.Parts {
		if part.Lo != next || part.Lo%BlockSize != 0 || part.Positions <= 0 || filepath.Base(part.Name) != part.Name {
			return fmt.Sprintf("its parts do not tile the layer (%s at rank %d, want %d)", clipText(part.Name, 20), part.Lo, next)
		}
		next += part.Positions
		st, err := os.Stat(filepath.Join(p.layerDir(n), part.Name))
		if err != nil {
			return fmt.Sprintf("part %s is missing", part.Name)
		}
		if st.Size() != part.Size {
			return fmt.Sprintf("part %s has %d bytes, its build wrote %d", part.Name, st.Size(), part.Size)
		}
	}
	if next != rec.Positions {
		return fmt.Sprintf("its parts cover %d of its %d positions", next, rec.Positions)
	}
	return ""
}

// damage is a *DamageError of layer n of the parts.
func (p *partsDir) damage(n int, format string, args ...any) error {
	return &PartsDamageError{Dir: p.dir, Variant: p.v.Name, Seeds: n, Layer: p.layerDir(n), Detail: fmt.Sprintf(format, args...)}
}

// PartsDamageError reports a build's parts whose files differ from what
// the build recorded. The layer and those above it are built again by
// the build once their directories are removed (it resumes at the first
// layer without metadata). errors.Is(err, ErrDamaged) holds.
type PartsDamageError struct {
	Dir     string
	Variant string
	Seeds   int
	Layer   string // the layer's directory
	Detail  string
}

func (e *PartsDamageError) Error() string {
	return fmt.Sprintf("parts %s are damaged (%s layer %d: %s); remove %s and the layers above it, and run the build again to rebuild them",
		e.Dir, e.Variant, e.Seeds, e.Detail, e.Layer)
}

func (e *PartsDamageError) Is(target error) bool { return target == ErrDamaged }

// partFile is an open part file: its range and frames' offsets.
type partFile struct {
	f       *os.File
	lo, n   int64
	offsets []uint64 // 2B+1: value frames, distance frames, end
}

func (pf *partFile) blocks() int { return (len(pf.offsets) - 1) / 2 }

// frame reads frame i (value block i, or distance block i-B) of the part.
func (pf *partFile) frame(i int) ([]byte, error) {
	buf := make([]byte, pf.offsets[i+1]-pf.offsets[i])
	_, err := pf.f.ReadAt(buf, int64(pf.offsets[i]))
	return buf, err
}

// openPart opens part rec of layer n, checking its file's xxHash64
// against the record when check says so (the whole file is read), and
// its trailer and index against the record always.
func (p *partsDir) openPart(n int, rec partRecord, check bool) (*partFile, error) {
	path := filepath.Join(p.layerDir(n), rec.Name)
	if check {
		sum, size, err := hashFile(path)
		switch {
		case err != nil:
			return nil, p.damage(n, "part %s cannot be read: %v", rec.Name, err)
		case size != rec.Size || sum != rec.XXHash:
			return nil, p.damage(n, "part %s has changed since its build (%d bytes, checksum %016x; recorded %d bytes, %016x)", rec.Name, size, sum, rec.Size, rec.XXHash)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, p.damage(n, "part %s cannot be read: %v", rec.Name, err)
	}
	pf, detail := readPartIndex(f, rec)
	if detail != "" {
		f.Close()
		return nil, p.damage(n, "part %s: %s", rec.Name, detail)
	}
	return pf, nil
}

// readPartIndex reads a part file's trailer and index and checks them
// against its record; it returns what is wrong, or "".
func readPartIndex(f *os.File, rec partRecord) (*partFile, string) {
	var tr [partTrailer]byte
	if rec.Size < partTrailer {
		return nil, "too short for a part"
	}
	if _, err := f.ReadAt(tr[:], rec.Size-partTrailer); err != nil {
		return nil, err.Error()
	}
	lo, n, at := binary.LittleEndian.Uint64(tr[8:]), binary.LittleEndian.Uint64(tr[16:]), binary.LittleEndian.Uint64(tr[24:])
	blocks := (rec.Positions + BlockSize - 1) / BlockSize
	size := (2*blocks + 1) * 8
	switch {
	case string(tr[:8]) != partMagic:
		return nil, "no part trailer at its end"
	case int64(lo) != rec.Lo || int64(n) != rec.Positions:
		return nil, fmt.Sprintf("it holds ranks %d..%d, its record says %d..%d", lo, lo+n, rec.Lo, rec.Lo+rec.Positions)
	case int64(at)+size+partTrailer != rec.Size:
		return nil, "its index is not where its trailer says"
	}
	raw := make([]byte, size)
	if _, err := f.ReadAt(raw, int64(at)); err != nil {
		return nil, err.Error()
	}
	offsets := make([]uint64, 2*blocks+1)
	for i := range offsets {
		offsets[i] = binary.LittleEndian.Uint64(raw[8*i:])
		if i > 0 && offsets[i] < offsets[i-1] || offsets[i] > at {
			return nil, "its index is out of order"
		}
	}
	return &partFile{f: f, lo: int64(lo), n: int64(n), offsets: offsets}, ""
}

// writePart writes a part file at path (through a temporary file, synced,
// then renamed over whatever a killed build left there): the range
// starting at rank lo, its value and distance frames, index and trailer.
// It returns the file's size and xxHash64.
func writePart(path string, lo, positions int64, blocks, distBlocks [][]byte) (int64, uint64, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return 0, 0, err
	}
	h := xxhash.New()
	w := &countWriter{w: io.MultiWriter(f, h)}
	offsets := make([]uint64, 0, len(blocks)+len(distBlocks)+1)
	for _, frames := range [][][]byte{blocks, distBlocks} {
		for _, fr := range frames {
			offsets = append(offsets, uint64(w.n))
			w.Write(fr)
		}
	}
	at := uint64(w.n)
	offsets = append(offsets, at)
	buf := make([]byte, 8*len(offsets)+partTrailer)
	for i, o := range offsets {
		binary.LittleEndian.PutUint64(buf[8*i:], o)
	}
	tr := buf[8*len(offsets):]
	copy(tr, partMagic)
	binary.LittleEndian.PutUint64(tr[8:], uint64(lo))
	binary.LittleEndian.PutUint64(tr[16:], uint64(positions))
	binary.LittleEndian.PutUint64(tr[24:], at)
	w.Write(buf)
	if err := commitTemp(f, tmp, path, w.err); err != nil {
		return 0, 0, err
	}
	return w.n, h.Sum64(), nil
}

// countWriter counts the bytes written and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
	return n, err
}

// readRange decodes the values of ranks [lo, hi) of a complete layer
// from its parts, checking each part's file when check says so.
func (p *partsDir) readRange(rec partsLayer, lo, hi int64, check bool) ([]int8, error) {
	values := make([]int8, hi-lo)
	for _, part := range rec.Parts {
		plo, phi := max(lo, part.Lo), min(hi, part.Lo+part.Positions)
		if plo >= phi {
			continue
		}
		pf, err := p.openPart(rec.Seeds, part, check)
		if err != nil {
			return nil, err
		}
		err = p.decodeValues(pf, rec.Seeds, part.Name, plo, phi, values[plo-lo:phi-lo])
		pf.f.Close()
		if err != nil {
			return nil, err
		}
	}
	return values, nil
}

// decodeValues decodes ranks [lo, hi) of a part into dst.
func (p *partsDir) decodeValues(pf *partFile, n int, name string, lo, hi int64, dst []int8) error {
	buf := make([]int8, BlockSize)
	for b := int((lo - pf.lo) / BlockSize); int64(b)*BlockSize+pf.lo < hi; b++ {
		blo := pf.lo + int64(b)*BlockSize
		blk := buf[:min(BlockSize, pf.lo+pf.n-blo)]
		data, err := pf.frame(b)
		if err == nil {
			err = p.codec.decodeValues(int(blo/BlockSize), data, blk)
		}
		if err != nil {
			return p.damage(n, "part %s: %v", name, err)
		}
		from, to := max(lo, blo), min(hi, blo+int64(len(blk)))
		copy(dst[from-lo:to-lo], blk[from-blo:to-blo])
	}
	return nil
}

// loadLayer reads a whole complete layer's values from its parts and
// checks them against the layer's checksum.
func (p *partsDir) loadLayer(rec partsLayer) ([]int8, error) {
	values, err := p.readRange(rec, 0, rec.Positions, false)
	if err != nil {
		return nil, err
	}
	if sum := xxhash.Sum64(int8Bytes(values)); sum != rec.Checksum {
		return nil, p.damage(rec.Seeds, "its values have checksum %016x, its build recorded %016x", sum, rec.Checksum)
	}
	return values, nil
}

// removeFrom deletes layers n and above (complete or half-written) of
// the parts, highest first, so that a crash part-way leaves layers below
// with no gap: a build resuming at n writes them again.
func (p *partsDir) removeFrom(n int) error {
	seeds, err := storedLayers(p.vdir)
	if err != nil {
		return err
	}
	for i := len(seeds) - 1; i >= 0 && seeds[i] >= n; i-- {
		ldir := p.layerDir(seeds[i])
		// The metadata first: without it the layer is not complete.
		if err := os.Remove(filepath.Join(ldir, layerFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := syncDir(ldir); err != nil {
			return err
		}
		if err := os.RemoveAll(ldir); err != nil {
			return err
		}
	}
	return syncDir(p.vdir)
}
