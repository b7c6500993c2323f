package tablebase

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/mancala-solver/mancala/position"
)

// ImportStats describes an Import run.
type ImportStats struct {
	Variant  string
	Resumed  int         // layers already in the tablebase, not imported again
	Layers   []LayerInfo // the layers this run imported
	MaxSeeds int         // every layer 0..MaxSeeds is in the tablebase now (-1: none)
	// PartsTop is the top complete layer of the parts (-1: none).
	PartsTop int
	Seconds  float64
}

// Import puts the complete layers of a build's parts (the directory a
// build across processes wrote, parts.go) into the tablebase at dir,
// creating it if needed, so that every reader (stats, query, solve,
// probe) uses them as a one-machine build's. Each layer goes in as a
// build stores one (putLayer: its own database, written in a staging
// directory, metadata last, one rename), its blocks copied as they are:
// they are the store's own frames. Before a layer is written every part
// file is re-hashed against the metadata (a damaged part is refused,
// naming it: a *PartsDamageError), and while it is written every block
// is decoded and the layer's values and distances hashed in rank order
// against its checksums. Layers already in the tablebase are kept when
// their checksums equal the parts' (else an error), so an interrupted
// import resumes at the first missing layer. It holds v's tablebase as a
// build does (ErrInUse while a build or another import has it).
// layerDone, when not nil, is called after each layer is imported.
func Import(ctx context.Context, parts, dir string, v *position.Variant, layerDone func(LayerInfo)) (ImportStats, error) {
	began := time.Now()
	v = VariantOf(v)
	stats := ImportStats{Variant: v.Name, MaxSeeds: -1, PartsTop: -1}
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
	s, err := openStore(dir, v, true)
	if err != nil {
		return stats, err
	}
	defer s.close()
	infos, err := s.layers()
	if err != nil {
		return stats, err
	}
	for n, info := range infos {
		if n < len(recs) && (info.Checksum != recs[n].Checksum || info.DistanceChecksum != recs[n].DistanceChecksum) {
			return stats, fmt.Errorf("tablebase %s: %s layer %d has checksums %016x/%016x, the parts in %s %016x/%016x: they are not the same layer; import into another directory",
				dir, v.Name, n, info.Checksum, info.DistanceChecksum, parts, recs[n].Checksum, recs[n].DistanceChecksum)
		}
	}
	stats.Resumed, stats.MaxSeeds = min(len(infos), len(recs)), len(infos)-1
	for n := len(infos); n < len(recs); n++ {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		if err := importLayer(ctx, p, s, recs[n]); err != nil {
			return stats, err
		}
		stats.Layers = append(stats.Layers, recs[n].LayerInfo)
		stats.MaxSeeds = n
		if layerDone != nil {
			layerDone(recs[n].LayerInfo)
		}
	}
	stats.Seconds = time.Since(began).Seconds()
	return stats, nil
}

// importLayer checks every part of layer rec, then writes the layer into
// the store from them, checking its checksums as it goes.
func importLayer(ctx context.Context, p *partsDir, s *store, rec partsLayer) error {
	n := rec.Seeds
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
			return err
		}
		files[i] = pf
	}
	stream := func(w io.Writer) error { return p.streamLayer(ctx, w, rec, files) }
	if err := s.putStream(rec.LayerInfo, stream); err != nil {
		return fmt.Errorf("layer %d: importing: %w", n, err)
	}
	return nil
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
