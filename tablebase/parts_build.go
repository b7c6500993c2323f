package tablebase

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cespare/xxhash/v2"
)

// A build across processes stores each layer in parts (parts.go): every
// rank encodes and writes its own range, and rank 0 writes the layer's
// metadata once every part is written. The layer's checksums are those
// of a one-machine build, xxHash64 of the values (and of the distances)
// in rank order: xxHash64 is a sequential hash whose state is small
// (Digest.MarshalBinary: 76 bytes, the four accumulators, the length
// and the unhashed tail), so the ranks chain it: rank t hashes its range from the state rank t-1
// ended with, received in a message, and passes on its own. The chain is
// sequential (P-1 exchange rounds, each rank hashing only its own range
// once: the layer's bytes at xxHash64's rate, some GB/s), the encoding
// and writing of the parts is not.

// storeRange stores ranks [lo, lo+L) of layer info.Seeds as this rank's
// part, in the build's parts directory, from res: the range's final
// propagation state (res.state, L long), or its values and distances
// (res.values and res.dist, L long each). It is collective: every rank
// of the build calls it once a layer, with its own range (partRanges: lo
// is a multiple of BlockSize, the ranges tile the layer in rank order,
// an empty one has lo at the layer's end). info carries what the layer's
// solve knows (seeds, positions, method, inner moves, rounds, start
// time: partsInfo); storeRange adds the block count, the chained
// checksums, the stored bytes and the longest distance, and returns the
// layer's metadata: on rank 0 as it wrote it, on the others without the
// figures of the parts (sums, bytes, longest distance). On return the
// layer is complete on disk.
func (b *builder) storeRange(ctx context.Context, info LayerInfo, lo int64, res solved) (LayerInfo, error) {
	c := b.opts.Cluster
	rank, n := c.Rank(), info.Seeds
	size := int64(len(res.state))
	if res.state == nil {
		size = int64(len(res.values))
		if len(res.dist) != len(res.values) {
			return info, fmt.Errorf("layer %d: part %d: %d values and %d distances", n, rank, len(res.values), len(res.dist))
		}
	}
	if size > 0 && lo%BlockSize != 0 {
		return info, fmt.Errorf("layer %d: part %d starts at rank %d, not at a block", n, rank, lo)
	}
	mine := partSummary{lo: lo, positions: size}
	if size > 0 {
		var err error
		if mine, err = b.writeOwnPart(ctx, n, rank, lo, size, res); err != nil {
			return info, err
		}
	}
	hv, hd, err := chainSums(ctx, c, res)
	if err != nil {
		return info, err
	}
	mine.valueSum, mine.distSum = hv, hd
	all, err := gatherSummaries(ctx, c, mine)
	if err != nil {
		return info, err
	}
	info = layerInfoOf(info, all)
	if rank == 0 {
		if err := b.parts.writeLayer(info, all); err != nil {
			return info, fmt.Errorf("layer %d: storing: %w", n, err)
		}
	}
	// Every rank returns once the layer is complete: a rank that goes on
	// never meets a layer that a restart would build again.
	if _, err := c.Sum(ctx, rank, 0); err != nil {
		return info, err
	}
	return info, nil
}

// partSummary is what a rank tells rank 0 of its part of a layer.
type partSummary struct {
	lo, positions      int64
	size               int64
	xxhash             uint64 // of the part's file
	stored, distStored int64  // compressed bytes of its values, distances
	maxDistance        int64
	valueSum, distSum  uint64 // the chained sums after its range (the last rank's are the layer's)
}

func (s partSummary) words() []uint64 {
	return []uint64{uint64(s.lo), uint64(s.positions), uint64(s.size), s.xxhash, uint64(s.stored), uint64(s.distStored),
		uint64(s.maxDistance), s.valueSum, s.distSum}
}

func summaryOf(w []uint64) partSummary {
	return partSummary{lo: int64(w[0]), positions: int64(w[1]), size: int64(w[2]), xxhash: w[3], stored: int64(w[4]),
		distStored: int64(w[5]), maxDistance: int64(w[6]), valueSum: w[7], distSum: w[8]}
}

// writeOwnPart encodes and writes this rank's part of layer n: size
// positions from rank lo, in res.
func (b *builder) writeOwnPart(ctx context.Context, n, rank int, lo, size int64, res solved) (partSummary, error) {
	enc, err := encodeLayer(ctx, b.parts.codec, b.opts.Threads, &res, false)
	if err != nil {
		return partSummary{}, err
	}
	if err := mkdirSynced(b.parts.layerDir(n)); err != nil {
		return partSummary{}, err
	}
	path := filepath.Join(b.parts.layerDir(n), partName(rank))
	bytes, sum, err := writePart(path, lo, size, enc.blocks, enc.distBlocks)
	if err != nil {
		return partSummary{}, fmt.Errorf("layer %d: writing %s: %w", n, path, err)
	}
	return partSummary{lo: lo, positions: size, size: bytes, xxhash: sum,
		stored: enc.stored, distStored: enc.distStored, maxDistance: int64(enc.maxDistance)}, nil
}

// chainSums returns the xxHash64 states after this rank's range of the
// layer's values and distances, each hashed from the state the rank
// before ended with: in round r of size-1 exchange rounds rank r hashes
// its range and sends its states to rank r+1, so that the last rank's
// sums are the whole layer's.
func chainSums(ctx context.Context, c Cluster, res solved) (uint64, uint64, error) {
	rank, size := c.Rank(), c.Size()
	hv, hd := xxhash.New(), xxhash.New()
	for r := range size - 1 {
		out := make([]Batch, size)
		if r == rank {
			hashSolved(hv, hd, res)
			out[r+1].Win = digestWords(hv, hd)
		}
		in, err := c.Exchange(ctx, rank, out)
		if err != nil {
			return 0, 0, err
		}
		if r+1 == rank {
			if err := digestsOf(in[r].Win, hv, hd); err != nil {
				return 0, 0, err
			}
		}
	}
	if rank == size-1 {
		hashSolved(hv, hd, res)
	}
	return hv.Sum64(), hd.Sum64(), nil
}

// hashSolved adds a range's values and distances to their hashes, from
// its state (a run at a time) or its arrays.
func hashSolved(hv, hd *xxhash.Digest, res solved) {
	if res.state == nil {
		hashRange(hv, hd, res.values, res.dist)
		return
	}
	const run = 4096
	values, dist := make([]int8, run), make([]uint16, run)
	for lo := 0; lo < len(res.state); lo += run {
		chunk := res.state[lo:min(lo+run, len(res.state))]
		for i, st := range chunk {
			values[i], dist[i] = stateValue(st), stateDistance(st)
		}
		hashRange(hv, hd, values[:len(chunk)], dist[:len(chunk)])
	}
}

// hashRange adds a range's values and distances (as little-endian uint16,
// distanceChecksum) to their hashes.
func hashRange(hv, hd *xxhash.Digest, values []int8, dist []uint16) {
	_, _ = hv.Write(int8Bytes(values))
	var buf [2 * 4096]byte
	for lo := 0; lo < len(dist); lo += 4096 {
		chunk := dist[lo:min(lo+4096, len(dist))]
		for i, d := range chunk {
			binary.LittleEndian.PutUint16(buf[2*i:], d)
		}
		_, _ = hd.Write(buf[:2*len(chunk)])
	}
}

// digestWords packs two xxHash64 states into a batch's words: each its
// byte length, then its bytes, four to a word.
func digestWords(ds ...*xxhash.Digest) []uint32 {
	var words []uint32
	for _, d := range ds {
		raw, _ := d.MarshalBinary()
		words = append(words, uint32(len(raw)))
		for i := 0; i < len(raw); i += 4 {
			var w [4]byte
			copy(w[:], raw[i:])
			words = append(words, binary.LittleEndian.Uint32(w[:]))
		}
	}
	return words
}

// digestsOf unpacks digestWords into ds.
func digestsOf(words []uint32, ds ...*xxhash.Digest) error {
	for _, d := range ds {
		if len(words) == 0 {
			return fmt.Errorf("a checksum state of the rank before is missing")
		}
		n := int(words[0])
		k := (n + 3) / 4
		if len(words) < 1+k {
			return fmt.Errorf("a checksum state of %d bytes in %d words", n, len(words)-1)
		}
		raw := make([]byte, 4*k)
		for i, w := range words[1 : 1+k] {
			binary.LittleEndian.PutUint32(raw[4*i:], w)
		}
		if err := d.UnmarshalBinary(raw[:n]); err != nil {
			return fmt.Errorf("the checksum state of the rank before: %w", err)
		}
		words = words[1+k:]
	}
	return nil
}

// gatherSummaries sends every rank's summary to rank 0 in one exchange
// round and returns them by rank on rank 0 (nil elsewhere).
func gatherSummaries(ctx context.Context, c Cluster, mine partSummary) ([]partSummary, error) {
	out := make([]Batch, c.Size())
	for _, w := range mine.words() {
		out[0].Win = append(out[0].Win, uint32(w), uint32(w>>32))
	}
	in, err := c.Exchange(ctx, c.Rank(), out)
	if err != nil || c.Rank() != 0 {
		return nil, err
	}
	all := make([]partSummary, len(in))
	for t, b := range in {
		if len(b.Win) != 2*len(mine.words()) {
			return nil, fmt.Errorf("rank %d's summary of its part has %d words", t, len(b.Win))
		}
		w := make([]uint64, len(b.Win)/2)
		for i := range w {
			w[i] = uint64(b.Win[2*i]) | uint64(b.Win[2*i+1])<<32
		}
		all[t] = summaryOf(w)
	}
	return all, nil
}

// layerInfoOf completes a layer's metadata from its parts' summaries
// (rank 0's; the other ranks get info back with no part figures).
func layerInfoOf(info LayerInfo, all []partSummary) LayerInfo {
	info.BlockSize, info.Format, info.ToolVersion = BlockSize, Format, ToolVersion
	info.Blocks = int((info.Positions + BlockSize - 1) / BlockSize)
	info.StoredBytes, info.DistanceBytes, info.MaxDistance = 0, 0, 0
	for _, s := range all {
		info.StoredBytes += s.stored
		info.DistanceBytes += s.distStored
		info.MaxDistance = max(info.MaxDistance, int(s.maxDistance))
	}
	if len(all) > 0 {
		last := all[len(all)-1]
		info.Checksum, info.DistanceChecksum = last.valueSum, last.distSum
	}
	return info
}

// writeLayer writes layer info's metadata with its parts (rank 0, once
// every part is written and synced): from then on the layer is complete.
func (p *partsDir) writeLayer(info LayerInfo, all []partSummary) error {
	rec := partsLayer{LayerInfo: info}
	for t, s := range all {
		if s.positions > 0 {
			rec.Parts = append(rec.Parts, partRecord{Name: partName(t), Rank: t, Lo: s.lo, Positions: s.positions, Size: s.size, XXHash: s.xxhash})
		}
	}
	if detail := p.checkParts(info.Seeds, rec); detail != "" {
		return fmt.Errorf("the parts written: %s", detail)
	}
	data, err := jsonIndent(rec)
	if err != nil {
		return err
	}
	return writeFileSynced(filepath.Join(p.layerDir(info.Seeds), layerFile), data)
}

// partsInfo is the metadata a layer's solve gives storeRange.
func (b *builder) partsInfo(p methodPlan, res solved, began time.Time) LayerInfo {
	return LayerInfo{Variant: b.v.Name, RulesVersion: int(b.v.RulesVersion()), Seeds: p.Seeds, Positions: p.Positions,
		InnerMoves: b.edges, Method: res.method, Rounds: res.rounds, BuiltAt: began.UTC(), Seconds: time.Since(began).Seconds()}
}

// resumeParts opens the build's parts at dir and reads the complete
// layers up to MaxSeeds, each rank its own range: rank 0 opens the
// directory for writing (making it, taking the lock), counts the
// complete layers, deletes what a killed build left of the first
// incomplete one and above, and tells the others the count (a sum); then
// every rank reads its range of those layers' values (ownRange: from the
// parts that hold it, each part's file checked against its recorded
// xxHash64) into b.own, those that a layer above reads. It returns the
// count.
func (b *builder) resumeParts(ctx context.Context, dir string) (int, error) {
	c := b.opts.Cluster
	if b.opts.Repair {
		// Every rank refuses, before any collective call.
		return 0, errors.New("--repair: a build across processes does not repair its parts; remove the damaged layer's directory and those above it from the parts, and run the build again")
	}
	done := int64(0)
	if c.Rank() == 0 {
		p, err := openParts(dir, b.v, true)
		if err != nil {
			return 0, err
		}
		b.parts = p
		recs, err := p.layers()
		if err != nil {
			return 0, err
		}
		if err := p.removeFrom(len(recs)); err != nil {
			return 0, fmt.Errorf("parts %s: removing a half-written layer: %w", dir, err)
		}
		done = int64(min(len(recs), b.opts.MaxSeeds+1))
	}
	done, err := c.Sum(ctx, c.Rank(), done)
	if err != nil {
		return 0, err
	}
	if c.Rank() != 0 {
		if b.parts, err = openParts(dir, b.v, false); err != nil {
			return 0, err
		}
	}
	recs, err := b.parts.layers()
	if err != nil {
		return 0, err
	}
	if len(recs) < int(done) {
		return 0, fmt.Errorf("parts %s: rank %d finds %d complete layers, rank 0 found %d", dir, c.Rank(), len(recs), done)
	}
	for _, rec := range recs[:done] {
		// Read (and checked) even when no layer above reads it: a
		// damaged part is found at the start, not at the import.
		lo, hi := ownRange(rec.Positions, c)
		values, err := b.parts.readRange(rec, lo, hi, true)
		if err != nil {
			return 0, err
		}
		if !b.readsOwn(rec.Seeds) {
			values = nil
		}
		b.keepOwn(values)
		b.movesPerPosition = float64(rec.InnerMoves) / float64(rec.Positions)
		b.storedBytes += rec.StoredBytes + rec.DistanceBytes
	}
	return int(done), nil
}

// partsStats fills a finished build's figures of what is on disk.
func (b *builder) partsStats(stats *BuildStats) error {
	recs, err := b.parts.layers()
	stats.DiskTop, stats.DiskPositions = -1, 0
	for _, rec := range recs {
		stats.DiskTop = rec.Seeds
		stats.DiskPositions += rec.Positions
	}
	stats.StoredBytes = b.storedBytes
	return err
}

// jsonIndent is a metadata file's bytes: indented JSON and a newline.
func jsonIndent(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	return append(data, '\n'), err
}

// mkdirSynced makes dir (and its parents) and syncs its parent, so that
// the files written in it survive a crash with it.
func mkdirSynced(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return syncDir(filepath.Dir(dir))
}
