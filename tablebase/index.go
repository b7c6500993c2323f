package tablebase

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/mancala-solver/mancala/position"
)

// maxRing is the most pits a board has (akon: 2*7); maxLayer the most seeds
// a layer can hold (akon: 70).
const (
	maxRing  = 2 * position.MaxPits
	maxLayer = 70
)

// Index is a perfect rank of the boards of one ring size: the boards that
// hold n seeds are numbered 0..Size(n)-1 with no gaps, and Rank and Unrank
// are inverse bijections between them and those numbers.
//
// A board of P = 2*Pits pits holding n seeds, read in ring order from the
// side to move (Own pit 1..Pits = ring 0..Pits-1, then Opp pit 1..Pits),
// is a composition a_0 + ... + a_{P-1} = n. Stars and bars turn it into the
// (P-1)-subset {s_0 < ... < s_{P-2}} of {0, ..., n+P-2}, with s_i = x_i + i
// where x_i = a_0 + ... + a_i is the prefix sum. Its rank is its place in
// colexicographic order, given by the combinatorial number system
// (Knuth, The Art of Computer Programming, vol. 4A, section 7.2.1.3):
//
//	rank = sum_{i=0}^{P-2} C(s_i, i+1) = sum_{i=0}^{P-2} C(x_i + i, i+1)
//
// so there are C(n+P-1, P-1) boards in layer n. The last pit is implied by
// n and does not enter the rank, so the same formula ranks every layer:
// Rank needs no seed count. Romein & Bal's awari databases are indexed
// the same way, by a perfect rank among the boards of one seed count, as
// is Lapin0t/awari (`encode`).
type Index struct {
	ring int // P, pits on the board
	pits int // pits a row
	// term[i*stride+x] = C(x+i, i+1): bar i's term when ring pits 0..i hold x seeds.
	term []uint64
	// wide[i][x] is term[i*stride+x], each row padded to 256 entries so
	// that Rank's look-ups by a byte need no bounds checks.
	wide *[maxRing - 1][256]uint64
}

// stride is the row length of Index.term: prefix sums run 0..maxLayer.
const stride = maxLayer + 1

// NewIndex returns the index of a board with pits pits a row (1..MaxPits).
func NewIndex(pits int) *Index {
	if pits < 1 || pits > position.MaxPits {
		panic(fmt.Sprintf("tablebase: NewIndex(%d): want 1..%d pits a row", pits, position.MaxPits))
	}
	ix := &Index{ring: 2 * pits, pits: pits, term: make([]uint64, (2*pits-1)*stride), wide: new([maxRing - 1][256]uint64)}
	for i := 0; i < ix.ring-1; i++ {
		for x := 0; x <= maxLayer; x++ {
			ix.term[i*stride+x] = binomial(x+i, i+1)
			ix.wide[i][x] = ix.term[i*stride+x]
		}
	}
	return ix
}

// binomial returns C(n, k) for the small arguments of the index
// (n <= maxLayer+maxRing); it panics on overflow, which those never reach.
func binomial(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	c := uint64(1)
	for i := 1; i <= k; i++ {
		// c*(n-k+i) is divisible by i; the product stays below 2^64 here.
		hi := c * uint64(n-k+i)
		if c != 0 && hi/c != uint64(n-k+i) {
			panic("tablebase: binomial overflow")
		}
		c = hi / uint64(i)
	}
	return c
}

// Size returns the number of boards holding n seeds: C(n+P-1, P-1).
func (ix *Index) Size(n int) int64 {
	s := binomial(n+ix.ring-1, ix.ring-1)
	if s > math.MaxInt64 {
		panic("tablebase: layer too large")
	}
	return int64(s)
}

// lsb has the value 1 in every byte: multiplying a packed row by it puts
// the prefix sums of its pits in its bytes (pit counts stay far below 256).
const lsb = 0x0101010101010101

// Rank returns the board's number within its layer (the layer is
// p.Seeds()); p.Side is ignored, since values are from the side to move.
// It is the hot path of the build: two multiplications give every prefix
// sum, then one table look-up per pit but the last.
func (ix *Index) Rank(p position.Position) uint64 {
	if ix.pits == 6 {
		return ix.rank6(p.Own, p.Opp)
	}
	own := p.Own * lsb // byte i: Own pits 1..i+1
	opp := p.Opp * lsb
	t := ix.term
	var r uint64
	for i := 0; i < ix.pits; i++ {
		r += t[i*stride+int(own>>(8*uint(i))&0xff)]
	}
	total := int(own >> (8 * uint(ix.pits-1)) & 0xff)
	base := ix.pits * stride
	for i := 0; i < ix.pits-1; i++ {
		r += t[base+i*stride+total+int(opp>>(8*uint(i))&0xff)]
	}
	return r
}

// rank6 is Rank for 6 pits a row (every game but akon), unrolled: the
// loops over a row cost as much as the look-ups.
func (ix *Index) rank6(own, opp uint64) uint64 {
	sums := own * lsb
	return ix.ownRank6(sums) + ix.oppRank6(opp*lsb, uint8(sums>>40))
}

// ownRank6 is ownRank for 6 pits a row, from the row's prefix sums (the
// row times lsb).
func (ix *Index) ownRank6(sums uint64) uint64 {
	t := ix.wide
	return t[0][uint8(sums)] + t[1][uint8(sums>>8)] + t[2][uint8(sums>>16)] +
		t[3][uint8(sums>>24)] + t[4][uint8(sums>>32)] + t[5][uint8(sums>>40)]
}

// oppRank6 is oppRank for 6 pits a row, from the opponent's prefix sums
// and the mover's seeds.
func (ix *Index) oppRank6(sums uint64, ownSeeds uint8) uint64 {
	t := ix.wide
	return t[6][ownSeeds+uint8(sums)] + t[7][ownSeeds+uint8(sums>>8)] + t[8][ownSeeds+uint8(sums>>16)] +
		t[9][ownSeeds+uint8(sums>>24)] + t[10][ownSeeds+uint8(sums>>32)]
}

// ownRank is the part of Rank that the mover's row contributes: Rank(p) =
// ownRank(p.Own) + oppRank(p.Opp, RowSeeds(p.Own)), the opponent's terms
// seeing the mover's row only through its seed count. The forward pass
// ranks a child from these parts, most of them fixed across a run of
// positions.
func (ix *Index) ownRank(row uint64) uint64 {
	if ix.pits == 6 {
		return ix.ownRank6(row * lsb)
	}
	own := row * lsb
	t := ix.term
	var r uint64
	for i := 0; i < ix.pits; i++ {
		r += t[i*stride+int(own>>(8*uint(i))&0xff)]
	}
	return r
}

// oppRank is the part of Rank that the opponent's row contributes beside
// a mover's row of ownSeeds seeds (see ownRank).
func (ix *Index) oppRank(row uint64, ownSeeds int) uint64 {
	if ix.pits == 6 {
		return ix.oppRank6(row*lsb, uint8(ownSeeds))
	}
	opp := row * lsb
	t := ix.term
	base := ix.pits*stride + ownSeeds
	var r uint64
	for i := 0; i < ix.pits-1; i++ {
		r += t[base+i*stride+int(opp>>(8*uint(i))&0xff)]
	}
	return r
}

// Unrank returns the board of layer n with number r (0 <= r < Size(n)), as
// a position with Side 0. It inverts Rank greedily: bar i, from the last,
// takes the largest prefix sum whose term still fits in what is left of r.
func (ix *Index) Unrank(n int, r uint64) position.Position {
	var pits [maxRing]int
	bound := n // prefix sum through the pit after bar i
	for i := ix.ring - 2; i >= 0; i-- {
		x := bound
		for ix.term[i*stride+x] > r {
			x--
		}
		r -= ix.term[i*stride+x]
		pits[i+1] = bound - x
		bound = x
	}
	pits[0] = bound
	return position.Position{
		Own: position.PackRow(pits[:ix.pits]),
		Opp: position.PackRow(pits[ix.pits:ix.ring]),
	}
}

// cursor walks the boards of one layer in rank order, one step at a time,
// without ranking or unranking: the colex successor of a composition.
type cursor struct {
	ix   *Index
	pits [maxRing + 8]byte // ring pits, padded so either row reads as 8 bytes
	mask uint64            // the bytes of one row
}

// newCursor starts a cursor at board r of layer n.
func (ix *Index) newCursor(n int, r uint64) *cursor {
	c := &cursor{ix: ix, mask: 1<<(8*uint(ix.pits)) - 1}
	p := ix.Unrank(n, r)
	binary.LittleEndian.PutUint64(c.pits[:8], p.Own)
	// Own's bytes above pit Pits are zero, and Opp's top ones too, so the
	// second write leaves exactly the ring followed by zeros.
	binary.LittleEndian.PutUint64(c.pits[ix.pits:ix.pits+8], p.Opp)
	return c
}

// position returns the current board (Side 0).
func (c *cursor) position() position.Position {
	return position.Position{
		Own: binary.LittleEndian.Uint64(c.pits[:8]) & c.mask,
		Opp: binary.LittleEndian.Uint64(c.pits[c.ix.pits:c.ix.pits+8]) & c.mask,
	}
}

// next moves to the board of the next rank. In colex order the successor
// of s_0 < ... < s_{P-2} raises the first s_j that has room (s_j+1 <
// s_{j+1}, i.e. pit j+1 is not empty) and resets s_0..s_{j-1} to 0..j-1: in
// pits, pit j takes the seeds of pits 0..j plus one from pit j+1. It must
// not be called on the last board of the layer.
func (c *cursor) next() {
	sum := 0
	j := 0
	for c.pits[j+1] == 0 {
		sum += int(c.pits[j])
		c.pits[j] = 0
		j++
	}
	c.pits[j] += byte(sum + 1)
	c.pits[j+1]--
}

// layerUnranker is Unrank for one layer, with the lowest bars read from a
// table instead of searched: the bars 0..low-1 contribute the rank of the
// board's first low pits among all such prefixes of up to n seeds (their
// colex rank, the same number system), so once the bars above are found
// what is left of the rank picks the prefix directly. For awari's 6 pits a
// row the table holds every mover's row: 5 searches instead of 11, and one
// look-up (C(n+6, 6) entries: 4.8 MB at 24 seeds, 16 MB at 30).
type layerUnranker struct {
	ix  *Index
	n   int
	low int // pits 0..low-1 come from the table; low <= pits
	// prefix[r] is the packed prefix of rank r, its seed count in byte 7.
	prefix []uint64
}

// maxPrefixTable caps a layerUnranker's table (entries of 8 bytes).
const maxPrefixTable = 1 << 21

// newLayerUnranker returns the unranker of layer n, with the widest
// prefix table (at most a row) that maxPrefixTable allows.
func (ix *Index) newLayerUnranker(n int) *layerUnranker {
	return ix.newLayerUnrankerCapped(n, maxPrefixTable)
}

// newLayerUnrankerCapped is newLayerUnranker with a table of at most
// limit entries (at least a one-pit prefix, n+1 entries).
func (ix *Index) newLayerUnrankerCapped(n int, limit uint64) *layerUnranker {
	low := ix.pits
	for low > 1 && binomial(n+low, low) > limit {
		low--
	}
	u := &layerUnranker{ix: ix, n: n, low: low, prefix: make([]uint64, binomial(n+low, low))}
	var fill func(i, x int, rank, row uint64)
	fill = func(i, x int, rank, row uint64) { // pits 0..i-1 placed, x seeds in them
		if i == low {
			u.prefix[rank] = row | uint64(x)<<56
			return
		}
		for c := 0; x+c <= n; c++ {
			fill(i+1, x+c, rank+ix.term[i*stride+x+c], row|uint64(c)<<(8*uint(i)))
		}
	}
	fill(0, 0, 0, 0)
	return u
}

// unrank returns the board of rank r of the layer, as Index.Unrank.
func (u *layerUnranker) unrank(r uint64) position.Position {
	ix := u.ix
	var rows [2]uint64
	bound := u.n // prefix sum through the pit after bar i
	for i := ix.ring - 2; i >= u.low; i-- {
		x := bound
		for ix.term[i*stride+x] > r {
			x--
		}
		r -= ix.term[i*stride+x]
		j := i + 1
		rows[j/ix.pits] |= uint64(bound-x) << (8 * uint(j%ix.pits))
		bound = x
	}
	e := u.prefix[r]
	x := int(e >> 56)
	rows[0] |= e &^ (0xff << 56)
	rows[u.low/ix.pits] |= uint64(bound-x) << (8 * uint(u.low%ix.pits))
	return position.Position{Own: rows[0], Opp: rows[1]}
}
