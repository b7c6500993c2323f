package tablebase

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// TestPackBlock: every value of -64..63 with every distance of 0..511
// packs and unpacks to itself; a distance of 512 or a value of 64 or -65
// does not pack.
func TestPackBlock(t *testing.T) {
	var values []int8
	var dist []uint16
	for v := -64; v <= 63; v++ {
		for d := 0; d <= 511; d++ {
			values, dist = append(values, int8(v)), append(dist, uint16(d))
		}
	}
	packed := make([]uint16, len(values))
	if !packBlock(packed, values, dist) {
		t.Fatal("values -64..63 with distances 0..511 do not pack")
	}
	for i, w := range packed {
		if unpackValue(w) != values[i] || w&packDistMax != dist[i] {
			t.Fatalf("(%d, %d) unpacks to (%d, %d)", values[i], dist[i], unpackValue(w), w&packDistMax)
		}
	}
	for _, tc := range []struct {
		v int8
		d uint16
	}{{0, 512}, {64, 0}, {-65, 3}, {-1, 1 << 15}} {
		if packBlock(make([]uint16, 1), []int8{tc.v}, []uint16{tc.d}) {
			t.Errorf("(%d, %d) packs", tc.v, tc.d)
		}
	}
}

// rewriteDistance replaces the stored distance of rank r of layer n with
// edit applied to it, re-encoded, as a build that wrote a wrong distance
// would have stored it.
func rewriteDistance(t *testing.T, dir string, v *position.Variant, n int, r int64, edit func(uint16) uint16) {
	t.Helper()
	s, err := openStore(dir, v, false)
	if err != nil {
		t.Fatal(err)
	}
	infos, _ := s.layers()
	dist, err := s.loadDistances(infos[n])
	if err != nil {
		t.Fatal(err)
	}
	b := int(r / BlockSize)
	blk := dist[int64(b)*BlockSize : min(int64(b+1)*BlockSize, int64(len(dist)))]
	blk[r%BlockSize] = edit(blk[r%BlockSize])
	data := s.codec.encodeDistances(blk)
	s.close()
	setKey(t, dir, v, n, distanceKey(v, n, b), data)
}

// TestVerifyCorruptedDistance: one stored distance changed in a layer is
// named by verify, packed or not, and one too long to pack (600 plies) is
// caught by the unpacked reads verify then falls back to; a changed
// value is caught either way too (TestVerifyCorruptedBlock packed).
func TestVerifyCorruptedDistance(t *testing.T) {
	v := lookup(t, "awari")
	ix := NewIndex(v.Pits)
	const n, rank = 8, BlockSize + 1234 // layer 8: 75582 positions, two blocks
	distOf := func(dir string) uint16 {
		s, err := openStore(dir, v, false)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		infos, _ := s.layers()
		dist, err := s.loadDistances(infos[n])
		if err != nil {
			t.Fatal(err)
		}
		return dist[rank]
	}
	stored := distOf(refBuild(t, v, n, MethodAuto))
	for _, tc := range []struct {
		what string
		pack bool
		edit func(uint16) uint16
	}{
		{"one more ply, packed", true, func(d uint16) uint16 { return d + 1 }},
		{"one more ply, unpacked", false, func(d uint16) uint16 { return d + 1 }},
		{"600 plies, too long to pack", true, func(uint16) uint16 { return 600 }},
	} {
		t.Run(tc.what, func(t *testing.T) {
			dir := refCopy(t, v, n, MethodAuto)
			rewriteDistance(t, dir, v, n, rank, tc.edit)
			defer func(was bool) { packVerify = was }(packVerify)
			packVerify = tc.pack
			checks, err := Verify(context.Background(), dir, v, VerifyOptions{Threads: 2})
			if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrInconsistent) {
				t.Fatalf("Verify error %v, want a failure", err)
			}
			c := checks[n]
			bad := position.Format(v, ix.Unrank(n, rank))
			if c.Mismatches != 1 || !strings.Contains(c.Examples[0], bad) || !strings.Contains(c.Examples[0], "distance") {
				t.Errorf("layer %d: %d mismatches %q, want one naming the distance of %s (stored %d)", n, c.Mismatches, c.Examples, bad, stored)
			}
			if !strings.Contains(c.Unreadable, "distance checksum") {
				t.Errorf("layer %d: %q, want the distance checksum's failure", n, c.Unreadable)
			}
			for m, c := range checks[:n] {
				if !c.OK() {
					t.Errorf("layer %d fails: %+v", m, c)
				}
			}
		})
	}
}

// TestVerifyCorruptedValueUnpacked is TestVerifyCorruptedBlock with the
// distances read apart from the values.
func TestVerifyCorruptedValueUnpacked(t *testing.T) {
	defer func(was bool) { packVerify = was }(packVerify)
	packVerify = false
	TestVerifyCorruptedBlock(t)
}
