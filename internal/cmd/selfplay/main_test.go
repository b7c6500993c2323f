package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// TestOpenings: every line of two plies (perft 2 of the start) and every
// sixth of the lines of three (perft 3 of the start, sixth by sixth).
func TestOpenings(t *testing.T) {
	for _, name := range []string{"oware", "awari", "akon"} {
		v, _ := position.Lookup(name)
		got := openings(v)
		two, three := v.Perft(v.Start(), 2), v.Perft(v.Start(), 3)
		if want := two + three/6; uint64(len(got)) != want {
			t.Errorf("%s: %d openings, want %d + %d/6 = %d", name, len(got), two, three, want)
		}
		for _, o := range got {
			g := position.NewGame(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
			for _, pit := range o {
				if _, err := g.Play(pit); err != nil {
					t.Fatalf("%s %v: %v", name, o, err)
				}
			}
		}
	}
}

// TestGame: a game of the first opening at a tiny budget ends (or is
// adjudicated at 600 plies) and returns the tuned side's score less the
// other's, as printed, with the tuned estimate on either side.
func TestGame(t *testing.T) {
	m, err := setup(200, "awari", "rows", "", 1, false)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m.out = &out
	for side := range 2 {
		out.Reset()
		d, err := m.game(openings(m.v)[0], side)
		if err != nil {
			t.Fatal(err)
		}
		var a, b int
		line := strings.TrimSpace(out.String())
		if _, err := fmt.Sscanf(line[strings.Index(line, ": ")+2:], "%d-%d", &a, &b); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := a - b
		if side == 1 {
			want = b - a
		}
		if d != want || a+b > 48 {
			t.Errorf("tuned side %d: %q, difference %d; want %d", side+1, line, d, want)
		}
	}
}

// TestSetupRefuses: bad flags are errors naming the flag.
func TestSetupRefuses(t *testing.T) {
	w := strings.Repeat("1,", len(solver.FeatureNames())-1) + "1"
	if _, err := setup(1, "oware", "tuned", w, 1.2, true); err != nil {
		t.Errorf("good flags: %v", err)
	}
	for _, c := range []struct {
		nodes   uint64
		variant string
		base    string
		weights string
		rows    float64
		flag    string
	}{
		{0, "oware", "rows", "", 1, "-nodes"},
		{1, "owari", "rows", "", 1, "-variant"},
		{1, "oware", "auto", "", 1, "-base"},
		{1, "oware", "rows", "1,2", 1, "-weights"},
		{1, "oware", "rows", "1,x", 1, "-weights"},
		{1, "oware", "rows", "", 0, "-rows"},
	} {
		if _, err := setup(c.nodes, c.variant, c.base, c.weights, c.rows, false); err == nil || !strings.HasPrefix(err.Error(), c.flag) {
			t.Errorf("%+v: %v, want an error about %s", c, err, c.flag)
		}
	}
}
