package tablebase

import (
	"math/rand/v2"
	"testing"
)

// TestHasZeroByte: the word test of seedRange agrees with looking at each
// byte, on words with zero bytes in every place and pattern and on random
// words of small bytes (exits are small numbers and their negations).
func TestHasZeroByte(t *testing.T) {
	bytewise := func(w uint64) bool {
		for i := 0; i < 8; i++ {
			if w>>(8*i)&0xff == 0 {
				return true
			}
		}
		return false
	}
	var words []uint64
	for mask := 0; mask < 256; mask++ { // which bytes are zero
		for _, fill := range []uint64{0x01, 0x80, 0xff, 0x7f} {
			w := uint64(0)
			for i := 0; i < 8; i++ {
				if mask&(1<<i) == 0 {
					w |= fill << (8 * i)
				}
			}
			words = append(words, w)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		w := uint64(0)
		for i := 0; i < 8; i++ {
			w |= uint64(uint8(int8(r.IntN(9)-4))) << (8 * i)
		}
		words = append(words, w, r.Uint64())
	}
	for _, w := range words {
		if got, want := hasZeroByte(w), bytewise(w); got != want {
			t.Fatalf("hasZeroByte(%016x) = %v, want %v", w, got, want)
		}
	}
}
