package position

import (
	"os"
	"strings"
	"testing"
)

// The .ogn files of testdata/games were written by Aualé's own serializer
// (its match and OGN classes, run on their own) from the games of
// testdata/games/oware-games.txt: an Aualé file read and written back is
// byte for byte the same, and its moves are the recorded ones.
func TestOGNRoundTrip(t *testing.T) {
	records := map[string]string{ // file: its game in oware-games.txt
		"playstrategy-Pd83xW5h.ogn": "# game 1",
		"aalina-benchmark-2.ogn":    "# game 4",
		"auale-fen.ogn":             "",
	}
	games := readFile(t, "../testdata/games/oware-games.txt")
	for name, comment := range records {
		text := readFile(t, "../testdata/games/"+name)
		rec, err := ParseOGN(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g := NewGame(rec.Start)
		var pits []string
		for _, pit := range rec.Moves {
			if _, err := g.Play(pit); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			pits = append(pits, MoveString(pit))
		}
		if comment != "" {
			_, after, _ := strings.Cut(games, comment)
			lines := strings.SplitN(after, "\n", 3)
			fields := strings.Fields(lines[1]) // the variant, then the moves
			if want := strings.Join(fields[1:], " "); strings.Join(pits, " ") != want {
				t.Errorf("%s: moves %s, want %s", name, strings.Join(pits, " "), want)
			}
		}
		if got := OGNResult(g); got != rec.Tag("Result") && rec.Tag("Result") != "" {
			t.Errorf("%s: result %s, the file says %s", name, got, rec.Tag("Result"))
		}
		back, err := FormatOGN(g, rec.Tags)
		if err != nil || back != text {
			t.Errorf("%s: written back as\n%s\nwant\n%s (%v)", name, back, text, err)
		}
	}
}

func TestParseOGNErrors(t *testing.T) {
	for text, want := range map[string]string{
		"[Variant \"Awari\"]\n\n1. A":              `Variant tag "Awari": Aualé's files hold Oware Abapa games`,
		"[Event \"x]\n":                            `line 1: tag "[Event \"x]": the value has no closing quote`,
		"[Event \"x\"]\n[FEN \"4-4-S\"]\n":         `FEN tag: fen "4-4-S" has 3 fields, want 15`,
		"[Event \"x\"]\n\n1. A b\n2. a":            `line 4: move 3, a: move "a": South (A..F) is to move`,
		"[Event \"x\"]\n\n1. A b {a comment} 2. X": `line 3: "X" is not a move`,
		"[Event \"x\"]\n\n1. A b {unclosed":        `line 3: a comment "{" is not closed`,
	} {
		if _, err := ParseOGN(text); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	rec, err := ParseOGN("[Event \"a \\\"quoted\\\" name\"]\n\n1. A+0 (1... b) b {why} 2. Cb 3.\n")
	if err != nil || rec.Tag("Event") != `a "quoted" name` || len(rec.Moves) != 4 {
		t.Errorf("%+v %v", rec, err)
	}
	awari, _ := Parse("awari")
	if _, err := FormatOGN(NewGame(awari), nil); err == nil {
		t.Error("awari written as an Aualé file")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
