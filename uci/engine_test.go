package uci

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// transcript runs a whole session: script is the GUI's side, one command a
// line; it returns the engine's lines with their "time N" fields (the only
// wall-clock figures) removed. Searches use one thread, a small table and
// no tablebase, and every limit in the scripts is a depth or a node count.
func transcript(t *testing.T, variant, script string) []string {
	t.Helper()
	v, err := position.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	e, err := New(Config{Variant: v, NoTB: true, HashMiB: 1, Threads: 1}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background(), strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(` time \d+`).ReplaceAllString(out.String(), "")
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// last returns the last line starting with prefix, or "".
func last(lines []string, prefix string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}

func TestHandshake(t *testing.T) {
	lines := transcript(t, "oware-own", "uci\nisready\nquit\n")
	if !strings.HasPrefix(lines[0], "id name mancala") || lines[1] != "id author the mancala authors" {
		t.Errorf("identification: %q", lines[:2])
	}
	for _, opt := range []string{"Hash type spin", "Threads type spin", "TablebaseDir type string", "Variant type combo default oware-own"} {
		if last(lines, "option name "+opt) == "" {
			t.Errorf("no option %q in %q", opt, lines)
		}
	}
	if n := len(lines); n < 2 || lines[n-2] != "uciok" || lines[n-1] != "readyok" {
		t.Errorf("want uciok then readyok last, got %q", lines)
	}
}

// TestThreadsLimitIsTheCommandLines: the Threads option's max is the one
// limit of the commands' --threads (solver.MachineThreads), and a value
// past it is refused, named under debug on, where the engine advertised
// 256 and took 99 silently on a 2-core machine whose --threads stops at 8
// (newcomer report item 2).
func TestThreadsLimitIsTheCommandLines(t *testing.T) {
	limit := solver.MachineThreads()
	lines := transcript(t, "oware-own", fmt.Sprintf("uci\ndebug on\nsetoption name Threads value %d\nsetoption name Threads value %d\nquit\n", limit+1, limit))
	if got, want := last(lines, "option name Threads"), fmt.Sprintf("option name Threads type spin default 1 min 1 max %d", limit); got != want {
		t.Errorf("option line %q, want %q", got, want)
	}
	if got, want := last(lines, "info string setoption Threads"), fmt.Sprintf(`info string setoption Threads: value "%d": want 1..%d`, limit+1, limit); got != want {
		t.Errorf("refusal %q, want %q (all: %q)", got, want, lines)
	}
	if n := strings.Count(strings.Join(lines, "\n"), "info string setoption Threads"); n != 1 {
		t.Errorf("%d refusals, want 1 (the limit itself is taken): %q", n, lines)
	}
}

// go depth N: info lines no deeper than N, then the move the oracle finds
// at that depth, written as a South letter, with the reply it expects.
func TestGoDepth(t *testing.T) {
	lines := transcript(t, "oware", "position startpos\ngo depth 4\nwait\nisready\n")
	if lines[len(lines)-1] != "readyok" {
		t.Fatalf("readyok not last: %q", lines)
	}
	for _, l := range lines[:len(lines)-2] {
		if !regexp.MustCompile(`^info depth [1-4] score cp -?\d+( nodes \d+)?( pv [A-F][a-f]*.*)?$`).MatchString(l) {
			t.Errorf("info line %q", l)
		}
	}
	or, err := oracle.Open(oracle.Config{NoTB: true, Threads: 1, HashMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer or.Close()
	v, _ := position.Lookup("oware")
	a, err := or.Solve(context.Background(), position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true},
		oracle.SolveOptions{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := "bestmove " + "ABCDEF"[a.PV[0]-1:a.PV[0]] + " ponder " + "abcdef"[a.PV[1]-1:a.PV[1]]
	if got := lines[len(lines)-2]; got != want {
		t.Errorf("%q, want %q (the oracle's principal variation %v)", got, want, a.PV)
	}
}

// Worked by hand: South's only move sows F's 2 seeds into a and b; North
// then cannot feed South, so the game ends and North takes its row: the
// value is -2, and 23+0 against 23+2 loses, reported as Aalina's -2500.
func TestProvenLoss(t *testing.T) {
	lines := transcript(t, "oware-own", "position fen 0-0-0-0-0-2-0-0-0-0-0-0-23-23-S\ngo depth 5\nwait\n")
	n := len(lines)
	if n < 3 || lines[n-1] != "bestmove F" || lines[n-2] != "info string exact value -2, final score 23-25 with best play: player 2 wins by 2" ||
		!regexp.MustCompile(`^info depth \d+ score cp -2500( nodes \d+)? pv F$`).MatchString(lines[n-3]) {
		t.Errorf("got %q", lines)
	}
}

// A finished game gets the null move: North to move, South empty and no
// North move reaching South.
func TestGameOver(t *testing.T) {
	lines := transcript(t, "oware-own", "position fen 0-0-0-0-0-0-1-1-0-0-0-0-23-23-N\ngo movetime 100\n")
	if !slices.Equal(lines, []string{"bestmove 0000"}) {
		t.Errorf("got %q", lines)
	}
}

// The moves AfCb from the start (North's b captures 2 on A, worked out in
// notation_test.go) and the fen of the position they reach: the same
// search, line for line (the capture leaves no history that could repeat).
func TestMovesMatchFen(t *testing.T) {
	moves := transcript(t, "oware", "position startpos moves AfCb\ngo nodes 3000\nwait\n")
	fen := transcript(t, "oware", "position fen 0-6-0-7-6-5-5-0-6-5-5-1-0-2-S\ngo nodes 3000\nwait\n")
	if !slices.Equal(moves, fen) || !strings.HasPrefix(last(moves, "bestmove"), "bestmove ") {
		t.Errorf("moves:\n%s\nfen:\n%s", strings.Join(moves, "\n"), strings.Join(fen, "\n"))
	}
}

// go infinite and go ponder search until stop, which answers with a legal
// bestmove; North is to move after A.
func TestStop(t *testing.T) {
	for _, mode := range []string{"infinite", "ponder"} {
		lines := transcript(t, "oware-own", "position startpos moves A\ngo "+mode+"\nstop\nisready\n")
		n := len(lines)
		if n < 2 || !regexp.MustCompile(`^bestmove [a-f]( ponder [A-F])?$`).MatchString(lines[n-2]) || lines[n-1] != "readyok" {
			t.Errorf("go %s: %q", mode, lines)
		}
	}
}

// Bad input is dropped without a word, and the engine goes on: an unknown
// command, a malformed fen, an illegal move (the position before it stays),
// bad go and setoption arguments. Under debug on, each gets one info
// string line.
func TestBadInput(t *testing.T) {
	bad := "foo\nposition fen 1-2-3\nposition fen 4-4-4-4-4-4-4-4-4-4-4-5-0-0-S\nposition startpos moves AA\n" +
		"position startpos moves G\ngo depth x\nsetoption name Hash value -5\nstop\nponderhit\n"
	script := "position startpos moves A\n" + bad + "isready\ngo depth 2\nwait\n"
	lines := transcript(t, "oware-own", script)
	if lines[0] != "readyok" || !regexp.MustCompile(`^bestmove [a-f]`).MatchString(last(lines, "bestmove")) {
		t.Errorf("quiet: %q", lines)
	}
	lines = transcript(t, "oware-own", "debug on\n"+script)
	var strs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string") {
			strs = append(strs, l)
		}
	}
	for i, want := range []string{`unknown command "foo"`, `has 3 fields, want 15`, `49 seeds`, `the 2nd move: move "A": North (a..f) is to move`,
		`move "G" is not a pit letter`, `go: depth "x"`, `setoption Hash: value "-5"`, "stop: not searching", "ponderhit: not pondering"} {
		if i >= len(strs) || !strings.Contains(strs[i], want) {
			t.Errorf("debug line %d: want %q, got %q", i+1, want, strs)
			break
		}
	}
}

// The repetition rule is the variant's: from a forced 12-ply cycle back to
// this position with both seeds on South's row (solver/ownrows_test.go),
// oware-own proves +2 (South ahead: +2500), oware proves 0 (a draw).
func TestVariantRepetitionRule(t *testing.T) {
	const fen = "position fen 1-0-0-0-0-1-0-0-0-0-0-0-23-23-S\ngo depth 40\nwait\n"
	own := transcript(t, "oware-own", fen)
	plain := transcript(t, "oware-own", "setoption name Variant value oware\n"+fen)
	if !strings.HasPrefix(last(own, "info string"), "info string exact value 2, final score 25-23 with best play: player 1 wins by 2") || !strings.Contains(last(own, "info depth"), "score cp 2500") {
		t.Errorf("oware-own: %q", own)
	}
	if !strings.HasPrefix(last(plain, "info string"), "info string exact value 0, final score ") || !strings.HasSuffix(last(plain, "info string"), "a draw") || !strings.Contains(last(plain, "info depth"), "score cp 0") {
		t.Errorf("oware: %q", plain)
	}
}

// go ponder on a finished game holds its null move until stop, as any
// ponder search does: samurai would read an early one as the answer to
// its next go.
func TestPonderGameOver(t *testing.T) {
	lines := transcript(t, "oware-own", "position fen 0-0-0-0-0-0-1-1-0-0-0-0-23-23-N\ngo ponder\nisready\nstop\nstop\n")
	if !slices.Equal(lines, []string{"readyok", "bestmove 0000"}) {
		t.Errorf("got %q", lines)
	}
}

// ponderhit turns a ponder search into a normal one: its bestmove comes
// once the search ends (here at its node limit), without a stop.
func TestPonderHit(t *testing.T) {
	lines := transcript(t, "oware-own", "position startpos moves A\ngo ponder nodes 2000\nponderhit\nwait\nisready\n")
	n := len(lines)
	if n < 2 || !regexp.MustCompile(`^bestmove [a-f]( ponder [A-F])?$`).MatchString(lines[n-2]) || lines[n-1] != "readyok" {
		t.Errorf("got %q", lines)
	}
}

// A game ended by the 25-seed stop gets the null move although the board
// still has moves (South's A): samurai pondered on such a position and
// got A back.
func TestStopAtGameOver(t *testing.T) {
	for _, script := range []string{"go movetime 100\n", "go ponder\nstop\n"} {
		lines := transcript(t, "oware-own", "position fen 4-0-0-0-0-0-0-0-0-1-0-0-25-18-S\n"+script)
		if !slices.Equal(lines, []string{"bestmove 0000"}) {
			t.Errorf("%q: got %q", script, lines)
		}
	}
}

// A tablebase directory that holds another variant's layers (oware's,
// while the engine plays oware-own, which has none) leaves the engine
// searching: before, every go answered an error and the first legal move.
func TestTablebaseOfAnotherVariant(t *testing.T) {
	dir := t.TempDir()
	oware, _ := position.Lookup("oware")
	if _, err := tablebase.Build(context.Background(), dir, oware, tablebase.BuildOptions{MaxSeeds: 4, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	own, _ := position.Lookup("oware-own")
	var out bytes.Buffer
	e, err := New(Config{Variant: own, TBDir: dir, HashMiB: 1, Threads: 1}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background(), strings.NewReader("position startpos\ngo depth 3\nwait\nquit\n")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if strings.Contains(out.String(), "error") || last(lines, "info depth 3") == "" || !strings.HasPrefix(last(lines, "bestmove"), "bestmove ") {
		t.Errorf("got %q", lines)
	}
}

// TestQuitAfterWaitIsQuiet: quit after a search that ended (wait) stops
// nothing and says nothing, even under debug, while a stop without a
// search still says so (issue 43, defect 11: `info string stop: not
// searching` after wait then quit).
func TestQuitAfterWaitIsQuiet(t *testing.T) {
	lines := transcript(t, "oware-own", "debug on\nisready\ngo depth 2\nwait\nquit\n")
	for _, l := range lines {
		if strings.Contains(l, "not searching") {
			t.Errorf("quit after wait said %q; all: %q", l, lines)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "bestmove ") {
		t.Errorf("want the bestmove last, got %q", lines)
	}
	lines = transcript(t, "oware-own", "debug on\nstop\nquit\n")
	if last(lines, "info string") != "info string stop: not searching" {
		t.Errorf("stop without a search: %q", lines)
	}
}

// TestSetupBeforeTheClock: a go sent without isready starts its search
// (and its clock) with the table made and the tablebases ready, set up at
// the start of the session or before the budget counts, never inside the
// move's time (issue 43, defect 6: kalah's go movetime 300 answered after
// 1.2-3.0 s). The same after ucinewgame, and after an option change.
func TestSetupBeforeTheClock(t *testing.T) {
	v, err := position.Lookup("kalah")
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{
		"position startpos\ngo nodes 200\nwait\n",
		"ucinewgame\nposition startpos moves C\ngo movetime 5000 nodes 200\nwait\n",
		"setoption name Hash value 2\nposition startpos\ngo nodes 200\nwait\n",
	} {
		var out bytes.Buffer
		e, err := New(Config{Variant: v, NoTB: true, HashMiB: 1, Threads: 1}, &out)
		if err != nil {
			t.Fatal(err)
		}
		searches, ready := 0, 0
		e.beforeSearch = func() {
			searches++
			if e.warm && e.or != nil {
				ready++
			}
		}
		if err := e.Run(context.Background(), strings.NewReader(script)); err != nil {
			t.Fatal(err)
		}
		if searches != 1 || ready != 1 {
			t.Errorf("%q: %d searches, %d started ready; want 1 and 1 (output %q)", script, searches, ready, out.String())
		}
	}
}
