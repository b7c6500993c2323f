package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mancala-solver/mancala/match"
	"github.com/mancala-solver/mancala/position"
)

// TestMatchEloText: an even score prints +0, not -0 (EloOf(0.5) is -0).
func TestMatchEloText(t *testing.T) {
	for _, c := range []struct {
		e    float64
		want string
	}{
		{match.EloOf(0.5), "+0"}, {-0.3, "+0"}, {74.06, "+74"}, {-190.85, "-191"}, {match.EloOf(1), "+inf"},
	} {
		if got := eloText(c.e); got != c.want {
			t.Errorf("eloText(%v) = %q; want %q", c.e, got, c.want)
		}
	}
}

// TestMatchResumeCutRecord: a record whose last line was cut by the
// interruption loses that line (the file is truncated after the last
// whole line) and keeps its whole games; without --resume the file is
// written afresh with the header alone.
func TestMatchResumeCutRecord(t *testing.T) {
	v, _ := position.Lookup("oware-own")
	cfg := match.Config{Variant: v, Commands: [2]string{"a", "b"}, Depth: 2, Games: 4}
	whole := cfg.Header() + "\n# game 1: a (South) - b (North) 1-0, 26-22, x\noware-own 3 4 1\n"
	name := filepath.Join(t.TempDir(), "games.txt")
	if err := os.WriteFile(name, []byte(whole+"# game 2: b (South) - a (North) 0-1, 2"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, done, err := openRecord(name, true, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if data, _ := os.ReadFile(name); len(done) != 1 || done[0].Index != 1 || string(data) != whole {
		t.Errorf("%d games, file %q; want game 1 and the whole lines", len(done), data)
	}
	f, done, err = openRecord(name, false, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if data, _ := os.ReadFile(name); len(done) != 0 || string(data) != cfg.Header()+"\n" {
		t.Errorf("without resume: %d games, file %q", len(done), data)
	}
}
