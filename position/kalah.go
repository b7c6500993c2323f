package position

import (
	"fmt"
	"sync"
)

// Kalah(m,n) (Irving, Donkers and Uiterwijk, "Solving Kalah", ICGA Journal
// 23(3), 2000): m pits a row, n seeds in each at the start, and a store per
// player after that player's last pit. The stores are not on the packed
// board: the seeds a move banks in the mover's store, by sowing or by a
// capture, are its Captured, and the stores are the captures CAP1-CAP2 of
// the notation. A move whose last seed falls into the store keeps the
// mover: its Next has the same Side and unswapped rows. docs/kalah.md gives
// the rules in full.
const (
	// KalahName is the name of Kalah(6,4), the usual game; every other
	// size is named kalah-MxN.
	KalahName = "kalah"
	// KalahMaxPits and KalahMaxSeeds bound the sizes: Kalah(1..6, 1..6).
	KalahMaxPits  = 6
	KalahMaxSeeds = 6
)

var (
	kalahOnce  [KalahMaxPits][KalahMaxSeeds]sync.Once
	kalahSizes [KalahMaxPits][KalahMaxSeeds]*Variant
)

// Kalah returns Kalah(pits, seeds), or nil when a size is outside 1..6.
// Its tables are built on first use, so that the 36 sizes cost nothing
// until asked for.
func Kalah(pits, seeds int) *Variant {
	if pits < 1 || pits > KalahMaxPits || seeds < 1 || seeds > KalahMaxSeeds {
		return nil
	}
	kalahOnce[pits-1][seeds-1].Do(func() {
		kalahSizes[pits-1][seeds-1] = newKalah(pits, seeds).prepare()
	})
	return kalahSizes[pits-1][seeds-1]
}

// KalahVariants returns every kalah size, Kalah(1,1) to Kalah(6,6), pits
// first.
func KalahVariants() []*Variant {
	var all []*Variant
	for m := 1; m <= KalahMaxPits; m++ {
		for n := 1; n <= KalahMaxSeeds; n++ {
			all = append(all, Kalah(m, n))
		}
	}
	return all
}

// newKalah is the data of Kalah(m,n). Its ID, used in tablebase keys, is
// 100 + 10m + n (164 for kalah), clear of the other variants' 1..5.
func newKalah(m, n int) *Variant {
	name := fmt.Sprintf("kalah-%dx%d", m, n)
	if m == 6 && n == 4 {
		name = KalahName
	}
	return &Variant{Name: name, ID: uint8(100 + 10*m + n), Pits: m, StartSeeds: n, MinSow: 1,
		Sow: SowStore, Capture: CaptureOpposite, GrandSlam: GrandSlamAllowed,
		Feed: FeedNever, Pass: PassNever, End: EndOwnRows, EmptyRowEnds: true, EmptyCapture: true}
}

// lookupKalah finds a lower-case kalah name: "kalah" or "kalah-MxN" with
// single digits M and N in 1..6 ("kalah-6x4" is kalah).
func lookupKalah(name string) (*Variant, bool) {
	if name == KalahName {
		return Kalah(6, 4), true
	}
	var m, n int
	if len(name) != len("kalah-6x4") || name[:6] != "kalah-" || name[7] != 'x' {
		return nil, false
	}
	m, n = int(name[6]-'0'), int(name[8]-'0')
	v := Kalah(m, n)
	return v, v != nil
}

// storeRing is the ring index that stands for the mover's store in lap
// tables (the pits are 0..2*Pits-1).
func (v *Variant) storeRing() int { return 2 * v.Pits }

// captureOpposite: a last seed in an empty pit of the mover's row (it
// holds 1 now) takes itself and the opposite pit's seeds; with the
// opposite pit empty it takes itself alone when v.EmptyCapture (kalah, as
// Irving, Donkers and Uiterwijk play it) and nothing otherwise. The
// mover's pit i faces the opponent's pit Pits+1-i.
func (v *Variant) captureOpposite(rows *[2]uint64, last int) int {
	if last >= v.Pits || Pit(rows[0], last) != 1 {
		return 0
	}
	facing := v.Pits - 1 - last
	if Pit(rows[1], facing) == 0 && !v.EmptyCapture {
		return 0
	}
	return takePit(&rows[0], last) + takePit(&rows[1], facing)
}

// CanRepeat reports whether a position can recur in a game of v, so that
// the repetition rule (rules.md section 0) can apply. It is false for
// kalah: every move either banks seeds (sowing through the store, or a
// capture), which never leave the stores again, or keeps every seed in the
// mover's row and moves each sown seed nearer the store. So the seeds in
// the stores, then the sum over seeds in pits of their distance travelled
// along their row, rise strictly with each move, and no position comes
// back. In the other variants a lap can return the seeds where they were.
func (v *Variant) CanRepeat() bool { return v.Sow != SowStore }
