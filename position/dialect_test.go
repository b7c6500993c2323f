package position

import (
	"strings"
	"testing"
)

func TestParseFEN(t *testing.T) {
	v, _ := Lookup("oware-own")
	s, err := ParseFEN(v, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
	if err != nil || s.Position != v.Start() || !s.CapturesKnown {
		t.Errorf("start: %v %v", s, err)
	}
	s, err = ParseFEN(v, "0-0-0-0-0-2-0-0-0-0-0-1-22-23-N")
	if err != nil || s.String() != "oware-own:0,0,0,0,0,2/0,0,0,0,0,1:2:22-23" {
		t.Errorf("North to move: %v %v", s, err)
	}
	if got := FormatFEN(s); got != "0-0-0-0-0-2-0-0-0-0-0-1-22-23-N" {
		t.Errorf("round trip: %s", got)
	}
	for fen, want := range map[string]string{
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0":    "has 14 fields, want 15",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-X":  `side "X", want S or N`,
		"4-4-4-4-4-4-4-4-4-4-4-x-0-0-S":  `field 12, "x", is not a seed count`,
		"4-4-4-4-4-4-4-4-4-4-4-4-1-0-S":  "49",
		"4-4-4-4-4-4-4-4-4-4-4--4-0-0-S": "has 16 fields",
	} {
		if _, err := ParseFEN(v, fen); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", fen, err, want)
		}
	}
	akon, _ := Lookup("akon")
	if _, err := ParseFEN(akon, "5-5-5-5-5-5-5-5-5-5-5-5-5-5-0-0-S"); err == nil || !strings.Contains(err.Error(), "akon has 7 pits a row") {
		t.Errorf("akon: %v", err)
	}
}

// Parse reads the dialect's fen on its own (as DialectVariant) and after a
// variant, and writing a position in the dialect and reading it back gives
// the same position.
func TestParseReadsFEN(t *testing.T) {
	for in, want := range map[string]string{
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S":         "oware-own:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0",
		" 0-6-0-7-6-5-5-0-6-5-5-1-0-2-S ":       "oware-own:0,6,0,7,6,5/5,0,6,5,5,1:1:0-2",
		"oware:0-0-0-0-0-2-0-0-0-0-0-1-22-23-N": "oware:0,0,0,0,0,2/0,0,0,0,0,1:2:22-23",
		"kalah:0-0-0-0-0-1-0-0-0-0-0-0-30-17-S": "kalah:0,0,0,0,0,1/0,0,0,0,0,0:1:30-17",
	} {
		s, err := Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, s, err, want)
		}
	}
	for _, in := range []string{"awari:1,0,0,3,0,9/0,2,0,0,1,0:2:20-12", "oware-own", "djenon-abe:0,0,0,0,0,2/1,0,0,0,0,0:1:22-23"} {
		s, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(s.Variant.Name + ":" + FormatFEN(s))
		if err != nil || back != s {
			t.Errorf("%s -> %s -> %v, %v", in, FormatFEN(s), back, err)
		}
	}
	for in, want := range map[string]string{
		"4-4-4-4-4-4-4-4-4-4-4-4-0-S":  "has 14 fields, want 15",
		"awari:4-4-4-4-4-4-4-4-4-4-4-": "has 12 fields",
		"akon:4-4":                     "akon has 7 pits a row",
		"4,4,4":                        `"4,4,4" is not a variant`,
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want an error with %q", in, err, want)
		}
	}
}

// playWords replays words (SplitMoves of list) from s with ParseMoveAt and
// returns the setup reached, or the first error.
func playWords(t *testing.T, s Setup, list string) (Setup, error) {
	t.Helper()
	words, err := SplitMoves([]string{list})
	if err != nil {
		return Setup{}, err
	}
	g := NewGame(s)
	for _, w := range words {
		pit, err := g.Variant.ParseMoveAt(g.Position, w)
		if err != nil {
			return Setup{}, err
		}
		if _, err := g.Play(pit); err != nil {
			return Setup{}, err
		}
	}
	return g.Setup, nil
}

// The same three moves in our pit numbers, the dialect's letters and
// PlayStrategy's squares reach the position PlayStrategy's own test gives
// for them (strategygames' OwareApiTest, "positionFromVariantAndMoves":
// a1e1 e2a2 e1c2 lead to 5S,5S,6S,6S,1S,5S/1,5S,5S,5S,1,5S 0 0 N, its top
// row North's a2..f2, that is North's pits 6..1).
func TestMoveNotations(t *testing.T) {
	start, _ := Parse("oware")
	want := "oware:0,5,5,5,0,5/5,1,6,6,5,5:2:0-0"
	for _, list := range []string{"1 2 5", "AbE", "A b E", "A,b,E", "a1e1 e2a2 e1c2", "a1 e2 e1", "1 b e1c2"} {
		got, err := playWords(t, start, list)
		if err != nil || got.String() != want {
			t.Errorf("%q: %v, %v; want %s", list, got, err, want)
		}
	}
	for list, want := range map[string]string{
		"a":         `move "a": South (A..F) is to move`,
		"A B":       `move "B": North (a..f) is to move`,
		"a2":        `move "a2": square a2 is player 2's (rank 2), and player 1 is to move`,
		"a1e2":      `move "a1e2": the last seed of a1 falls in e1, not e2`,
		"AbEg":      `move "AbEg": "g" is not a pit letter (A..F for South, a..f for North)`,
		"Az":        `move "Az": "z" is not a pit letter (A..F for South, a..f for North)`,
		"Zz":        `move "Zz" is not a pit number or "pass"`,
		"d1e2 c2b1": "",
	} {
		_, err := playWords(t, start, list)
		if (err == nil) != (want == "") || err != nil && err.Error() != want {
			t.Errorf("%q: %v, want %q", list, err, want)
		}
	}
	akon, _ := Parse("akon")
	if _, err := playWords(t, akon, "A"); err == nil || !strings.Contains(err.Error(), "akon has 7 pits a row") {
		t.Errorf("akon letter: %v", err)
	}
	djenon, _ := Parse("djenon-abe")
	if _, err := playWords(t, djenon, "a1"); err == nil || !strings.Contains(err.Error(), "PlayStrategy's squares") {
		t.Errorf("djenon square: %v", err)
	}
}

// A game's line written as letters and as squares reads back to the same
// game; the squares are PlayStrategy's record of its game
// https://playstrategy.org/Pd83xW5h (strategygames' OwareReplayTest:
// d1e2 c2b1 e1c2 b2d1 f1a2 d2c1 b1d2 b2a1), 4 4 5 5 6 3 2 5 in our pits.
func TestLineNotations(t *testing.T) {
	start, _ := Parse("oware-own")
	squares := "d1e2 c2b1 e1c2 b2d1 f1a2 d2c1 b1d2 b2a1"
	g := NewGame(start)
	for _, pit := range []int{4, 4, 5, 5, 6, 3, 2, 5} {
		if _, err := g.Play(pit); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(LineSquares(g.Variant, g.Line), " "); got != squares {
		t.Errorf("squares %s, want %s", got, squares)
	}
	letters := LineLetters(g.Line)
	if letters != "DdEeFcBe" {
		t.Errorf("letters %s", letters)
	}
	for _, list := range []string{letters, squares} {
		got, err := playWords(t, start, list)
		if err != nil || got != g.Setup {
			t.Errorf("%s: %v, %v; want %v", list, got, err, g.Setup)
		}
	}
}

// Random games of every six-pit variant written in the dialect (and, where
// it applies, PlayStrategy's squares) read back to the same game: ours ->
// dialect -> ours.
func TestRecordRoundTrip(t *testing.T) {
	rng := uint64(12345)
	next := func(n int) int { // xorshift: a fixed sequence, no wall clock
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for _, name := range []string{"oware-own", "oware", "awari", "djenon-abe", "djenon-aboure", "kalah", "kalah-std"} {
		for game := 0; game < 20; game++ {
			start, _ := Parse(name)
			g := NewGame(start)
			var pits []int
			for ply := 0; ply < 60 && !g.Over; ply++ {
				var buf [MaxPits]Move
				n := g.Variant.Moves(g.Position, &buf)
				pit := int(buf[next(n)].Pit)
				if _, err := g.Play(pit); err != nil {
					t.Fatal(err)
				}
				pits = append(pits, pit)
			}
			formats := []RecordFormat{RecordOurs, RecordDialect}
			if checkSquares(g.Variant) == nil {
				formats = append(formats, RecordPlayStrategy)
			}
			for _, f := range formats {
				text, err := FormatRecord(start, pits, f, nil)
				if err != nil {
					t.Fatalf("%s %v: %v", name, f, err)
				}
				first, moves, _ := strings.Cut(text, " ")
				from := start
				if f != RecordPlayStrategy {
					if from, err = Parse(first); err != nil || from != start {
						t.Fatalf("%s: %s read as %v, %v", f, first, from, err)
					}
				} else {
					moves = text
				}
				got, err := playWords(t, from, moves)
				if err != nil || got != g.Setup {
					t.Errorf("%s %s: %s: %v, %v; want %v", name, f, text, got, err, g.Setup)
				}
			}
		}
	}
}
