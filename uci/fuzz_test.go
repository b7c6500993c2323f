package uci

import (
	"io"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// No input ends or crashes a session: each fuzzed text is a few command
// lines, run as a GUI would send them, and the engine must still answer
// isready afterwards. Searches are bounded: every go gets a node limit.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		"position fen ---------------", "go depth -1", "go movetime 99999999999999999999",
		"go movetime 9223372036854775807 depth 1", "setoption name", "setoption", "setoption name Hash value",
		"position startpos moves", "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves AaBbCc",
		"go wtime", "go movestogo 0 wtime 0 btime 0", "position fen 48-0-0-0-0-0-0-0-0-0-0-0-0-0-S\ngo",
		"debug\ndebug\nfoo", "position startpos moves A\nponderhit\nwait\nstop",
		"setoption name Variant value akon\nsetoption name Variant value kalah\nposition startpos moves AB",
		"position fen 0-0-0-0-0-0-0-0-0-0-0-0-24-24-S\ngo infinite\nstop",
	} {
		f.Add(seed)
	}
	v, _ := position.Lookup("oware-own")
	f.Fuzz(func(t *testing.T, text string) {
		e, err := New(Config{Variant: v, NoTB: true, HashMiB: 1, Threads: 1}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "go") {
				l += " nodes 500" // bounded: the fuzzer is not a benchmark
			}
			if !e.Handle(l) {
				return // quit
			}
			e.stopSearch()
		}
		if !e.Handle("isready") {
			t.Fatal("isready ended the session")
		}
	})
}
