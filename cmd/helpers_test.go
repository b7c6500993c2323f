package cmd

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

func TestReadLines(t *testing.T) {
	lines, err := readLines(strings.NewReader("a\n\n  b # note\n# only a comment\nc"), true, "position")
	if err != nil {
		t.Fatal(err)
	}
	want := []inputLine{{1, "a"}, {3, "b"}, {5, "c"}}
	if len(lines) != len(want) {
		t.Fatalf("got %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: got %v, want %v", i, lines[i], want[i])
		}
	}
	if lines, _ := readLines(strings.NewReader("a # b"), false, "game"); lines[0].Text != "a # b" {
		t.Errorf("without comments: %q", lines[0].Text)
	}
}

func TestReadLinesErrors(t *testing.T) {
	long := "awari\n" + strings.Repeat("4", maxLineBytes+1) + "\n"
	for _, c := range []struct{ in, want string }{
		{"", "stdin is empty: want one position a line"},
		{"\n# x\n", "stdin has 2 lines but no position"},
		{long, "stdin line 2: longer than 1 MiB"},
	} {
		_, err := readLines(strings.NewReader(c.in), true, "position")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.20q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func TestReadPositionsNamesTheLine(t *testing.T) {
	_, err := readPositions(strings.NewReader("awari\n\noware:1,2/3\n"), StdinArg)
	if err == nil || err.Error() != `stdin line 3: oware: row 1 has 2 pits, want 6` {
		t.Errorf("got %v", err)
	}
}

// One rule for every command: the signal's exit status, and the command's
// own message unless it only says that a context was cancelled.
func TestInterruptedError(t *testing.T) {
	in := &Interrupted{Signal: syscall.SIGTERM}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "interrupted by SIGTERM"},
		{context.Canceled, "interrupted by SIGTERM"},
		{errors.New("search: context canceled"), "interrupted by SIGTERM"},
		{errors.New("interrupted: layers 0..9 are stored"), "interrupted: layers 0..9 are stored"},
		{&ExitError{Code: 3, Err: errors.New("partial")}, "partial"},
	} {
		err := interruptedError(in, c.err)
		if ExitCode(err) != 143 || err.Error() != c.want {
			t.Errorf("%v: got %d %q, want 143 %q", c.err, ExitCode(err), err, c.want)
		}
	}
	if !errors.Is(in, context.Canceled) {
		t.Error("an interruption is not a context.Canceled")
	}
	if (&Interrupted{Signal: syscall.SIGINT}).ExitCode() != 130 {
		t.Error("SIGINT's status is not 130")
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "ply", "1 ply"}, {0, "ply", "0 plies"}, {3, "ply", "3 plies"},
		{1, "inaccuracy", "1 inaccuracy"}, {2, "inaccuracy", "2 inaccuracies"},
		{1, "mistake", "1 mistake"}, {6, "blunder", "6 blunders"}, {2, "thread", "2 threads"},
	} {
		if got := plural(c.n, c.noun); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := plural(int64(1)<<40, "position"); got != "1099511627776 positions" {
		t.Errorf("int64: %q", got)
	}
}

// A line of exactly 1 MiB (notation.md's limit), with "\n" or "\r\n" after
// it, is read; one byte more is refused with one line naming the limit and
// the line, for positions and games alike.
func TestLineLimit(t *testing.T) {
	exactly := func(prefix string) string { // prefix padded by a comment to maxLineBytes
		return prefix + " #" + strings.Repeat("x", maxLineBytes-len(prefix)-2)
	}
	for _, end := range []string{"\n", "\r\n", ""} {
		in := "awari\n" + exactly("oware") + end
		if ps, err := readPositions(strings.NewReader(in), StdinArg); err != nil || len(ps) != 2 {
			t.Errorf("positions, a 1 MiB line ending %q: %d positions, %v", end, len(ps), err)
		}
		games, _, err := readGames(strings.NewReader("awari 3\n"+exactly("oware 4 4")+end), []string{StdinArg})
		if err != nil || len(games) != 2 {
			t.Errorf("games, a 1 MiB line ending %q: %d games, %v", end, len(games), err)
		}
	}
	const want = "stdin line 2: longer than 1 MiB, the most a line may hold"
	for _, size := range []int{maxLineBytes + 1, 16 << 20} {
		long := "awari\n" + strings.Repeat("4", size) + "\nawari\n"
		if _, err := readPositions(strings.NewReader(long), StdinArg); err == nil || err.Error() != want {
			t.Errorf("positions, a line of %d bytes: got %.100v, want %q", size, err, want)
		}
		if _, _, err := readGames(strings.NewReader(long), []string{StdinArg}); err == nil || err.Error() != want {
			t.Errorf("games, a line of %d bytes: got %.100v, want %q", size, err, want)
		}
	}
}

// TestRateOf: rates read in millions, thousands or units, never "0.00 M"
// for a small search (issue 43, defect 10).
func TestRateOf(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want string
	}{
		{0, "0 nodes/s"},
		{780, "780 nodes/s"},
		{4588, "4.6 k nodes/s"},
		{999_949, "999.9 k nodes/s"},
		{1_140_000, "1.14 M nodes/s"},
	} {
		if got := rateOf(c.rate, "nodes"); got != c.want {
			t.Errorf("rateOf(%v) = %q, want %q", c.rate, got, c.want)
		}
	}
}

// TestProofHintsSayHowToRunTheProof: the build hint and the note for a
// tablebase in reach give the solve that proves the start, without a time
// limit (the proof outlasts the default --time), and no timing compiled in
// (issue 43, defect 7: after following the hint, plain `solve kalah`
// stopped at 10 s with an estimate).
func TestProofHintsSayHowToRunTheProof(t *testing.T) {
	kalah, _ := position.Lookup("kalah")
	small, _ := position.Lookup("kalah-5x5")
	if h := buildHint(kalah, 20, "/tb", ""); !strings.Contains(h, "`mancala solve kalah --time 0 --tb /tb` proves Kalah(6,4)") {
		t.Errorf("build hint: %q", h)
	}
	for _, c := range []struct {
		v    *position.Variant
		top  int
		want bool
	}{{kalah, 20, true}, {kalah, 24, true}, {kalah, 19, false}, {small, 30, false}} {
		h, ok := reachHint(c.v, c.top, "")
		if ok != c.want || ok && !strings.Contains(h, "`mancala solve kalah --time 0` proves Kalah(6,4)") {
			t.Errorf("%s with layers to %d: %q, %v; want a note %v", c.v.Name, c.top, h, ok, c.want)
		}
		if regexp.MustCompile(`[0-9]+(\.[0-9]+)? ?(s|GB|GiB|MB)\b`).MatchString(h) {
			t.Errorf("%s: a figure compiled in: %q", c.v.Name, h)
		}
	}
}

// TestBuildHintStopsAtOneMachine: the build hint gives a build command up
// to the last layer under tablebase.MaxLayerPositions (awari's 31: C(42,11)
// = 4,280,561,376 positions; 32 has 5,752,004,349) and past it says so
// instead of a build that would be refused (newcomer report item 1).
func TestBuildHintStopsAtOneMachine(t *testing.T) {
	awari, _ := position.Lookup("awari")
	if h := buildHint(awari, 31, "", "P"); !strings.HasPrefix(h, "build it with `mancala build awari --max-seeds 31`") {
		t.Errorf("31 seeds: %q", h)
	}
	if h := buildHint(awari, 32, "", "P"); h != "layers above 31 seeds are past what one machine builds for awari (docs/distributed-build.md); search instead with `mancala solve P`" {
		t.Errorf("32 seeds: %q", h)
	}
}
