package tablebase

import (
	"fmt"
	"math/bits"
	"sync/atomic"
)

// lowerValues gives the values of the finished layers below the one being
// built, which a capture leads to: held in memory, or read from the store
// through a bounded cache of decoded blocks when they do not fit beside
// the layer (diskLower).
type lowerValues interface {
	value(n int, rank uint64) int8
}

// memLower is every lower layer in memory, by seed count.
type memLower [][]int8

func (l memLower) value(n int, rank uint64) int8 { return l[n][rank] }

// tieredLower holds some lower layers in memory (mem[n] not nil) and
// reads the others from the store (planLower).
type tieredLower struct {
	mem  memLower
	disk *diskLower
}

func (l tieredLower) value(n int, rank uint64) int8 {
	if m := l.mem[n]; m != nil {
		return m[rank]
	}
	return l.disk.value(n, rank)
}

// minLowerCache is the smallest cache of lower-layer blocks a build uses:
// 1024 blocks, enough for the captures of a chunk of ranks to find their
// blocks again (children of neighbouring ranks are near each other).
var minLowerCache int64 = 1024 * BlockSize // a variable only for tests of small builds

// diskLower reads the lower layers from the store through a cache of
// decoded blocks of at most limit bytes. A block that cannot be read makes
// value return 0 and is recorded; the layer then fails (err).
type diskLower struct {
	cache *blockCache[int8]
	fail  atomic.Pointer[error]
}

func newDiskLower(s *store, infos []LayerInfo, limit int64) *diskLower {
	return &diskLower{cache: newBlockCache(infos, 1, limit, s.getBlock)}
}

func (l *diskLower) value(n int, rank uint64) int8 {
	blk, err := l.cache.get(n, int(rank/BlockSize))
	if err != nil {
		l.fail.CompareAndSwap(nil, &err)
		return 0
	}
	return blk[rank%BlockSize]
}

// err returns the first read error, if any.
func (l *diskLower) err() error {
	if e := l.fail.Load(); e != nil {
		return fmt.Errorf("reading a lower layer: %w", *e)
	}
	return nil
}

// packedValues is a lower layer's values held in fewer bits, for the
// forward pass (kalah): every seed of a kalah game ends in a store, so a
// position of layer m is worth 2a - m for the a seeds its mover ends with,
// one of m+1 values, and code a takes bits.Len(m) bits (5 up to layer 31,
// against 8 for an int8). A layer whose values do not all have that form is
// not packed (packValues). Codes are laid out little-endian, bit after
// bit, with a byte of padding so that one 16-bit load holds any code.
type packedValues struct {
	bits  []byte
	width uint   // bits a code
	mask  uint16 // 1<<width - 1
	m     int8   // the layer: value = 2*code - m
}

// packValues packs layer m's values, or returns ok false when one of them
// is not 2a - m for an a in 0..m (a variant where seeds stay unowned).
func packValues(values []int8, m int) (p packedValues, ok bool) {
	width := uint(max(1, bits.Len(uint(m))))
	p = packedValues{width: width, mask: 1<<width - 1, m: int8(m)}
	for _, v := range values {
		if a := int(v) + m; a < 0 || a > 2*m || a&1 != 0 {
			return packedValues{}, false
		}
	}
	p.bits = make([]byte, (int64(len(values))*int64(width)+7)/8+1)
	var acc uint64
	var held uint
	out := p.bits[:0]
	for _, v := range values {
		acc |= uint64((int(v)+m)/2) << held
		held += width
		for held >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			held -= 8
		}
	}
	if held > 0 {
		out = append(out, byte(acc))
	}
	return p, true
}

// value returns the value of the position of rank r.
func (p *packedValues) value(r uint64) int8 {
	bit := r * uint64(p.width)
	i := bit / 8
	word := uint16(p.bits[i]) | uint16(p.bits[i+1])<<8
	return 2*int8(word>>(bit%8)&p.mask) - p.m
}

// held reports whether p holds a layer.
func (p *packedValues) held() bool { return p.bits != nil }

// unpack returns the values as int8s.
func (p *packedValues) unpack(size int64) []int8 {
	values := make([]int8, size)
	for r := range values {
		values[r] = p.value(uint64(r))
	}
	return values
}

// bytes is the memory of p.
func (p *packedValues) bytes() int64 { return int64(len(p.bits)) }
