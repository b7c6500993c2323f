package position

import (
	"fmt"
	"strings"
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
//
// Every size is played under two rule sets (KalahRules) that differ only
// in a capture from an empty facing pit: `kalah` and `kalah-MxN` follow
// Irving, Donkers and Uiterwijk (the capture happens and banks the last
// seed alone), `kalah-std` and `kalah-std-MxN` the rule of most sets and
// of Rawlings' 2015 analysis (nothing is captured, the seed stays).
const (
	// KalahName is the name of Kalah(6,4) under the empty-capture rules;
	// every other size is named kalah-MxN.
	KalahName = "kalah"
	// KalahStdName is the name of Kalah(6,4) under the standard capture
	// rule; every other size is named kalah-std-MxN.
	KalahStdName = "kalah-std"
	// KalahMaxPits and KalahMaxSeeds bound the sizes: Kalah(1..6, 1..6).
	KalahMaxPits  = 6
	KalahMaxSeeds = 6
)

// KalahRules is one of kalah's two rule sets.
type KalahRules uint8

const (
	// KalahEmptyCapture: a last seed in an empty own pit captures even
	// when the facing pit is empty, banking itself alone (Irving, Donkers
	// and Uiterwijk 2000); named kalah, kalah-MxN.
	KalahEmptyCapture KalahRules = iota
	// KalahStandard: a last seed in an empty own pit captures only when
	// the facing pit holds seeds; otherwise it stays (the usual commercial
	// rule, Rawlings 2015); named kalah-std, kalah-std-MxN.
	KalahStandard
	kalahRuleSets
)

// kalahNames are the names of Kalah(6,4) under each rule set, which are
// also the prefixes of the other sizes' names.
var kalahNames = [kalahRuleSets]string{KalahEmptyCapture: KalahName, KalahStandard: KalahStdName}

var (
	kalahOnce  [kalahRuleSets][KalahMaxPits][KalahMaxSeeds]sync.Once
	kalahSizes [kalahRuleSets][KalahMaxPits][KalahMaxSeeds]*Variant
)

// Kalah returns Kalah(pits, seeds) under the empty-capture rules of
// Irving, Donkers and Uiterwijk, or nil when a size is outside 1..6.
func Kalah(pits, seeds int) *Variant { return KalahOf(KalahEmptyCapture, pits, seeds) }

// KalahStd returns Kalah(pits, seeds) under the standard capture rule, or
// nil when a size is outside 1..6.
func KalahStd(pits, seeds int) *Variant { return KalahOf(KalahStandard, pits, seeds) }

// KalahOf returns Kalah(pits, seeds) under the given rule set, or nil when
// a size is outside 1..6 or the rule set unknown. Its tables are built on
// first use, so that the 72 variants cost nothing until asked for.
func KalahOf(rules KalahRules, pits, seeds int) *Variant {
	if rules >= kalahRuleSets || pits < 1 || pits > KalahMaxPits || seeds < 1 || seeds > KalahMaxSeeds {
		return nil
	}
	kalahOnce[rules][pits-1][seeds-1].Do(func() {
		kalahSizes[rules][pits-1][seeds-1] = newKalah(rules, pits, seeds).prepare()
	})
	return kalahSizes[rules][pits-1][seeds-1]
}

// KalahRuleSet returns the rule set of a kalah variant (ok false for any
// other variant).
func (v *Variant) KalahRuleSet() (rules KalahRules, ok bool) {
	if v.Sow != SowStore {
		return 0, false
	}
	if v.EmptyCapture {
		return KalahEmptyCapture, true
	}
	return KalahStandard, true
}

// KalahVariants returns every kalah variant: Kalah(1,1) to Kalah(6,6)
// under the empty-capture rules, pits first, then the same sizes under
// the standard rule.
func KalahVariants() []*Variant {
	var all []*Variant
	for rules := KalahRules(0); rules < kalahRuleSets; rules++ {
		for m := 1; m <= KalahMaxPits; m++ {
			for n := 1; n <= KalahMaxSeeds; n++ {
				all = append(all, KalahOf(rules, m, n))
			}
		}
	}
	return all
}

// newKalah is the data of Kalah(m,n) under a rule set; the two differ in
// EmptyCapture alone. Its ID, used in tablebase keys and hash salts, is
// 100 + 10m + n (164 for kalah) under the empty-capture rules and
// 170 + 6(m-1) + (n-1) (170..205; 203 for kalah-std) under the standard
// one, clear of each other and of the other variants' 1..5.
func newKalah(rules KalahRules, m, n int) *Variant {
	name := fmt.Sprintf("%s-%dx%d", kalahNames[rules], m, n)
	if m == 6 && n == 4 {
		name = kalahNames[rules]
	}
	id := uint8(100 + 10*m + n)
	if rules == KalahStandard {
		id = uint8(170 + 6*(m-1) + n - 1)
	}
	return &Variant{Name: name, ID: id, Pits: m, StartSeeds: n, MinSow: 1,
		Sow: SowStore, Capture: CaptureOpposite, GrandSlam: GrandSlamAllowed,
		Feed: FeedNever, Pass: PassNever, End: EndOwnRows, EmptyRowEnds: true,
		EmptyCapture: rules == KalahEmptyCapture}
}

// lookupKalah finds a lower-case kalah name: "kalah" or "kalah-MxN", or
// "kalah-std" or "kalah-std-MxN", with single digits M and N in 1..6
// ("kalah-6x4" is kalah, "kalah-std-6x4" kalah-std).
func lookupKalah(name string) (*Variant, bool) {
	for _, rules := range []KalahRules{KalahStandard, KalahEmptyCapture} { // "kalah-std" before its prefix "kalah"
		if name == kalahNames[rules] {
			return KalahOf(rules, 6, 4), true
		}
		size, ok := strings.CutPrefix(name, kalahNames[rules]+"-")
		if ok && len(size) == 3 && size[1] == 'x' {
			v := KalahOf(rules, int(size[0])-'0', int(size[2])-'0')
			return v, v != nil
		}
	}
	return nil, false
}

// storeRing is the ring index that stands for the mover's store in lap
// tables (the pits are 0..2*Pits-1).
func (v *Variant) storeRing() int { return 2 * v.Pits }

// captureOpposite: a last seed in an empty pit of the mover's row (it
// holds 1 now: landsEmpty, which the caller has checked) takes itself and
// the opposite pit's seeds; with the opposite pit empty it takes itself
// alone when v.EmptyCapture (kalah, as Irving, Donkers and Uiterwijk play
// it) and nothing otherwise. The mover's pit i faces the opponent's pit
// Pits+1-i.
func (v *Variant) captureOpposite(rows *[2]uint64, last int) int {
	facing := v.Facing(last)
	if !v.CapturesFacing(Pit(rows[1], facing)) {
		return 0
	}
	return takePit(&rows[0], last) + takePit(&rows[1], facing)
}

// sowStore is sow for kalah (SowStore): one lap by the lap table, which
// banks the seeds sown into the store and says where the last seed fell,
// then captureOpposite when it fell into an empty pit of the mover's row.
// It is the search's hot path, so the common move, with no capture, is
// small enough to be inlined into storeMoves.
func (v *Variant) sowStore(own, opp uint64, o int) sown {
	shift := 8 * uint(o) & 63
	d := &v.laps[o*v.stride+int(own>>shift&0xff)]
	s := sown{own: own&^(0xff<<shift) + d.own, opp: opp + d.opp, captured: int(d.banked)}
	last := int(d.last)
	s.again = last == v.storeRing()
	if v.landsEmpty(s.own, last) {
		rows := [2]uint64{s.own, s.opp}
		s.captured += v.captureOpposite(&rows, last)
		s.own, s.opp = rows[0], rows[1]
	}
	return s
}

// storeMoves is Moves for kalah (SowStore): with no feeding, passes or
// relays, every pit with seeds is a move, and the game is over as soon as
// either row is empty (EmptyRowEnds; an empty own row has no move).
func (v *Variant) storeMoves(p Position, out *[MaxPits]Move) int {
	if p.Opp == 0 {
		return 0
	}
	n := 0
	for m := occupied(p.Own); m != 0; m &= m - 1 {
		o := trailingPit(m)
		s := v.sowStore(p.Own, p.Opp, o)
		out[n] = Move{Pit: int8(o + 1), Captured: int8(s.captured), Next: s.next(p.Side)}
		n++
	}
	return n
}

// landsEmpty reports whether a last seed in ring pit last fell into an
// empty pit of the mover's row (own is the row after sowing: the pit holds
// that seed alone), the condition for kalah's capture.
func (v *Variant) landsEmpty(own uint64, last int) bool { return last < v.Pits && Pit(own, last) == 1 }

// Facing returns the opponent's pit (0-based) that faces the mover's pit
// (0-based): the mover's pit i faces the opponent's pit Pits+1-i, 1-based.
func (v *Variant) Facing(pit int) int { return v.Pits - 1 - pit }

// CapturesFacing reports whether kalah's capture (a last seed in an empty
// own pit) happens when the facing pit holds facing seeds: always under
// EmptyCapture (the seed alone is banked), else only when facing > 0.
func (v *Variant) CapturesFacing(facing int) bool { return facing > 0 || v.EmptyCapture }

// BanksNext reports whether the player to move in p is sure to bank at
// least one seed with the next move, whatever the opponent does: true in
// kalah under empty captures (EmptyCapture, Irving, Donkers and
// Uiterwijk's rules) when both rows hold seeds, else false. So p's value
// (rules.md section 6) is then at least 1-(S-1) = 2-S with S seeds on the
// board, since every seed ends in a store: Irving's solver prunes with
// this bound.
//
// Proof: let j be the mover's pit nearest the store that holds seeds, s of
// them, d = Pits-j the places from j to the store. If s >= d, the sowing
// drops a seed in the store. If s < d, the last seed falls in pit j+s of
// the mover's row, empty before (every pit after j was), so it captures:
// itself alone at least, under empty captures. A banked seed stays banked,
// and the end of the game only adds the seeds left to their owners'
// stores. (Under the standard rule the last seed can stay unbanked.)
func (v *Variant) BanksNext(p Position) bool {
	return v.Sow == SowStore && v.EmptyCapture && p.Own != 0 && p.Opp != 0
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
