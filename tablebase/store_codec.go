package tablebase

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/mancala-solver/mancala/position"
)

// What a stored layer is as bytes: its keys, its blocks (zstd frames of
// values and of distances) and the checksums that cover them. The store
// (store.go) writes and reads these bytes; nothing here touches a file.

// BlockSize is the number of positions (int8 values, in rank order) in one
// stored block: 64 KiB before compression. A layer of L positions is
// ceil(L/BlockSize) blocks, the last one short.
const BlockSize = 1 << 16

// ToolVersion names the builder in each layer's metadata; bump it when the
// stored format changes.
const ToolVersion = "mancala-tablebase/2"

// Format is the stored format this program writes and reads, recorded in
// each layer's metadata (LayerInfo.Format):
//
//	0 or absent: values only (mancala-tablebase/1, before distances)
//	2:           values and distances (family 'D', below)
//
// A layer of another format is reported by OpenProber and rebuilt by
// Build, never read as if it were this one.
const Format = 2

// Key layout. Each layer is its own Badger database (see store_layout.go);
// its keys still name the variant, rules version and layer, so a block
// can never be read as another layer's. All integers are big-endian:
//
//	block: 'B' | variant ID (1 byte) | rules version (2) | seeds (1) | block (4)
//	       -> zstd frame (with its checksum) of up to BlockSize int8 values
//	dist:  'D' | the same as block
//	       -> zstd frame of up to BlockSize distances, each a uint16 in
//	          two planes: every low byte of the block, then every high byte
//	          (the high bytes are nearly all 0 and compress to almost nothing)
//
// Distance block b holds the distances of the same ranks as value block
// b. A layer's metadata (LayerInfo) and the sizes and checksums of its
// database files are in layer.json beside them.
const (
	familyBlock    byte = 'B'
	familyDistance byte = 'D'
)

// variantPrefix is the key prefix of one variant's keys of a family.
func variantPrefix(family byte, v *position.Variant) []byte {
	k := make([]byte, 4, 9)
	k[0], k[1] = family, v.ID
	binary.BigEndian.PutUint16(k[2:], v.RulesVersion())
	return k
}

// familyKey is the key of block b of layer n in a family.
func familyKey(family byte, v *position.Variant, n int, b int) []byte {
	k := append(variantPrefix(family, v), byte(n), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(k[5:], uint32(b))
	return k
}

// blockKey is the key of value block b of layer n.
func blockKey(v *position.Variant, n int, b int) []byte { return familyKey(familyBlock, v, n, b) }

// distanceKey is the key of distance block b of layer n.
func distanceKey(v *position.Variant, n int, b int) []byte {
	return familyKey(familyDistance, v, n, b)
}

// codec compresses and decompresses blocks. Both directions are safe for
// concurrent use (zstd's EncodeAll and DecodeAll are).
type codec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// newCodec returns a codec writing zstd frames with their checksums, at
// zstd's default level: on kalah's layer 18 (34.6 M positions) it took 1.28
// s where SpeedBetterCompression took 2.80 s, for 0.564 bytes a position
// (values and distances) instead of 0.544; with the forward pass the better
// level was a quarter of a kalah build's CPU time. Every level writes the
// same frames, which any reader decodes.
func newCodec() codec {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderLevel(zstd.SpeedDefault))
	dec, _ := zstd.NewReader(nil)
	return codec{enc: enc, dec: dec}
}

func (c codec) close() {
	c.enc.Close()
	c.dec.Close()
}

// encodeValues compresses one block of values.
func (c codec) encodeValues(values []int8) []byte {
	return c.enc.EncodeAll(int8Bytes(values), make([]byte, 0, len(values)/4))
}

// decodeValues decompresses value block b into dst, checking its size.
func (c codec) decodeValues(b int, data []byte, dst []int8) error {
	out, err := c.dec.DecodeAll(data, int8Bytes(dst)[:0])
	if err != nil {
		return fmt.Errorf("block %d: %v", b, err)
	}
	if len(out) != len(dst) {
		return fmt.Errorf("block %d: %d values, want %d", b, len(out), len(dst))
	}
	if &out[0] != &int8Bytes(dst)[0] {
		copy(int8Bytes(dst), out)
	}
	return nil
}

// encodeDistances compresses one block of distances, as its two planes.
func (c codec) encodeDistances(dist []uint16) []byte {
	planes := distancePlanes(dist, make([]byte, 2*len(dist)))
	return c.enc.EncodeAll(planes, make([]byte, 0, len(dist)/8))
}

// decodeDistances decompresses distance block b into dst, checking its
// size.
func (c codec) decodeDistances(b int, data []byte, dst []uint16) error {
	planes, err := c.dec.DecodeAll(data, make([]byte, 0, 2*len(dst)))
	if err != nil {
		return fmt.Errorf("distance block %d: %v", b, err)
	}
	if len(planes) != 2*len(dst) {
		return fmt.Errorf("distance block %d: %d bytes, want %d", b, len(planes), 2*len(dst))
	}
	for i := range dst {
		dst[i] = uint16(planes[i]) | uint16(planes[len(dst)+i])<<8
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
// uint16s, whether held in one byte a position (kalah's forward pass) or
// two: the same layer hashes the same either way.
func distanceChecksum[D uint8 | uint16](dist []D) uint64 {
	h := xxhash.New()
	var buf [2 * 4096]byte
	for lo := 0; lo < len(dist); lo += 4096 {
		chunk := dist[lo:min(lo+4096, len(dist))]
		for i, d := range chunk {
			binary.LittleEndian.PutUint16(buf[2*i:], uint16(d))
		}
		h.Write(buf[:2*len(chunk)])
	}
	return h.Sum64()
}

// int8Bytes views values as bytes, for hashing and compression, without a
// copy. int8 and byte have the same size and alignment.
func int8Bytes(values []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(values))), len(values))
}
