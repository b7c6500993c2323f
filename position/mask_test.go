package position

import "testing"

func TestMasks(t *testing.T) {
	for x := 0; x < 1<<16; x++ {
		pits := make([]int, 8)
		var wantOcc, want2 uint32
		for i := range pits {
			pits[i] = (x >> (2 * i)) & 3
			if i >= 7 {
				pits[i] = 0
			}
			if pits[i] > 0 {
				wantOcc |= 1 << i
			}
			if pits[i] >= 2 {
				want2 |= 1 << i
			}
		}
		pits[x%7] = 200 + x%50
		wantOcc |= 1 << (x % 7)
		want2 |= 1 << (x % 7)
		row := PackRow(pits)
		if got := occupied(row); got != wantOcc {
			t.Fatalf("occupied(%x) = %b, want %b", row, got, wantOcc)
		}
		if got := atLeast2(row); got != want2 {
			t.Fatalf("atLeast2(%x) = %b, want %b", row, got, want2)
		}
	}
}
