package tablebase

import (
	"github.com/mancala-solver/mancala/position"
)

// ValueCount is one bar of a value histogram.
type ValueCount struct {
	Value int   `json:"value"`
	Count int64 `json:"count"`
}

// LayerStats summarises one stored layer: outcomes for the side to move
// and how many positions have each value.
type LayerStats struct {
	Seeds       int          `json:"seeds"`
	Positions   int64        `json:"positions"`
	Wins        int64        `json:"wins"`   // value > 0
	Draws       int64        `json:"draws"`  // value == 0
	Losses      int64        `json:"losses"` // value < 0
	Histogram   []ValueCount `json:"histogram"`
	StoredBytes int64        `json:"stored_bytes"`
	InnerMoves  int64        `json:"inner_moves"` // moves that stay in the layer
	Method      string       `json:"method"`
	Seconds     float64      `json:"seconds"` // build time
	// The layer's checksums as its build recorded them (layer.json):
	// xxHash64 of the values as bytes and of the distances as
	// little-endian uint16s in rank order, the signature that compares two
	// builds of one variant (docs/tablebases.md); and its longest distance
	// in plies.
	Checksum         uint64 `json:"xxhash64"`
	DistanceChecksum uint64 `json:"distance_xxhash64"`
	MaxDistance      int    `json:"max_distance"`
}

// Stats reads every complete layer of v in dir and counts its values. A
// damaged layer (files, metadata or values' checksum) is a *DamageError.
func Stats(dir string, v *position.Variant) ([]LayerStats, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	s, infos, err := openReading(dir, v)
	if err != nil {
		return nil, err
	}
	defer s.close()
	var out []LayerStats
	for _, info := range complete(infos) {
		// Block by block: a layer of 3 G positions is not held at once,
		// so stats can run beside a build without taking its memory.
		var counts [256]int64
		err := s.scanLayer(info, func(block []int8) {
			for _, x := range block {
				counts[uint8(x)]++
			}
		})
		if err != nil {
			return out, err
		}
		out = append(out, summarise(info, &counts))
	}
	return out, nil
}

// summarise sums up a layer from its values' counts (counts[uint8(x)]:
// how many positions have value x).
func summarise(info LayerInfo, counts *[256]int64) LayerStats {
	st := LayerStats{Seeds: info.Seeds, Positions: info.Positions, StoredBytes: info.StoredBytes,
		InnerMoves: info.InnerMoves, Method: info.Method, Seconds: info.Seconds,
		Checksum: info.Checksum, DistanceChecksum: info.DistanceChecksum, MaxDistance: info.MaxDistance}
	for x := -128; x < 128; x++ {
		c := counts[uint8(int8(x))]
		if c == 0 {
			continue
		}
		st.Histogram = append(st.Histogram, ValueCount{Value: x, Count: c})
		switch {
		case x > 0:
			st.Wins += c
		case x < 0:
			st.Losses += c
		default:
			st.Draws += c
		}
	}
	return st
}
