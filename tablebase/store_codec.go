package tablebase

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"

	"github.com/mancala-solver/mancala/position"
)

// Format is the stored format this program writes and reads, recorded in
// each layer's metadata (LayerInfo.Format):
//
//	0 or absent: values only (mancala-tablebase/1, before distances)
//	2:           values and distances (family 'D', see store.go)
//
// A layer of another format is reported by OpenProber and rebuilt by
// Build, never read as if it were this one.
const Format = 2

// familyDistance keys the distance blocks:
//
//	dist: 'D' | variant ID (1 byte) | rules version (2) | seeds (1) | block (4)
//	      -> zstd frame of up to BlockSize distances, each a uint16 in
//	         two planes: every low byte of the block, then every high byte
//	         (the high bytes are nearly all 0 and compress to almost nothing)
//
// Block b holds the distances of the same ranks as value block b.
const familyDistance byte = 'D'

// distanceKey is the key of distance block b of layer n.
func distanceKey(v *position.Variant, n int, b int) []byte {
	k := append(variantPrefix(familyDistance, v), byte(n), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(k[5:], uint32(b))
	return k
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

// distancePlanes writes dist as its two byte planes into dst (2*len).
func distancePlanes(dist []uint16, dst []byte) []byte {
	dst = dst[:2*len(dist)]
	for i, d := range dist {
		dst[i], dst[len(dist)+i] = byte(d), byte(d>>8)
	}
	return dst
}

// distanceChecksum is xxHash64 of a layer's distances as little-endian
// uint16s.
func distanceChecksum(dist []uint16) uint64 {
	h := xxhash.New()
	var buf [2 * 4096]byte
	for lo := 0; lo < len(dist); lo += 4096 {
		chunk := dist[lo:min(lo+4096, len(dist))]
		for i, d := range chunk {
			binary.LittleEndian.PutUint16(buf[2*i:], d)
		}
		h.Write(buf[:2*len(chunk)])
	}
	return h.Sum64()
}

// encodeDistanceBlock compresses one block of distances.
func (s *store) encodeDistanceBlock(dist []uint16) []byte {
	planes := distancePlanes(dist, make([]byte, 2*len(dist)))
	return s.enc.EncodeAll(planes, make([]byte, 0, len(dist)/8))
}

// decodeDistanceBlock decompresses one stored distance block into dst.
func (s *store) decodeDistanceBlock(n, b int, data []byte, dst []uint16) error {
	planes, err := s.dec.DecodeAll(data, make([]byte, 0, 2*len(dst)))
	if err != nil {
		return s.damage(n, fmt.Sprintf("distance block %d: %v", b, err))
	}
	if len(planes) != 2*len(dst) {
		return s.damage(n, fmt.Sprintf("distance block %d: %d bytes, want %d", b, len(planes), 2*len(dst)))
	}
	for i := range dst {
		dst[i] = uint16(planes[i]) | uint16(planes[len(dst)+i])<<8
	}
	return nil
}

// getDistanceBlock reads and decodes distance block b of layer n into dst.
func (s *store) getDistanceBlock(v *position.Variant, n, b int, dst []uint16) error {
	db, err := s.layerDB(n)
	if err != nil {
		return err
	}
	return s.guard(n, "reading", func() error {
		return db.View(func(txn *badger.Txn) error {
			item, err := txn.Get(distanceKey(v, n, b))
			if err != nil {
				return s.damage(n, fmt.Sprintf("distance block %d: %v", b, err))
			}
			return item.Value(func(data []byte) error { return s.decodeDistanceBlock(n, b, data, dst) })
		})
	})
}

// loadDistances reads a whole layer's distances and checks their checksum.
func (s *store) loadDistances(v *position.Variant, info LayerInfo) ([]uint16, error) {
	dist := make([]uint16, info.Positions)
	for b := 0; b < info.Blocks; b++ {
		dst := dist[int64(b)*BlockSize : min(int64(b+1)*BlockSize, info.Positions)]
		if err := s.getDistanceBlock(v, info.Seeds, b, dst); err != nil {
			return nil, err
		}
	}
	if sum := distanceChecksum(dist); sum != info.DistanceChecksum {
		return dist, s.damage(info.Seeds, fmt.Sprintf("distance checksum %016x, stored %016x", sum, info.DistanceChecksum))
	}
	return dist, nil
}

// ProbeDistance returns the value of p (as Probe) and its distance in
// plies (doc.go: the plies to the capture or game end that realises the
// value; 0 for value 0), or ok=false when p has more than MaxSeeds seeds
// or a block cannot be read (see Err). Distance blocks have their own
// cache, as large as the values' (SetCacheBytes sets both).
func (pr *Prober) ProbeDistance(p position.Position) (value, plies int, ok bool) {
	value, ok = pr.Probe(p)
	if !ok {
		return 0, 0, false
	}
	n := p.Seeds()
	r := pr.ix.Rank(p)
	b := int(r / BlockSize)
	blk, err := pr.dist.get(n, b, func() ([]uint16, error) {
		info := pr.layers[n].info
		dst := make([]uint16, min(int64(b+1)*BlockSize, info.Positions)-int64(b)*BlockSize)
		return dst, pr.s.getDistanceBlock(pr.v, n, b, dst)
	})
	if err != nil {
		pr.err.CompareAndSwap(nil, &err)
		return 0, 0, false
	}
	return value, int(blk[r%BlockSize]), true
}

// newDistanceCache returns the prober's cache of distance blocks.
func newDistanceCache(layers []proberLayer, limit int64) *blockCache[uint16] {
	blocks := make([]int, len(layers))
	for i, l := range layers {
		blocks[i] = l.info.Blocks
	}
	return newBlockCache[uint16](blocks, 2, limit)
}

// checkDistanceRange re-derives the distance of each position of ranks
// [lo, hi) from its moves and the stored values and distances (the
// equations in doc.go) and returns how many disagree, describing the
// first few.
func (s *layerSolver) checkDistanceRange(lo, hi int64, values []int8, dist []uint16) (int64, []string) {
	var buf [position.MaxPits]position.Move
	var bad int64
	var examples []string
	c := s.ix.newCursor(s.n, uint64(lo))
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		p := c.position()
		if want := s.deriveDistance(p, values, dist, &buf); want != int(dist[i]) {
			if bad++; len(examples) < maxReported {
				examples = append(examples, fmt.Sprintf("%s (rank %d): stored distance %d, its moves give %d",
					position.Format(s.v, p), i, dist[i], want))
			}
		}
	}
	return bad, examples
}

// deriveDistance returns the distance that p's moves give: 0 for value 0
// or no moves; else the shortest (winner) or longest (loser) of its
// value-keeping moves, a capture counting 1 and a move inside the layer
// 1 + its child's distance.
func (s *layerSolver) deriveDistance(p position.Position, values []int8, dist []uint16, buf *[position.MaxPits]position.Move) int {
	v := int(values[s.ix.Rank(p)])
	nm := s.v.Moves(p, buf)
	if v == 0 || nm == 0 {
		return 0
	}
	best := -1
	for j := range buf[:nm] {
		m := &buf[j]
		value, d := 0, 1
		if m.Captured > 0 {
			value = int(s.exitValue(p, m))
		} else {
			q := s.ix.Rank(m.Next)
			value, d = m.Value(p, int(values[q])), 1+int(dist[q])
		}
		if value == v && (best < 0 || (v > 0 && d < best) || (v < 0 && d > best)) {
			best = d
		}
	}
	return best
}
