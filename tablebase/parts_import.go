package tablebase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"

	"github.com/mancala-solver/mancala/position"
)

// ImportStats describes an Import run.
type ImportStats struct {
	Variant string
	Kept    int         // layers asked for already in the tablebase, not imported again
	Layers  []LayerInfo // the layers this run imported
	// MaxSeeds is the top of the layers 0..MaxSeeds in the tablebase
	// now, with no gap (-1: none).
	MaxSeeds int
	// PartsTop is the top complete layer of the parts (-1: none).
	PartsTop int
	Seconds  float64
}

// ImportOptions configures Import.
type ImportOptions struct {
	// Layers, when not nil, imports these layers only, and lets other
	// imports of other layers run at once (one layer a task of an
	// `sbatch --array` job): the tablebase's lock is then taken shared,
	// with a lock of each layer's own; nil imports every complete layer
	// of the parts, holding the tablebase as a build does.
	Layers []int
	// LayerDone, when not nil, is called after each layer is imported.
	LayerDone func(LayerInfo)
}

// Import puts the complete layers of a build's parts (the directory a
// build across processes wrote, parts.go) into the tablebase at dir,
// creating it if needed, so that every reader (stats, query, solve,
// probe) uses them as a one-machine build's. Each layer goes in as a
// build stores one (putStream: its own database, written in a staging
// directory, metadata last, one rename), its blocks copied as they are:
// they are the store's own frames. Before a layer is written every part
// file is re-hashed against the metadata (a damaged part is refused,
// naming it: a *PartsDamageError), and while it is written every block
// is decoded and the layer's values and distances hashed in rank order
// against its checksums. A layer already in the tablebase is kept when
// its checksums equal the parts' (else an error), so an interrupted
// import resumes at the first missing layer. Importing every layer holds
// v's tablebase as a build does (ErrInUse while a build or another import
// has it); importing chosen layers (opts.Layers) excludes a build and an
// import of the same layer only. Until every layer is in, a layer above
// a missing one is reported as damage by the tablebase's readers.
func Import(ctx context.Context, parts, dir string, v *position.Variant, opts ImportOptions) (stats ImportStats, err error) {
	began := time.Now()
	v = VariantOf(v)
	stats = ImportStats{Variant: v.Name, MaxSeeds: -1, PartsTop: -1}
	p, err := openParts(parts, v, false)
	if err != nil {
		return stats, err
	}
	defer p.close()
	recs, err := p.layers()
	if err != nil {
		return stats, err
	}
	stats.PartsTop = len(recs) - 1
	layers := opts.Layers
	if layers == nil {
		for n := range recs {
			layers = append(layers, n)
		}
	}
	for _, n := range layers {
		if n < 0 || n >= len(recs) {
			return stats, fmt.Errorf("parts %s: layer %d is not complete there (they hold layers 0..%d)", parts, n, len(recs)-1)
		}
	}
	s, err := openImport(dir, v, opts.Layers == nil)
	if err != nil {
		return stats, err
	}
	defer s.close()
	defer func() { stats.MaxSeeds = gaplessTop(s.vdir) }()
	for _, n := range layers {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		imported, err := importLayer(ctx, p, s, recs[n], opts.Layers != nil)
		if err != nil {
			return stats, err
		}
		if !imported {
			stats.Kept++
			continue
		}
		stats.Layers = append(stats.Layers, recs[n].LayerInfo)
		if opts.LayerDone != nil {
			opts.LayerDone(recs[n].LayerInfo)
		}
	}
	stats.Seconds = time.Since(began).Seconds()
	return stats, nil
}

// gaplessTop is the top of the layers 0..k stored under vdir with no gap
// (-1: none).
func gaplessTop(vdir string) int {
	seeds, _ := storedLayers(vdir)
	top := -1
	for i, n := range seeds {
		if n != i {
			break
		}
		top = n
	}
	return top
}

// openImport opens v's part of the tablebase at dir for an import:
// as a build does (exclusive), or shared beside imports of other layers.
func openImport(dir string, v *position.Variant, exclusive bool) (*store, error) {
	if exclusive {
		return openStore(dir, v, true)
	}
	if err := ensureMarker(dir); err != nil {
		return nil, err
	}
	s := &store{dir: dir, vdir: variantDir(dir, v), v: v, dbs: map[int]*badger.DB{}, bad: map[int]error{}, codec: newCodec()}
	if err := os.MkdirAll(s.vdir, 0o777); err != nil {
		return nil, err
	}
	lock, err := lockShared(filepath.Join(s.vdir, buildLock))
	if errors.Is(err, ErrInUse) {
		return nil, fmt.Errorf("tablebase %s is %w (a build of %s holds it)", dir, err, v.Name)
	}
	if err != nil {
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// kept reports whether layer rec is in the tablebase already: its
// layer.json is there, and names the parts' checksums (else an error: the
// tablebase holds another layer, or a damaged one).
func kept(s *store, rec partsLayer) (bool, error) {
	ldir := filepath.Join(s.vdir, layerName(rec.Seeds))
	if _, err := os.Lstat(ldir); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	have, detail := readRecord(ldir)
	if detail == "" {
		detail = checkRecord(have, s.v, rec.Seeds, rec.Positions)
	}
	if detail != "" {
		return false, s.damage(rec.Seeds, detail)
	}
	if have.Checksum != rec.Checksum || have.DistanceChecksum != rec.DistanceChecksum {
		return false, fmt.Errorf("tablebase %s: %s layer %d has checksums %016x/%016x, the parts %016x/%016x: not the same layer; import into another directory",
			s.dir, s.v.Name, rec.Seeds, have.Checksum, have.DistanceChecksum, rec.Checksum, rec.DistanceChecksum)
	}
	return true, nil
}

// importLayer checks every part of layer rec, then writes the layer into
// the store from them, checking its checksums as it goes; it returns
// false when the store has the layer already (kept). shared: other
// imports may run beside this one, so the layer's own lock is taken.
func importLayer(ctx context.Context, p *partsDir, s *store, rec partsLayer, shared bool) (bool, error) {
	n := rec.Seeds
	if shared {
		lock, err := lockFile(filepath.Join(s.vdir, fmt.Sprintf("%s%02d.lock", stagePrefix, n)))
		if errors.Is(err, ErrInUse) {
			return false, fmt.Errorf("tablebase %s: layer %d is %w (another import of it)", s.dir, n, err)
		}
		if err != nil {
			return false, err
		}
		defer lock.release()
	}
	if ok, err := kept(s, rec); ok || err != nil {
		return false, err
	}
	files := make([]*partFile, len(rec.Parts))
	defer func() {
		for _, pf := range files {
			if pf != nil {
				pf.f.Close()
			}
		}
	}()
	for i, part := range rec.Parts {
		pf, err := p.openPart(n, part, true)
		if err != nil {
			return false, err
		}
		files[i] = pf
	}
	stream := func(w io.Writer) error { return p.streamLayer(ctx, w, rec, files) }
	if err := s.putStream(rec.LayerInfo, stream); err != nil {
		return false, fmt.Errorf("layer %d: importing: %w", n, err)
	}
	return true, nil
}

// streamLayer writes layer rec's blocks from its parts as the store's
// records (value blocks, then distance blocks, in rank order), decoding
// each to check the layer's checksums at the end.
func (p *partsDir) streamLayer(ctx context.Context, w io.Writer, rec partsLayer, files []*partFile) error {
	n := rec.Seeds
	hv, hd := xxhash.New(), xxhash.New()
	values, dist := make([]int8, BlockSize), make([]uint16, BlockSize)
	for _, family := range []byte{familyBlock, familyDistance} {
		for i, pf := range files {
			name := rec.Parts[i].Name
			nb := pf.blocks()
			for b := range nb {
				if err := ctx.Err(); err != nil {
					return err
				}
				blo := pf.lo + int64(b)*BlockSize
				global := int(blo / BlockSize)
				count := min(BlockSize, pf.lo+pf.n-blo)
				frame := b
				if family == familyDistance {
					frame += nb
				}
				data, err := pf.frame(frame)
				if err == nil && family == familyBlock {
					if err = p.codec.decodeValues(global, data, values[:count]); err == nil {
						hashRange(hv, hd, values[:count], nil)
					}
				} else if err == nil {
					if err = p.codec.decodeDistances(global, data, dist[:count]); err == nil {
						hashRange(hv, hd, nil, dist[:count])
					}
				}
				if err != nil {
					return p.damage(n, "part %s: %v", name, err)
				}
				if err := writeKV(w, familyKey(family, p.v, n, global), data); err != nil {
					return err
				}
			}
		}
	}
	if sv, sd := hv.Sum64(), hd.Sum64(); sv != rec.Checksum || sd != rec.DistanceChecksum {
		return p.damage(n, "its parts' values and distances have checksums %016x/%016x, its build recorded %016x/%016x", sv, sd, rec.Checksum, rec.DistanceChecksum)
	}
	return nil
}
