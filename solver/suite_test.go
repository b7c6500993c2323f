package solver

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// suitePath is the benchmark suite: positions from play, per variant.
const suitePath = "../bench/testdata/solve-suite.txt"

var genSuite = flag.Bool("gen-suite", false, "rewrite "+suitePath+" (see TestGenerateSuite)")

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

// plausibleMove picks a move as a weak player would: the largest capture
// four times in five (ties at random), else any move.
func plausibleMove(rng *rand.Rand, moves []position.Move) position.Move {
	if rng.IntN(5) == 0 {
		return moves[rng.IntN(len(moves))]
	}
	best := -1
	var pick []position.Move
	for _, m := range moves {
		switch c := int(m.Captured); {
		case c > best:
			best, pick = c, []position.Move{m}
		case c == best:
			pick = append(pick, m)
		}
	}
	return pick[rng.IntN(len(pick))]
}

// playGame plays plausible moves from the start to the end of the game
// (or 600 plies) and returns the positions met, the start first.
func playGame(v *position.Variant, rng *rand.Rand) []position.Position {
	game := []position.Position{v.Start()}
	var buf [position.MaxPits]position.Move
	for p := v.Start(); len(game) < 600; game = append(game, p) {
		n := v.Moves(p, &buf)
		if n == 0 {
			break
		}
		p = plausibleMove(rng, buf[:n]).Next
	}
	return game[:len(game)-1] // the last position has no moves
}

// endgameSeeds is the seed count per variant below which positions of
// plausible play are often proved in well under a second.
var endgameSeeds = map[string]int{"awari": 9, "oware": 9, "akon": 14, "djenon-abe": 26, "djenon-aboure": 40}

// TestGenerateSuite rewrites the suite with -gen-suite. Per variant, games
// of plausible play from the start (rng seeded with 2024 and the variant's
// ID) give two midgame positions (the first with at most three quarters
// of the seeds, in the first two games that go on 4 plies or more after
// it) and three endgame positions (the first of a game with at most
// endgameSeeds seeds, if one thread proves it, best moves included, in
// 5 ms to 2 s).
func TestGenerateSuite(t *testing.T) {
	if !*genSuite {
		t.Skip("run with -gen-suite to rewrite " + suitePath)
	}
	var b strings.Builder
	b.WriteString(suiteHeader)
	for _, v := range position.Variants() {
		rng := rand.New(rand.NewPCG(2024, uint64(v.ID)))
		var mid, end []string
		for game := 0; game < 200 && (len(mid) < 2 || len(end) < 3); game++ {
			positions := playGame(v, rng)
			if ply, ok := midgamePly(v, positions); ok && len(mid) < 2 {
				mid = append(mid, fmt.Sprintf("%s # %s, plausible play, game %d ply %d of %d, %d seeds",
					position.Format(v, positions[ply]), v.Name, game, ply, len(positions), positions[ply].Seeds()))
			}
			if line, ok := endgameLine(v, positions, game); ok && len(end) < 3 {
				end = append(end, line)
			}
		}
		fmt.Fprintf(&b, "\n# section: midgame\n%s\n", strings.Join(mid, "\n"))
		fmt.Fprintf(&b, "\n# section: endgame\n%s\n", strings.Join(end, "\n"))
	}
	if err := os.WriteFile(suitePath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// midgamePly returns the ply of a game's first position with at most three
// quarters of the seeds, if the game goes on 4 plies or more after it.
func midgamePly(v *position.Variant, positions []position.Position) (int, bool) {
	for ply, p := range positions {
		if 4*p.Seeds() <= 3*v.Total() {
			return ply, ply+4 <= len(positions)
		}
	}
	return 0, false
}

// endgameLine returns the suite line of a game's first position with at
// most endgameSeeds seeds, if one thread proves it in 20 ms to 2 s.
func endgameLine(v *position.Variant, positions []position.Position, game int) (string, bool) {
	for ply, p := range positions {
		if p.Seeds() > endgameSeeds[v.Name] {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res, _ := Search(ctx, v, p, Options{Threads: 1, HashMiB: 64})
		if res.Stop != StopExact || res.Elapsed < 5*time.Millisecond {
			return "", false
		}
		return fmt.Sprintf("%s # %s, plausible play, game %d ply %d, %d seeds, value %+d, %.2f s",
			position.Format(v, p), v.Name, game, ply, p.Seeds(), res.Value, res.Elapsed.Seconds()), true
	}
	return "", false
}

const suiteHeader = `# Solver benchmark suite: positions from play, per variant, one a line.
#
# Source: games of plausible play from the start position (the largest
# capture four times in five, ties at random, else any legal move), a
# PCG random generator seeded (2024, variant ID). Generated by
#   go test ./solver -run TestGenerateSuite -gen-suite
# (solver/suite_test.go), which also says how positions are picked.
#
# "# section: midgame" positions are a game's first with at most three
# quarters of the seeds: searched to a fixed depth, they measure nodes per
# second. "# section: endgame" positions are the first of a game with few
# seeds (awari, oware 9; akon 14; djenon-abe 26; djenon-aboure 40) if one
# thread proves them exact, best moves included, in 5 ms to 2 s: they
# measure time to exact. The comment after each endgame position gives its value
# and time when generated.
#
# Usable as input: mancala solve - < bench/testdata/solve-suite.txt
`

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
