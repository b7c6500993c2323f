package position

import (
	"fmt"
	"sort"
	"strings"
)

// RulesVersion is the rules version of awari, oware, akon and the djenon
// games: it is bumped whenever one of their rules changes meaning.
// Tablebase keys and directories carry a variant's version
// (Variant.RulesVersion), so a database built under other rules is never
// read as if it were valid.
const RulesVersion = 1

// KalahRulesVersion is the rules version of every kalah size. Version 2
// (2026-11-30) took up Irving, Donkers and Uiterwijk's rules: a capture
// needs no seeds in the facing pit, and the game ends as soon as either
// row is empty.
const KalahRulesVersion = 2

// KalahStdRulesVersion is the rules version of every kalah size under the
// standard capture rule (kalah-std, kalah-std-MxN; KalahStandard). Version
// 1 (2026-12-01): a capture needs seeds in the facing pit, and the game
// ends as soon as either row is empty.
const KalahStdRulesVersion = 1

// OwnRowsRulesVersion is the rules version of oware-own (oware with a
// repetition giving each player their own row): its tablebase keys and
// directories stay apart from oware's.
const OwnRowsRulesVersion = 1

// RulesVersion returns v's rules version: KalahRulesVersion or
// KalahStdRulesVersion for kalah, OwnRowsRulesVersion for oware-own, else
// the package's RulesVersion.
func (v *Variant) RulesVersion() uint16 {
	switch rules, ok := v.KalahRuleSet(); {
	case ok && rules == KalahStandard:
		return KalahStdRulesVersion
	case ok:
		return KalahRulesVersion
	case v.Repetition == RepetitionOwnRows:
		return OwnRowsRulesVersion
	}
	return RulesVersion
}

// SowRule says which pits a lap of k seeds fills (rules.md sections 1-5).
type SowRule uint8

const (
	// SowSkipOrigin: one seed a pit from the pit after the origin; with a
	// full lap the origin is skipped (awari, oware; rules.md 1.1).
	SowSkipOrigin SowRule = iota
	// SowAkon: one lap of the ring including the origin, then only the
	// opponent's row (rules.md 3.1).
	SowAkon
	// SowRelay: one seed a pit from the next pit, nothing skipped; the lap
	// may relay (djenon-abe, rules.md 4.1-4.2).
	SowRelay
	// SowRelayOriginFirst: the first seed goes back into the lap's start
	// pit (djenon-aboure, rules.md 5.2).
	SowRelayOriginFirst
	// SowStore: one seed a pit from the next pit, through the mover's
	// store (after the mover's last pit) but never the opponent's; a last
	// seed in the store gives the mover another move (kalah, docs/kalah.md).
	SowStore
)

// CaptureRule says what the last seed of a move captures.
type CaptureRule uint8

const (
	// CaptureBothWays: 2 or 3 in the opponent's row, chain backward and
	// forward within that row (awari, rules.md 1.2).
	CaptureBothWays CaptureRule = iota
	// CaptureBackward: 2 or 3 in the opponent's row, chain backward only
	// (oware, rules.md 2.1).
	CaptureBackward
	// CaptureAkon: opponent's pit 1 gives up the last seed; 2, 3 or 4 in
	// pits 2..7 chain backward, never into pit 1 (rules.md 3.2-3.3).
	CaptureAkon
	// CaptureTwoFour: 2 or 4 anywhere, chain backward around the whole
	// ring (djenon games, rules.md 4.3).
	CaptureTwoFour
	// CaptureOpposite: a last seed in an empty pit of the mover's own row
	// takes itself and the seeds of the opponent's pit opposite, when that
	// pit holds seeds (kalah, docs/kalah.md).
	CaptureOpposite
)

// GrandSlamRule says what happens to a capture that would empty the
// opponent's row.
type GrandSlamRule uint8

const (
	// GrandSlamAllowed: captures as usual (the feeding rule may still
	// forbid the move).
	GrandSlamAllowed GrandSlamRule = iota
	// GrandSlamCapturesNothing: the move is played but captures nothing
	// (oware, rules.md 2.2).
	GrandSlamCapturesNothing
)

// FeedRule says when a move must leave the opponent's row non-empty.
type FeedRule uint8

const (
	// FeedAlways: every move must leave the opponent seeds; a player with
	// no such move has no legal move (awari, oware; rules.md 1.3).
	FeedAlways FeedRule = iota
	// FeedIfPossible: as FeedAlways, but when no move feeds, every move is
	// legal (akon, rules.md 3.4).
	FeedIfPossible
	// FeedWhenStarved: only when the opponent's row is empty must the move
	// feed it (djenon-abe, rules.md 4.5).
	FeedWhenStarved
	// FeedNever: no feeding obligation (djenon-aboure, rules.md 5.4).
	FeedNever
)

// PassRule says when a player passes instead of the game ending.
type PassRule uint8

const (
	// PassNever: a player without a legal move ends the game.
	PassNever PassRule = iota
	// PassWhenEmptyAndFed: a player with no seeds passes when the opponent
	// has a move that feeds them (djenon-abe, rules.md 4.5).
	PassWhenEmptyAndFed
	// PassWhenStuck: a player with no legal move passes while the opponent
	// has one (djenon-aboure, rules.md 5.4).
	PassWhenStuck
)

// EndRule says who takes the seeds left on the board when the game ends
// (not by repetition, which gives them to nobody).
type EndRule uint8

const (
	// EndOwnRows: each player takes the seeds in their own row.
	EndOwnRows EndRule = iota
	// EndOtherTakesAll: the game ended because the player to move has no
	// seeds; the other player takes every seed (akon, rules.md 3.5).
	EndOtherTakesAll
	// EndOwnRowsWithGift: own rows, but when only one row holds seeds its
	// owner gives one to the opponent (djenon-abe, rules.md 4.6).
	EndOwnRowsWithGift
)

// RepetitionRule says who takes the board's seeds when a game ends because
// a position occurred again (rules.md section 0).
type RepetitionRule uint8

const (
	// RepetitionNobody: the board's seeds count for nobody (rules.md
	// section 0), so a repetition is worth 0.
	RepetitionNobody RepetitionRule = iota
	// RepetitionOwnRows: each player takes the seeds on their own row, as
	// Aalina's referee (samurai's tournaments, the Aualé GUI) scores a
	// repeated oware position.
	RepetitionOwnRows
)

// Variant is one game's rules as data. The engine reads only these fields;
// adding a variant means adding a table entry (and, at most, a small rule
// function for a new kind of lap or capture).
type Variant struct {
	Name       string // lower-case name used in position strings
	ID         uint8  // stable number used in tablebase keys
	Pits       int    // pits per row: 6, 7 for akon, 1..6 for kalah
	StartSeeds int    // seeds per pit at the start
	Clockwise  bool   // sowing direction, for drawing only (rules.md 0)
	MinSow     int    // fewest seeds an origin pit must hold to be played
	Sow        SowRule
	Capture    CaptureRule
	GrandSlam  GrandSlamRule
	Feed       FeedRule
	Pass       PassRule
	End        EndRule
	// OneEachEnds: the game ends as soon as each row holds exactly one
	// seed (djenon-abe, rules.md 4.6).
	OneEachEnds bool
	// EmptyRowEnds: the game ends as soon as either row is empty, not
	// only when the player to move has no seeds (kalah, docs/kalah.md).
	EmptyRowEnds bool
	// EmptyCapture: a kalah capture happens even when the facing pit is
	// empty (the last seed alone is banked): KalahEmptyCapture, not
	// KalahStandard.
	EmptyCapture bool
	// Repetition: who takes the board when a position recurs.
	Repetition RepetitionRule
	// StopAt: playing a game out ends it when a player's captures reach
	// this many (0: never). Values ignore it (rules.md 1.4 and 6).
	StopAt int

	laps       []lapDelta         // laps[start*stride+k]: a lap of k seeds from ring pit start
	stride     int                // Total()+1, the row length of laps
	ringWord   [2 * MaxPits]uint8 // which packed row holds ring pit i (0 own, 1 opp)
	ringShift  [2 * MaxPits]uint8 // the bit offset of ring pit i in its row
	plainPerft bool               // perftPlain counts this variant (plainPerftOK)
	twoThree   bool               // laps skip the origin and captures take 2 or 3: sowTwoThree sows
}

// Total returns the seeds in the variant's start position (48, 70, or
// 2*Pits*StartSeeds for kalah).
func (v *Variant) Total() int { return 2 * v.Pits * v.StartSeeds }

// Start returns the start position: every pit holds StartSeeds, player 1 to
// move.
func (v *Variant) Start() Position {
	row := uint64(v.StartSeeds) * (lsb >> (8 * uint(8-v.Pits)))
	return Position{Own: row, Opp: row}
}

var variants = []*Variant{
	{Name: "awari", ID: 1, Pits: 6, StartSeeds: 4, MinSow: 1,
		Sow: SowSkipOrigin, Capture: CaptureBothWays, GrandSlam: GrandSlamAllowed,
		Feed: FeedAlways, Pass: PassNever, End: EndOwnRows, StopAt: 25},
	{Name: "oware", ID: 2, Pits: 6, StartSeeds: 4, MinSow: 1,
		Sow: SowSkipOrigin, Capture: CaptureBackward, GrandSlam: GrandSlamCapturesNothing,
		Feed: FeedAlways, Pass: PassNever, End: EndOwnRows, StopAt: 25},
	{Name: "akon", ID: 3, Pits: 7, StartSeeds: 5, MinSow: 1, Clockwise: true,
		Sow: SowAkon, Capture: CaptureAkon, GrandSlam: GrandSlamAllowed,
		Feed: FeedIfPossible, Pass: PassNever, End: EndOtherTakesAll},
	{Name: "djenon-abe", ID: 4, Pits: 6, StartSeeds: 4, MinSow: 1,
		Sow: SowRelay, Capture: CaptureTwoFour, GrandSlam: GrandSlamAllowed,
		Feed: FeedWhenStarved, Pass: PassWhenEmptyAndFed, End: EndOwnRowsWithGift,
		OneEachEnds: true},
	{Name: "djenon-aboure", ID: 5, Pits: 6, StartSeeds: 4, MinSow: 2,
		Sow: SowRelayOriginFirst, Capture: CaptureTwoFour, GrandSlam: GrandSlamAllowed,
		Feed: FeedNever, Pass: PassWhenStuck, End: EndOwnRows},
}

// ruleVariants are rules options of the games above, under names of
// their own: oware-own is oware with Aalina's repetition rule
// (RepetitionOwnRows). They are not in Variants, the games of rules.md.
var ruleVariants = []*Variant{
	{Name: "oware-own", ID: 6, Pits: 6, StartSeeds: 4, MinSow: 1,
		Sow: SowSkipOrigin, Capture: CaptureBackward, GrandSlam: GrandSlamCapturesNothing,
		Feed: FeedAlways, Pass: PassNever, End: EndOwnRows, Repetition: RepetitionOwnRows, StopAt: 25},
}

// NeutralTwin is the game with v's rules except that a repetition gives
// the board to nobody (RepetitionNobody): oware for oware-own, v itself
// when v is such a game, nil when no listed game is. A tablebase holds
// values only under that rule (retrograde analysis values endless play at
// 0), so the twin's tablebase is what a search of v may use as an
// estimate, never as a proof.
func (v *Variant) NeutralTwin() *Variant {
	if v.Repetition == RepetitionNobody {
		return v
	}
	for _, w := range variants {
		if w.Repetition == RepetitionNobody && w.rules() == v.rules() {
			return w
		}
	}
	return nil
}

// variantRules are a Variant's rule fields but its name, ID and
// repetition rule, comparable with ==.
type variantRules struct {
	pits, startSeeds, minSow     int
	sow                          SowRule
	capture                      CaptureRule
	grandSlam                    GrandSlamRule
	feed                         FeedRule
	pass                         PassRule
	end                          EndRule
	oneEach, emptyRow, emptyCapt bool
	stopAt                       int
}

func (v *Variant) rules() variantRules {
	return variantRules{v.Pits, v.StartSeeds, v.MinSow, v.Sow, v.Capture, v.GrandSlam, v.Feed, v.Pass, v.End,
		v.OneEachEnds, v.EmptyRowEnds, v.EmptyCapture, v.StopAt}
}

func init() {
	for _, v := range append(variants, ruleVariants...) {
		v.prepare()
	}
}

// prepare fills the variant's precomputed tables.
func (v *Variant) prepare() *Variant {
	v.laps, v.stride = buildLapTable(v), v.Total()+1
	v.plainPerft = plainPerftOK(v)
	v.twoThree = v.Sow == SowSkipOrigin && (v.Capture == CaptureBothWays || v.Capture == CaptureBackward)
	v.twoThree = v.Sow == SowSkipOrigin && (v.Capture == CaptureBothWays || v.Capture == CaptureBackward)
	for i := 0; i < 2*v.Pits; i++ {
		v.ringWord[i], v.ringShift[i] = uint8(i/v.Pits), uint8(8*(i%v.Pits))
	}
	return v
}

// Lookup returns the variant with the given name (case-insensitive): one of
// Names, or a kalah size `kalah-MxN` or `kalah-std-MxN`. The error lists
// the known names.
func Lookup(name string) (*Variant, error) {
	lower := strings.ToLower(name)
	for _, v := range append(variants, ruleVariants...) {
		if v.Name == lower {
			return v, nil
		}
	}
	if v, ok := lookupKalah(lower); ok {
		return v, nil
	}
	return nil, fmt.Errorf("%q is not a variant (known: %s; kalah-MxN and kalah-std-MxN for M pits and N seeds, 1..6)",
		name, strings.Join(Names(), ", "))
}

// Variants returns the five games of rules.md sections 1-5, in a fixed
// order. The kalah family is listed by KalahVariants.
func Variants() []*Variant { return append([]*Variant(nil), variants...) }

// Names returns the names of Variants, of the rules options (oware-own),
// "kalah" and "kalah-std" (Kalah(6,4) under each capture rule), sorted.
// KalahVariants has every kalah size.
func Names() []string {
	var names []string
	for _, v := range append(variants, ruleVariants...) {
		names = append(names, v.Name)
	}
	names = append(names, KalahName, KalahStdName)
	sort.Strings(names)
	return names
}
