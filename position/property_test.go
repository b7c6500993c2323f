package position

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mancala-solver/mancala/internal/testsize"
)

// TestMain gives the property tests 100 cases each (rapid's default), and
// 20,000 with MANCALA_LONG=1 unless -rapid.checks is given.
func TestMain(m *testing.M) {
	flag.Parse()
	if testsize.Long() && !flagGiven("rapid.checks") {
		_ = flag.Set("rapid.checks", "20000")
	}
	os.Exit(m.Run())
}

// flagGiven reports whether the named flag was set on the command line.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// drawReachable plays a rapid-drawn number of rapid-drawn legal moves from
// the start of a rapid-drawn variant and returns the position reached.
func drawReachable(t *rapid.T) (*Variant, Position) {
	names := append(Names(), "kalah-1x1", "kalah-3x2", "kalah-6x6")
	v, _ := Lookup(rapid.SampledFrom(names).Draw(t, "variant"))
	p := v.Start()
	plies := rapid.IntRange(0, 200).Draw(t, "plies")
	var buf [MaxPits]Move
	for i := 0; i < plies; i++ {
		n := v.Moves(p, &buf)
		if n == 0 {
			break
		}
		p = buf[rapid.IntRange(0, n-1).Draw(t, "move")].Next
	}
	return v, p
}

// Seeds are conserved: the board after a move plus what it captured is the
// board before (rules.md section 0), and a pass changes nothing but the
// side to move.
func TestSeedsConserved(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		var buf [MaxPits]Move
		n := v.Moves(p, &buf)
		for _, m := range buf[:n] {
			if got := m.Next.Seeds() + int(m.Captured); got != p.Seeds() {
				t.Fatalf("%s move %d: %d seeds after + captured, %d before", Format(v, p), m.Pit, got, p.Seeds())
			}
			if m.Next.Side == p.Side && (v.Sow != SowStore || m.Captured < 1) {
				// Only kalah's last seed in the store, which banks it, keeps the mover.
				t.Fatalf("%s move %d: the same side moves again", Format(v, p), m.Pit)
			}
			if m.IsPass() && (m.Next.Own != p.Opp || m.Next.Opp != p.Own) {
				t.Fatalf("%s: a pass changed the board", Format(v, p))
			}
		}
	})
}

// An illegal move leaves a game exactly as it was, and Play never changes
// the position it is given.
func TestIllegalMoveChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		g := NewGame(Setup{Variant: v, Position: p, CapturesKnown: false})
		before := *g
		pit := rapid.IntRange(-1, v.Pits+1).Draw(t, "pit")
		if _, err := g.Play(pit); err != nil {
			if g.Position != before.Position || g.Captured != before.Captured || g.Over != before.Over {
				t.Fatalf("illegal move %d changed the game: %+v -> %+v", pit, before.Setup, g.Setup)
			}
			if !strings.HasPrefix(err.Error(), "move ") {
				t.Fatalf("error %q does not name the move", err)
			}
		}
	})
}

// Every non-pass move that Moves lists is what Play computes from the same
// pit, and MakeMove accepts exactly the listed pits.
func TestMovesAgreeWithPlayAndMakeMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		var buf [MaxPits]Move
		n := v.Moves(p, &buf)
		legal := map[int]Move{}
		for _, m := range buf[:n] {
			legal[int(m.Pit)] = m
			if m.IsPass() {
				continue
			}
			if next, c := v.Play(p, int(m.Pit)); next != m.Next || c != int(m.Captured) {
				t.Fatalf("%s pit %d: Play gives %v/%d, Moves %v/%d", Format(v, p), m.Pit, next, c, m.Next, m.Captured)
			}
		}
		for pit := 0; pit <= v.Pits; pit++ {
			m, err := v.MakeMove(p, pit)
			want, ok := legal[pit]
			if ok != (err == nil) || (ok && m != want) {
				t.Fatalf("%s pit %d: MakeMove %v, %v; listed %v", Format(v, p), pit, m, err, ok)
			}
		}
	})
}

// format(parse(s)) == s for normalised strings, over reachable positions.
func TestNotationRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		s := Format(v, p)
		if rapid.Bool().Draw(t, "with captures") {
			c1 := rapid.IntRange(0, v.Total()-p.Seeds()).Draw(t, "c1")
			s += ":" + strconv.Itoa(c1) + "-" + strconv.Itoa(v.Total()-p.Seeds()-c1)
		}
		st, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if st.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, st.String())
		}
		if strings.ToUpper(s) != s {
			if st2, err := Parse(strings.ToUpper(s[:1]) + s[1:]); err != nil || st2 != st {
				t.Fatalf("variant names must be case-insensitive: %q", s)
			}
		}
	})
}

// FuzzParse: the parser never panics, an error names a part of the input,
// and whatever parses formats back to a string that parses to the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"awari", "AKON", "awari:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0",
		"akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1", "djenon-aboure:0,0,3,1,0,2/1,0,0,0,0,2:2",
		"awari:4x,4,4,4,4,4/4,4,4,4,4,4", "oware:1,2/3", "awari:::", "akon:0,0,0,0,0,0,0/0,0,0,0,0,0,0:2:30-40",
		"kalah-4x3", "kalah-6x4:0,0,0,0,0,1/0,0,0,0,0,0:2:23-24", "kalah-7x1", "kalah-6x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("Parse(%q): empty error", s)
			}
			return
		}
		if st.Position.Seeds() > st.Variant.Total() {
			t.Fatalf("Parse(%q): %d seeds on the board", s, st.Position.Seeds())
		}
		again, err := Parse(st.String())
		if err != nil || again != st {
			t.Fatalf("Parse(%q) = %v, but its String %q parses to %v, %v", s, st, st.String(), again, err)
		}
	})
}

// CountMoves agrees with the length of Moves.
func TestCountMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		var buf [MaxPits]Move
		if got, want := v.CountMoves(p), v.Moves(p, &buf); got != want {
			t.Fatalf("%s: CountMoves %d, Moves %d", Format(v, p), got, want)
		}
	})
}

// A variant that cannot repeat (kalah, Variant.CanRepeat) has the measure
// its doc gives: a move banks seeds, or it moves seeds along their row
// towards the store, so the sum over pits of seeds times the pit's place
// in its row (0 first, Pits-1 next to the store) rises.
func TestNoRepetitionMeasureRises(t *testing.T) {
	travelled := func(v *Variant, p Position) int {
		sum := 0
		for i := 0; i < v.Pits; i++ {
			sum += i * (Pit(p.Own, i) + Pit(p.Opp, i))
		}
		return sum
	}
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		if v.CanRepeat() {
			if v.Sow == SowStore {
				t.Fatalf("%s has stores but says positions can repeat", v.Name)
			}
			return
		}
		var buf [MaxPits]Move
		n := v.Moves(p, &buf)
		for _, m := range buf[:n] {
			if m.Captured == 0 && travelled(v, m.Next) <= travelled(v, p) {
				t.Fatalf("%s move %d banks nothing and moves no seed forward", Format(v, p), m.Pit)
			}
		}
	})
}

// BanksNext is a promise about the next move: where it says the mover is
// sure to bank a seed, some legal move banks at least one (kalah under
// empty captures). Under the standard rule it never promises.
func TestBanksNextHasABankingMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, p := drawReachable(t)
		if !v.BanksNext(p) {
			if v.Sow == SowStore && v.EmptyCapture && p.Own != 0 && p.Opp != 0 {
				t.Fatalf("%s: both rows hold seeds but BanksNext is false", Format(v, p))
			}
			return
		}
		if v.Sow != SowStore || !v.EmptyCapture {
			t.Fatalf("%s (%s): BanksNext outside kalah's empty captures", Format(v, p), v.Name)
		}
		var buf [MaxPits]Move
		best := 0
		for _, m := range buf[:v.Moves(p, &buf)] {
			best = max(best, int(m.Captured))
		}
		if best < 1 {
			t.Fatalf("%s: BanksNext, but no move banks a seed", Format(v, p))
		}
	})
}
