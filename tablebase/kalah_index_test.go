package tablebase

import "testing"

// TestIndexKalahRowLengths: kalah boards have 1..6 pits a row; for every
// such row length the index numbers the boards of the small layers
// 0..Size(n)-1 one-to-one (rank(unrank(r)) == r, each board holding n
// seeds) and the cursor walks them in rank order.
func TestIndexKalahRowLengths(t *testing.T) {
	for pits := 1; pits <= 6; pits++ {
		ix := NewIndex(pits)
		for n := 0; n <= 6; n++ {
			if got, want := ix.Size(n), int64(len(boards(pits, n))); got != want {
				t.Fatalf("pits %d layer %d: Size %d, %d boards", pits, n, got, want)
			}
			c := ix.newCursor(n, 0)
			for r := int64(0); r < ix.Size(n); r++ {
				if r > 0 {
					c.next()
				}
				p := ix.Unrank(n, uint64(r))
				if p.Seeds() != n || ix.Rank(p) != uint64(r) || c.position() != p {
					t.Fatalf("pits %d layer %d rank %d: board %v (%d seeds) ranks %d, cursor %v",
						pits, n, r, p, p.Seeds(), ix.Rank(p), c.position())
				}
			}
		}
	}
}
