package position

import (
	"strings"
	"testing"
)

// Other programs' notations come from files and the web: no input may
// panic, and what parses writes back to what parses the same.
func FuzzParseOGN(f *testing.F) {
	f.Add("[Variant \"Oware Abapa\"]\n[FEN \"0-5-5-5-0-5-5-1-6-6-5-5-0-0-N\"]\n\n1. a B 2. c+2 {x} (1... d) 24-24\n")
	f.Add("[Event \"a \\\"b\\\"\"]\n\n1. AfCb")
	f.Add("[")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ParseOGN(text)
		if err != nil {
			return
		}
		g := NewGame(rec.Start)
		for _, pit := range rec.Moves {
			if _, err := g.Play(pit); err != nil {
				t.Fatalf("a move ParseOGN accepted is illegal: %v", err)
			}
		}
		out, err := FormatOGN(g, rec.Tags)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseOGN(out)
		if err != nil || back.Start != rec.Start || len(back.Moves) != len(rec.Moves) {
			t.Fatalf("%q read back as %v, %v", out, back, err)
		}
	})
}

func FuzzParseMoves(f *testing.F) {
	f.Add("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "AfCb")
	f.Add("oware", "d1e2 c2b1 a1")
	f.Add("kalah:0-0-0-0-0-1-0-0-0-0-0-0-30-17-S", "F f")
	f.Fuzz(func(t *testing.T, pos, moves string) {
		s, err := Parse(pos)
		if err != nil {
			return
		}
		words, err := SplitMoves([]string{moves})
		if err != nil {
			return
		}
		g := NewGame(s)
		for _, w := range words {
			pit, err := g.Variant.ParseMoveAt(g.Position, w)
			if err != nil {
				return
			}
			if _, err := g.Play(pit); err != nil {
				return
			}
		}
		if CheckDialect(s.Variant) == nil && s.CapturesKnown {
			back, err := Parse(s.Variant.Name + ":" + FormatFEN(s))
			if err != nil || back != s {
				t.Fatalf("%s: fen %s read back as %v, %v", s, FormatFEN(s), back, err)
			}
			if got := LineLetters(g.Line); strings.ContainsAny(got, "0123456789") {
				t.Fatalf("letters %q", got)
			}
		}
	})
}
