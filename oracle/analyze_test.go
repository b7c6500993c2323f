package oracle

import (
	"context"
	"fmt"
	"github.com/mancala-solver/mancala/internal/testsize"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// randomGame plays random legal moves from a random board of seeds seeds
// to the end of the game (at most 200 plies) and returns the record, with
// forced passes written out, and how it ended.
func randomGame(v *position.Variant, rng *rand.Rand, seeds int) (Game, *position.Game, bool) {
	p, ok := randomBoard(v, rng, seeds)
	if !ok {
		return Game{}, nil, false
	}
	return randomGameFrom(position.Setup{Variant: v, Position: p}, rng)
}

// randomGameFrom is randomGame from a given start.
func randomGameFrom(start position.Setup, rng *rand.Rand) (Game, *position.Game, bool) {
	v := start.Variant
	pg := position.NewGame(start)
	g := Game{Start: start}
	if pg.StartPassed() {
		g.Moves = append(g.Moves, position.PassPit)
	}
	for ply := 0; ply < 200 && !pg.Over; ply++ {
		var buf [position.MaxPits]position.Move
		n := v.Moves(pg.Position, &buf)
		pit := int(buf[rng.IntN(n)].Pit)
		plies, err := pg.Play(pit)
		if err != nil {
			panic(err)
		}
		g.Moves = append(g.Moves, pit)
		if len(plies) == 2 && rng.IntN(2) == 0 { // the move, then a forced pass
			g.Moves = append(g.Moves, position.PassPit) // records may name forced passes, or not
		}
	}
	return g, pg, pg.Over
}

// randomBoard spreads seeds at random over both rows, player 1 or 2 to move.
func randomBoard(v *position.Variant, rng *rand.Rand, seeds int) (position.Position, bool) {
	var pits [2][position.MaxPits]int
	for range seeds {
		pits[rng.IntN(2)][rng.IntN(v.Pits)]++
	}
	r1, r2 := position.PackRow(pits[0][:v.Pits]), position.PackRow(pits[1][:v.Pits])
	p := position.FromRows(r1, r2, 1+rng.IntN(2))
	var buf [position.MaxPits]position.Move
	return p, v.Moves(p, &buf) > 0
}

// TestAnalyzeGames analyses random endgames of every variant and checks
// each ply: against the tablebase where the ply starts its layer (no
// history), within the tablebase's value where it has history (a
// repetition only pulls a value toward 0), loss never negative, and the
// played move's value is the seeds it captured minus the next ply's value
// when the turn passes over and both are exact. The games include one that
// ends by repetition, one with a forced pass and one that ends by
// starvation.
func TestAnalyzeGames(t *testing.T) {
	const seeds = 7
	games := 4
	if testsize.Short() {
		games = 1
	}
	o := newOracle(t, Config{NoTB: true, Threads: 1, HashMiB: 16})
	seen := map[string]int{}
	for _, v := range position.Variants() {
		tb, err := tablebase.BuildMemory(context.Background(), v, seeds, 1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(8, uint64(v.ID)))
		for k := range games + 1 {
			g, pg, ok := randomGame(v, rng, 3+rng.IntN(seeds-2))
			if k == games {
				if v.Name != "djenon-abe" {
					break
				}
				// Player 1 must pass at once (notation.md's example).
				g, pg, ok = randomGameFrom(mustSetup(t, "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1"), rng)
			}
			if !ok {
				continue
			}
			an, err := o.Analyze(context.Background(), g, AnalyzeOptions{Nodes: 300_000})
			if err != nil {
				t.Fatalf("%s: %v", g.Start, err)
			}
			checkAnalysis(t, g, an, tb)
			seen[string(pg.End)]++
			for _, p := range an.Plies {
				if p.Move == Pass {
					seen["pass"]++
					break
				}
			}
		}
	}
	t.Logf("games by how they ended, and with a pass: %v", seen)
	starved := seen[string(position.EndNoSeeds)] + seen[string(position.EndCannotFeed)]
	if seen[string(position.EndRepetition)] == 0 || seen["pass"] == 0 || starved == 0 {
		t.Errorf("want a game ending by repetition, one with a pass and one by starvation: %v", seen)
	}
}

func checkAnalysis(t *testing.T, g Game, an Analysis, tb *tablebase.Memory) {
	t.Helper()
	pg, err := g.replay()
	if err != nil {
		t.Fatal(err)
	}
	plies := pg.Line
	if len(an.Plies) != len(plies) || !an.Complete {
		t.Fatalf("%s: %d plies analysed of %d", g.Start, len(an.Plies), len(plies))
	}
	for i, a := range an.Plies {
		pl := plies[i]
		name := fmt.Sprintf("%s ply %d (%s)", g.Start, a.Ply, a.Position)
		if a.Loss < 0 || a.Loss != max(0, a.Value-a.MoveValue) {
			t.Errorf("%s: loss %d for value %d, move value %d", name, a.Loss, a.Value, a.MoveValue)
		}
		want, ok := tb.Probe(pl.Before.Position)
		if ok && a.Exact {
			switch {
			case len(pg.Layer(i)) == 0 && a.Value != want:
				t.Errorf("%s: value %d, tablebase %d", name, a.Value, want)
			case a.Value*want < 0 || abs(a.Value) > abs(want):
				t.Errorf("%s: value %d after its history, not between 0 and the tablebase's %d", name, a.Value, want)
			}
		}
		if i+1 < len(an.Plies) && a.Exact && an.Plies[i+1].Exact && an.Plies[i+1].Player != a.Player {
			if got := a.Captured - an.Plies[i+1].Value; a.MoveValue != got {
				t.Errorf("%s: move value %d, captured %d minus the next ply's %d", name, a.MoveValue, a.Captured, an.Plies[i+1].Value)
			}
		}
	}
}

func abs(x int) int { return max(x, -x) }

// TestPVRealisesValue plays out the exact principal variations of random
// positions (and of the two examples) and checks that they realise
// the value: the PV is made of best moves only.
func TestPVRealisesValue(t *testing.T) {
	ctx := context.Background()
	// The short run (and -race) takes 3 random positions a variant and
	// gives each search 300,000 nodes, not 3 million: the positions whose
	// PV is checked are the ones proven within that.
	random, nodes := 6, int64(3_000_000)
	if testsize.Short() {
		random, nodes = 3, 300_000
	}
	for _, cfg := range []Config{{NoTB: true, Threads: 1}, {MemTBSeeds: 8, Threads: 1}} {
		o := newOracle(t, cfg)
		setups := []position.Setup{
			mustSetup(t, "akon:0,2,0,1,0,0,0/0,0,0,0,1,0,3:1"),
			mustSetup(t, "djenon-abe:1,0,0,1,1,0/1,1,0,0,0,0:1"),
		}
		for _, v := range position.Variants() {
			rng := rand.New(rand.NewPCG(3, uint64(v.ID)))
			for range random {
				if p, ok := randomBoard(v, rng, 2+rng.IntN(6)); ok {
					setups = append(setups, position.Setup{Variant: v, Position: p})
				}
			}
		}
		checked := 0
		for _, s := range setups {
			a, err := o.Solve(ctx, s, SolveOptions{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Exact || !a.PVComplete {
				continue
			}
			checked++
			if got := playOut(t, s, a.PV); got != a.Value {
				t.Errorf("%s (tablebase %v): pv %v realises %d, value %d", a.Position, !cfg.NoTB, a.PV, got, a.Value)
			}
		}
		if checked < len(setups)/2 {
			t.Errorf("only %d of %d principal variations exact and complete", checked, len(setups))
		}
		t.Logf("tablebase %v: %d of %d principal variations exact, complete and checked", !cfg.NoTB, checked, len(setups))
	}
}

// playOut plays pv from s without the 25-seed stop and returns the score
// difference it realises for s's side to move.
func playOut(t *testing.T, s position.Setup, pv []Move) int {
	t.Helper()
	g := position.NewGameNoStopAt(s)
	for _, m := range pv {
		if _, err := g.Play(int(m)); err != nil {
			t.Fatalf("%s: pv %v: %v", s, pv, err)
		}
	}
	if !g.Over {
		t.Fatalf("%s: pv %v does not end the game", s, pv)
	}
	d := g.Final[0] - g.Final[1]
	if s.Position.Player() == 2 {
		d = -d
	}
	return d
}

// FuzzParseGame: any line parses or fails cleanly; a parsed game prints
// back to a line that parses to the same game.
func FuzzParseGame(f *testing.F) {
	for _, s := range []string{"oware 4 2 6", "awari:1,0,0,0,0,0/1,0,0,0,0,0:1:23-23 1,1,2 # c",
		"djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1 pass 1", "", "#", "akon 8 x", "kalah 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		g, err := ParseGame(line)
		if err != nil {
			return
		}
		var b strings.Builder
		b.WriteString(g.Start.String())
		for _, m := range g.Moves {
			b.WriteString(" " + position.MoveString(m))
		}
		again, err := ParseGame(b.String())
		if err != nil {
			t.Fatalf("%q printed as %q: %v", line, b.String(), err)
		}
		if again.Start != g.Start || fmt.Sprint(again.Moves) != fmt.Sprint(g.Moves) {
			t.Fatalf("%q: %v, again %v", line, g, again)
		}
		_, _ = g.replay() // must not panic
	})
}
