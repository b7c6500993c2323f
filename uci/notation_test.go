package uci

import (
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// Worked by hand from the start (4 a pit): A sows B..E (A 0, B..E 5);
// North's f sows A..D (A 1, B 6, C 6, D 6); C sows D..F and a..c (D 7,
// E 6, F 5, a..c 5); North's b sows c..f and A, whose 2 seeds North
// captures.
func TestLinePlay(t *testing.T) {
	v, _ := position.Lookup("oware")
	l := newLine(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	if err := l.play("AfCb"); err != nil {
		t.Fatal(err)
	}
	if got, want := l.game.Setup.String(), "oware:0,6,0,7,6,5/5,0,6,5,5,1:1:0-2"; got != want {
		t.Errorf("after AfCb: %s, want %s", got, want)
	}
	if got := position.FormatFEN(l.game.Setup); got != "0-6-0-7-6-5-5-0-6-5-5-1-0-2-S" {
		t.Errorf("fen %s", got)
	}
	if len(l.game.Line) != 4 {
		t.Errorf("a line of %d plies, want 4", len(l.game.Line))
	}
}

func TestSupported(t *testing.T) {
	names := strings.Join(SupportedNames(), " ")
	for _, want := range []string{"oware-own", "oware", "awari", "djenon-abe", "djenon-aboure", "kalah"} {
		if !strings.Contains(" "+names+" ", " "+want+" ") {
			t.Errorf("%s not supported: %s", want, names)
		}
	}
	akon, _ := position.Lookup("akon")
	if Supported(akon) == nil || strings.Contains(names, "akon") {
		t.Error("akon's seven pits have no letters")
	}
}

func TestBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		args  string
		side  int
		want  time.Duration
		timed bool
	}{
		{"movetime 500", 0, 470 * ms, true},                      // less min(50, 30) ms
		{"movetime 100", 1, 90 * ms, true},                       // less a tenth
		{"wtime 60000 btime 1000", 0, 2970 * ms, true},           // 60 s over 20 moves, less 30 ms
		{"wtime 60000 btime 1000", 1, 45 * ms, true},             // 1 s / 20 = 50 ms, less a tenth
		{"wtime 1000 btime 1000 movestogo 1", 0, 470 * ms, true}, // never more than half the time left
		{"btime 10000 binc 2000 wtime 5", 1, 1970 * ms, true},    // 500 + 1500 ms, less 30
		{"depth 5", 0, 0, false},
		{"movetime 9223372036854775807", 0, maxMillis*ms - 30*ms, true}, // capped, not overflowed
		{"", 0, DefaultMoveTime, true},
	} {
		g, err := parseGo(strings.Fields(c.args))
		if err != nil {
			t.Fatal(err)
		}
		got, timed := g.budget(c.side)
		if got != c.want || timed != c.timed {
			t.Errorf("go %s, side %d: %v (timed %v), want %v (%v)", c.args, c.side, got, timed, c.want, c.timed)
		}
	}
}
