package tablebase

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// Layers past 2^32 positions across processes (issue 38): a rank's
// range stays under 2^32, so the ranks inside it (frontiers, batches,
// lookups) are 32-bit and relative to its start, while the ranks of the
// layer, the predecessors' and the ranges' starts are 64-bit.

// TestClusterPastTwoTo32: a build across processes whose layers' ranks
// start at rankOrigin, past 2^32 (every range's start, frontier and
// predecessor as the ranks handle them is then a rank that does not fit
// in 32 bits, as in awari's layers 32..48), gives the one-machine build's
// values, distances and checksums, in the parts and imported. Two
// origins: 2^32 less a block, so that the first range straddles 2^32 and
// a rank cut to 32 bits lands in the wrong range, and 5 x 2^32 + 3
// blocks, where every rank is past it.
func TestClusterPastTwoTo32(t *testing.T) {
	defer func(c int64, o uint64) { lookupChunk, rankOrigin = c, o }(lookupChunk, rankOrigin)
	lookupChunk = BlockSize
	// 10 seeds under -race (31.9 -> 12.6 s): awari's layer 10 is 6 blocks,
	// so the first of 3 ranges (2 blocks) still straddles 2^32.
	seeds := testsize.Pick(10, 11, 11)
	for _, tc := range []struct {
		name   string
		ranks  int
		origin uint64
	}{
		{"awari", 3, 1<<32 - BlockSize},
		{"oware", 4, 5<<32 + 3*BlockSize},
	} {
		t.Run(fmt.Sprintf("%s/%d-ranks/origin-%d", tc.name, tc.ranks, tc.origin), func(t *testing.T) {
			v := lookup(t, tc.name)
			one := refBuild(t, v, seeds, MethodAuto)
			want := layerChecksums(t, one, v)
			rankOrigin = tc.origin
			parts := t.TempDir()
			buildCluster(t, parts, tc.name, tc.ranks, seeds)
			if got := partsChecksums(t, parts, v); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("parts' checksums\n%x\nwant\n%x", got, want)
			}
			tb, _ := importParts(t, parts, v)
			if got := layerChecksums(t, tb, v); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("imported checksums\n%x\nwant\n%x", got, want)
			}
			sameValues(t, tb, one, v, seeds)
		})
	}
}

// TestClusterRangesOfAwari: the ranges of awari's layers 31..48 at 72
// ranks are whole blocks, cover the layer and are under 2^32; the ranks
// each layer needs (ranksNeeded) are the fewest whose ranges are under
// 2^32, worked out by hand for three layers: layer 32 (5,752,004,349
// positions) needs 2, layer 40 (47,626,016,970) 12 (11 ranges would be
// 4,329,701,376, past 2^32 = 4,294,967,296), layer 48 (279,871,768,995)
// 66 (65: ceil(size/65) = 4,305,719,523).
func TestClusterRangesOfAwari(t *testing.T) {
	ix := NewIndex(6)
	hand := map[int]int{31: 1, 32: 2, 40: 12, 48: 66}
	for n := 31; n <= 48; n++ {
		size := ix.Size(n)
		if want := binomial(n+11, 11); uint64(size) != want {
			t.Fatalf("layer %d: %d positions, C(%d, 11) = %d", n, size, n+11, want)
		}
		span := partRanges(size, 72)
		if span%BlockSize != 0 || span*72 < size || span >= MaxLayerPositions || (span-BlockSize)*72 >= size {
			t.Errorf("layer %d at 72 ranks: ranges of %d positions (%d a layer)", n, span, size)
		}
		need := ranksNeeded(size)
		if partRanges(size, need) >= MaxLayerPositions || need > 1 && partRanges(size, need-1) < MaxLayerPositions {
			t.Errorf("layer %d: %d ranks needed, but their ranges are %d (%d with one fewer)", n, need, partRanges(size, need), partRanges(size, need-1))
		}
		if h, ok := hand[n]; ok && need != h {
			t.Errorf("layer %d: %d ranks needed, want %d", n, need, h)
		}
	}
	if got := partRanges(ix.Size(48), 72); got != 3_887_136_768 { // ceil(279,871,768,995/72) = 3,887,107,903, to 59,313 blocks
		t.Errorf("layer 48 at 72 ranks: ranges of %d, want 3,887,136,768", got)
	}
}

// clusterShape is the shape of awari's layer n on a rank of a build
// across processes of parts ranks, with no bound on memory.
func clusterShape(n, parts int) *layerShape {
	ix := NewIndex(6)
	sizes := make([]int64, n+1)
	for m := range sizes {
		sizes[m] = ix.Size(m)
	}
	v, _ := position.Lookup("awari")
	return &layerShape{n: n, sizes: sizes, variant: v.Name, leastCapture: v.LeastCapture(), maxSeeds: 48,
		budget: math.MaxInt64, threads: 1, parts: parts, cluster: true, unsow: true, movesPerPosition: 3.3}
}

// TestClusterRefusesTooFewRanks: across processes a layer past 2^32 is
// planned when its ranges are under 2^32 and refused, naming the ranks
// it needs, when they are not; on one machine it is refused whatever
// the parts. A build of awari to 33 by one rank stops before any work:
// the parts' directory is not even made.
func TestClusterRefusesTooFewRanks(t *testing.T) {
	for _, tc := range []struct{ n, parts, need int }{{33, 1, 2}, {40, 11, 12}, {48, 65, 66}} {
		_, err := chooseMethod(clusterShape(tc.n, tc.parts))
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at least %d ranks", tc.need)) {
			t.Errorf("layer %d at %d ranks: %v, want a refusal naming %d ranks", tc.n, tc.parts, err, tc.need)
		}
		p, err := chooseMethod(clusterShape(tc.n, tc.need))
		if err != nil || p.Method != "unsow-parts" || p.Positions != NewIndex(6).Size(tc.n) {
			t.Errorf("layer %d at %d ranks: %+v, %v; want unsow-parts", tc.n, tc.need, p.LayerPlan, err)
		}
		one := clusterShape(tc.n, tc.need)
		one.cluster, one.stored = false, true
		if _, err := chooseMethod(one); err == nil || !strings.Contains(err.Error(), "across machines") {
			t.Errorf("layer %d on one machine in %d parts: %v, want a refusal", tc.n, tc.need, err)
		}
	}
	dir := t.TempDir() + "/parts"
	c := newGoClusters(1)[0]
	_, err := Build(context.Background(), dir, lookup(t, "awari"), BuildOptions{MaxSeeds: 33, Threads: 1, Parts: 1, Cluster: c, MemBytes: math.MaxInt64})
	if err == nil || !strings.Contains(err.Error(), "layer 32") || !strings.Contains(err.Error(), "at least 2 ranks") {
		t.Errorf("awari to 33 by 1 rank: %v, want layer 32 refused, naming 2 ranks", err)
	}
	if _, serr := os.Stat(dir); !os.IsNotExist(serr) {
		t.Errorf("the refused build made %s (%v)", dir, serr)
	}
}

// TestPartExpandPastTwoTo32: a part of awari's layer 40 (47.6 G
// positions) at 72 ranks, its range past 2^32, sends each predecessor
// of its frontier to the owner of its rank, relative to the owner's
// range, as worked out from Index.Unrank, position.AppendUnsown and
// Index.Rank; the frontier and what apply returns are relative to the
// part's range, and seedRange gives its ranks relative too.
func TestPartExpandPastTwoTo32(t *testing.T) {
	const n, parts, part = 40, 72, 66
	v := lookup(t, "awari")
	ix := NewIndex(6)
	size := ix.Size(n)
	span := partRanges(size, parts)
	lo := int64(part) * span // 43,660,345,344
	if lo < 1<<32 {
		t.Fatalf("range %d starts at %d, under 2^32", part, lo)
	}
	s := &layerSolver{v: v, ix: ix, n: n, size: size, lo: lo, hi: lo + span, prog: newProgress(n, size, nil), partitions: parts}
	r := &rankPart{s: s, t: part, lo: lo, hi: lo + span, span: span, parts: parts}
	// The frontier: positions of the range with predecessors (most
	// ranks of a layer have none), from its start, middle and end.
	var now frontier
	for _, from := range []int64{0, span / 2, span - 1<<20} {
		found := 0
		for q := from; found < 3; q += 7919 {
			child := ix.Unrank(n, uint64(lo+q))
			child.Side = 1
			if len(v.AppendUnsown(child, nil)) == 0 {
				continue
			}
			if found++; found%2 == 0 {
				now.lost = append(now.lost, uint32(q))
			} else {
				now.won = append(now.won, uint32(q))
			}
		}
	}
	out := r.expand(now)
	want := make([]Batch, parts)
	past, elsewhere := 0, 0
	for i := range int64(now.len()) {
		q, lost := now.at(i)
		child := ix.Unrank(n, uint64(lo)+uint64(q))
		child.Side = 1
		for _, p := range v.AppendUnsown(child, nil) {
			rank := ix.Rank(p)
			if rank >= 1<<32 {
				past++
			}
			to := rank / uint64(span)
			if to != part {
				elsewhere++
			}
			b := &want[to]
			if lost {
				b.Win = append(b.Win, uint32(rank%uint64(span)))
			} else {
				b.Lose = append(b.Lose, uint32(rank%uint64(span)))
			}
		}
	}
	if past == 0 || elsewhere == 0 {
		t.Fatalf("%d predecessors past 2^32, %d in other parts: the test checks too little", past, elsewhere)
	}
	for to := range want {
		if !slices.Equal(out[to].Win, want[to].Win) || !slices.Equal(out[to].Lose, want[to].Lose) {
			t.Errorf("to part %d: %v, want %v", to, out[to], want[to])
		}
	}

	// apply, on the first 4096 ranks of the range: a win for relative
	// rank 4095 and a loss that resolves relative rank 3 come back
	// relative.
	short := &rankPart{s: s, t: part, lo: lo, hi: lo + 4096, span: span, parts: parts, state: make([]uint32, 4096)}
	short.state[3] = 1 // one move left that does not lose
	next := short.apply([]Batch{{Win: []uint32{4095}}, {Lose: []uint32{3}}}, 2, 4)
	if !slices.Equal(next.won, []uint32{4095}) || !slices.Equal(next.lost, []uint32{3}) {
		t.Errorf("apply resolved %v won, %v lost; want [4095], [3]", next.won, next.lost)
	}

	// seedRange from index 64 of the arrays: a capture worth 2 at index
	// 100, relative rank 100 of the part.
	s.exit = make([]int8, 256)
	s.terminal = make([]uint64, 4)
	for i := range s.exit {
		s.exit[i] = noExit
	}
	s.exit[100] = 2
	state := make([]uint32, 256)
	state[100] = 3
	_, captures := seedRange(s, 64, 256, 2, state, lo)
	if !slices.Equal(captures.won, []uint32{100}) {
		t.Errorf("seedRange's captures %v, want [100]", captures.won)
	}
}

// TestPartFilePastTwoTo32: a part whose range starts past 2^32 (rank
// 5 x 2^32 of a layer, three blocks and 5 positions) is written and read
// back: its trailer names the range, its index the frames, and its values
// decode at their ranks, from a rank inside its second block on.
func TestPartFilePastTwoTo32(t *testing.T) {
	const lo, positions = 5 << 32, 3*BlockSize + 5
	c := newCodec()
	p := &partsDir{codec: c}
	defer c.close()
	values := make([]int8, positions)
	dist := make([]uint16, positions)
	for i := range values {
		values[i], dist[i] = int8(i%97-48), uint16(i%1000)
	}
	var blocks, distBlocks [][]byte
	for b := 0; b < positions; b += BlockSize {
		blocks = append(blocks, c.encodeValues(values[b:min(b+BlockSize, positions)]))
		distBlocks = append(distBlocks, c.encodeDistances(dist[b:min(b+BlockSize, positions)]))
	}
	path := t.TempDir() + "/" + partName(3)
	size, _, err := writePart(path, lo, positions, blocks, distBlocks)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, detail := readPartIndex(f, partRecord{Name: partName(3), Lo: lo, Positions: positions, Size: size})
	if detail != "" {
		t.Fatal(detail)
	}
	if pf.lo != lo || pf.n != positions || pf.blocks() != 4 {
		t.Fatalf("part of ranks %d+%d in %d blocks, want %d+%d in 4", pf.lo, pf.n, pf.blocks(), int64(lo), positions)
	}
	from := int64(lo + BlockSize + 17)
	got := make([]int8, lo+positions-from)
	if err := p.decodeValues(pf, 40, partName(3), from, lo+positions, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, values[from-lo:]) {
		t.Error("the values decoded from rank 5 x 2^32 + 65553 on differ from those written")
	}
	if _, detail := readPartIndex(f, partRecord{Lo: lo % (1 << 32), Positions: positions, Size: size}); !strings.Contains(detail, "holds ranks") {
		t.Errorf("the part read as starting at rank %d: %q, want its trailer's range named", lo%(1<<32), detail)
	}
}

// TestBlockKeysPastTwoTo32: the store numbers a layer's blocks in 32 bits
// (store_codec.go), so a one-machine tablebase holds layers up to 2^48
// positions and Import needs no refusal for awari's layers 32..48: the
// key of the last block of layer 48 (rank 279,871,768,994, block
// 4,270,504) names that block, apart from the keys of the blocks 2^16
// below and above it.
func TestBlockKeysPastTwoTo32(t *testing.T) {
	v := lookup(t, "awari")
	last := int((NewIndex(6).Size(48) - 1) / BlockSize)
	if last != 4_270_504 {
		t.Fatalf("last block of layer 48: %d, want 4,270,504", last)
	}
	key := blockKey(v, 48, last)
	if got := binary.BigEndian.Uint32(key[len(key)-4:]); got != uint32(last) {
		t.Errorf("the key names block %d, want %d", got, last)
	}
	if slices.Equal(key, blockKey(v, 48, last-1<<16)) || slices.Equal(key, blockKey(v, 48, last+1<<16)) {
		t.Error("blocks 2^16 apart share a key")
	}
}
