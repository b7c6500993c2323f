// Command gensuite writes the solver's benchmark suite
// (bench/testdata/solve-suite.txt, read by `mancala bench solve` and the
// solver's benchmarks) to stdout. Per variant, games of plausible play
// from the start (the largest capture four times in five, ties at random,
// else any move; a PCG generator seeded with 2024 and the variant's ID)
// give two midgame positions (a game's first with at most three quarters
// of the seeds, in the first two games that go on 4 plies or more after
// it) and three endgame positions (the first of a game with at most
// endgameSeeds seeds, if one thread proves it exact, best moves included,
// in 5 ms to 2 s: that choice depends on the machine, so a new suite is
// committed on purpose, with its reason).
//
//	go run ./internal/cmd/gensuite > bench/testdata/solve-suite.txt
//
// See docs/testing.md for the other operator tools.
package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "gensuite: takes no arguments; it writes the suite to stdout")
		os.Exit(2)
	}
	if err := write(os.Stdout, position.Variants()); err != nil {
		fmt.Fprintln(os.Stderr, "gensuite:", err)
		os.Exit(1)
	}
}

// write writes the suite of variants to out.
func write(out io.Writer, variants []*position.Variant) error {
	var b strings.Builder
	b.WriteString(header)
	for _, v := range variants {
		fmt.Fprintf(&b, "\n# section: midgame\n%s\n", strings.Join(midgames(v), "\n"))
		fmt.Fprintf(&b, "\n# section: endgame\n%s\n", strings.Join(endgames(v), "\n"))
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// games plays up to 200 games of v (rng seeded with 2024 and v's ID, so
// every call plays the same games), calling pick with each until it
// returns true.
func games(v *position.Variant, pick func(game int, positions []position.Position) (done bool)) {
	rng := rand.New(rand.NewPCG(2024, uint64(v.ID)))
	for game := 0; game < 200; game++ {
		if pick(game, playGame(v, rng)) {
			return
		}
	}
}

// midgames returns v's two midgame lines: the first position with at most
// three quarters of the seeds of the first two games that go on 4 plies or
// more after it.
func midgames(v *position.Variant) []string {
	var mid []string
	games(v, func(game int, positions []position.Position) bool {
		if ply, ok := midgamePly(v, positions); ok {
			mid = append(mid, fmt.Sprintf("%s # %s, plausible play, game %d ply %d of %d, %d seeds",
				position.Format(v, positions[ply]), v.Name, game, ply, len(positions), positions[ply].Seeds()))
		}
		return len(mid) == 2
	})
	return mid
}

// endgames returns v's three endgame lines (endgameLine) from the same
// games.
func endgames(v *position.Variant) []string {
	var end []string
	games(v, func(game int, positions []position.Position) bool {
		if line, ok := endgameLine(v, positions, game); ok {
			end = append(end, line)
		}
		return len(end) == 3
	})
	return end
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
// (or 600 plies) and returns the positions met, the start first; the last
// position of a game that ended is left out (it has no moves).
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
	return game[:len(game)-1]
}

// endgameSeeds is the seed count per variant below which positions of
// plausible play are often proved in well under a second.
var endgameSeeds = map[string]int{"awari": 9, "oware": 9, "akon": 14, "djenon-abe": 26, "djenon-aboure": 40}

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
// most endgameSeeds seeds, if one thread proves it in 5 ms to 2 s.
func endgameLine(v *position.Variant, positions []position.Position, game int) (string, bool) {
	for ply, p := range positions {
		if p.Seeds() > endgameSeeds[v.Name] {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res, _ := solver.Search(ctx, v, p, solver.Options{Threads: 1, HashMiB: 64})
		if res.Stop != solver.StopExact || res.Elapsed < 5*time.Millisecond {
			return "", false
		}
		return fmt.Sprintf("%s # %s, plausible play, game %d ply %d, %d seeds, value %+d, %.2f s",
			position.Format(v, p), v.Name, game, ply, p.Seeds(), res.Value, res.Elapsed.Seconds()), true
	}
	return "", false
}

const header = `# Solver benchmark suite: positions from play, per variant, one a line.
#
# Source: games of plausible play from the start position (the largest
# capture four times in five, ties at random, else any legal move), a
# PCG random generator seeded (2024, variant ID). Generated by
#   go run ./internal/cmd/gensuite > bench/testdata/solve-suite.txt
# (internal/cmd/gensuite), which also says how positions are picked.
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
