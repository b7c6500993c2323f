package solver

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// suitePath is the benchmark suite: positions from play, per variant
// (written by internal/cmd/gensuite).
const suitePath = "../bench/testdata/solve-suite.txt"

// suitePosition is one line of the suite: a position and its section.
type suitePosition struct {
	setup   position.Setup
	section string // "endgame" (solved exactly) or "midgame" (fixed depth)
}

// readSuite parses the suite file: `# section: NAME` lines start a
// section, other # text is comment, every other line is a position.
func readSuite(tb testing.TB) []suitePosition {
	tb.Helper()
	f, err := os.Open(suitePath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []suitePosition
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(line, "# section: "); ok {
			section = name
		}
		text, _, _ := strings.Cut(line, "#")
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		st, err := position.Parse(text)
		if err != nil {
			tb.Fatalf("%s: %v", suitePath, err)
		}
		out = append(out, suitePosition{setup: st, section: section})
	}
	return out
}

// TestSuiteParses checks the suite file: every line parses, both
// sections are there for every variant, and no position is over.
func TestSuiteParses(t *testing.T) {
	seen := map[string]int{}
	for _, sp := range readSuite(t) {
		seen[sp.setup.Variant.Name+"/"+sp.section]++
		var buf [position.MaxPits]position.Move
		if sp.setup.Variant.Moves(sp.setup.Position, &buf) == 0 {
			t.Errorf("%s: game over", sp.setup)
		}
	}
	for _, v := range position.Variants() {
		for _, sec := range []string{"endgame", "midgame"} {
			if seen[v.Name+"/"+sec] == 0 {
				t.Errorf("no %s %s positions", v.Name, sec)
			}
		}
	}
}

// benchSuite runs every position of one section and reports nodes per
// second (all threads together) and, for endgames, seconds to exact per
// position.
func benchSuite(b *testing.B, section string, threads, depth int) {
	suite := readSuite(b)
	s, err := New(Options{Threads: threads, HashMiB: 64, MaxDepth: depth})
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	var elapsed time.Duration
	positions := 0
	for b.Loop() {
		for _, sp := range suite {
			if sp.section != section {
				continue
			}
			s.Clear()
			res, err := s.Search(context.Background(), sp.setup.Variant, sp.setup.Position)
			if err != nil {
				b.Fatal(err)
			}
			if section == "endgame" && !res.Exact {
				b.Fatalf("%s: not exact", sp.setup)
			}
			nodes += res.Nodes
			elapsed += res.Elapsed
			positions++
		}
	}
	b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
	b.ReportMetric(elapsed.Seconds()/float64(positions), "s/position")
}

// BenchmarkSuite1Thread: time to exact on the suite's endgames, one thread.
func BenchmarkSuite1Thread(b *testing.B) { benchSuite(b, "endgame", 1, 0) }

// BenchmarkSuiteAllThreads: time to exact on the endgames, every core.
func BenchmarkSuiteAllThreads(b *testing.B) { benchSuite(b, "endgame", runtime.NumCPU(), 0) }

// BenchmarkMidgame1Thread: nodes/s on the midgames to depth 14, one thread.
func BenchmarkMidgame1Thread(b *testing.B) { benchSuite(b, "midgame", 1, 14) }

// BenchmarkMidgameAllThreads: nodes/s on the midgames to depth 14, every
// core.
func BenchmarkMidgameAllThreads(b *testing.B) { benchSuite(b, "midgame", runtime.NumCPU(), 14) }
