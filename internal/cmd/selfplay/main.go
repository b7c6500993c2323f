// Command selfplay plays the solver's tuned estimate (the variant's
// committed weights: its own where solver has them, else oware's) against
// the rows estimate (or against the committed weights, -base tuned, when
// -weights gives candidate weights) in a variant, oware by default: every
// opening of two plies and every
// sixth of three, each played twice with the colours swapped, at a fixed
// node budget a move (so that the load on the machine does not bias it),
// one thread a game, two games at once, no tablebase. It prints each game
// and the tuned side's wins, draws and losses by the game's final scores.
//
//	go run ./internal/cmd/selfplay -nodes 20000 [-variant awari] [-base tuned -weights w1,w2,...] [-rows 1.2] [-play]
//
// -rows gives the other side's node budget as a multiple of the tuned
// side's (about 1.2 makes the two equal in CPU time); -play gives the
// tuned side solver.Options.Play. See docs/solver-design.md, "The horizon
// estimate", and docs/testing.md for the other operator tools.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// match is one self-play run's settings.
type match struct {
	v       *position.Variant
	nodes   uint64          // the tuned side's node budget a move
	rows    float64         // the other side's budget, as a multiple of nodes
	base    solver.Estimate // the other side's estimate
	weights []float64       // the tuned side's weights; nil: the committed ones
	play    bool            // the tuned side shares its search across moves (Options.Play)
	out     io.Writer
	mu      sync.Mutex // guards out
}

func main() {
	nodes := flag.Uint64("nodes", 0, "node budget a move of the tuned side (required)")
	variant := flag.String("variant", "oware", "the variant played")
	base := flag.String("base", "rows", "the other side's estimate: rows or tuned")
	weights := flag.String("weights", "", "the tuned side's weights, comma separated in feature order (default: the committed ones)")
	rows := flag.Float64("rows", 1, "the other side's node budget as a multiple of -nodes")
	play := flag.Bool("play", false, "give the tuned side solver.Options.Play")
	flag.Parse()
	m, err := setup(*nodes, *variant, *base, *weights, *rows, *play)
	if err == nil {
		m.out = os.Stdout
		var w, d, l int
		w, d, l, err = m.run()
		if err == nil {
			fmt.Printf("%s, %d nodes a move (the %s side %.2f times as many), %d games: tuned estimate %d wins, %d draws, %d losses against the %s estimate\n",
				m.v.Name, m.nodes, m.base, m.rows, w+d+l, w, d, l, m.base)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "selfplay:", err)
		os.Exit(1)
	}
}

// setup checks the flags.
func setup(nodes uint64, variant, base, weights string, rows float64, play bool) (*match, error) {
	m := &match{nodes: nodes, rows: rows, play: play}
	var err error
	if m.v, err = position.Lookup(variant); err != nil {
		return nil, fmt.Errorf("-variant: %w", err)
	}
	if nodes == 0 {
		return nil, fmt.Errorf("-nodes: give a node budget a move")
	}
	if !(rows > 0) {
		return nil, fmt.Errorf("-rows %g: want a positive factor", rows)
	}
	var ok bool
	if m.base, ok = solver.ParseEstimate(base); !ok || (m.base != solver.EstimateRows && m.base != solver.EstimateTuned) {
		return nil, fmt.Errorf("-base %q: want rows or tuned", base)
	}
	if weights != "" {
		for _, f := range strings.Split(weights, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil, fmt.Errorf("-weights %q: %q is not a number", weights, f)
			}
			m.weights = append(m.weights, x)
		}
		if len(m.weights) != len(solver.FeatureNames()) {
			return nil, fmt.Errorf("-weights: %d numbers, want %d (%s)", len(m.weights), len(solver.FeatureNames()), strings.Join(solver.FeatureNames(), ","))
		}
	}
	return m, nil
}

// run plays every opening twice, two games at once, and counts the tuned
// side's results.
func (m *match) run() (wins, draws, losses int, err error) {
	type job struct {
		opening   []int
		tunedSide int // 0: the tuned estimate plays player 1
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				score, gerr := m.game(j.opening, j.tunedSide)
				mu.Lock()
				switch {
				case gerr != nil:
					if err == nil {
						err = gerr
					}
				case score > 0:
					wins++
				case score < 0:
					losses++
				default:
					draws++
				}
				mu.Unlock()
			}
		}()
	}
	for _, o := range openings(m.v) {
		for side := range 2 {
			jobs <- job{o, side}
		}
	}
	close(jobs)
	wg.Wait()
	return wins, draws, losses, err
}

// openings lists every line of two plies from the start and every sixth
// of three.
func openings(v *position.Variant) [][]int {
	var out [][]int
	var buf [position.MaxPits]position.Move
	k := 0
	var walk func(p position.Position, line []int)
	walk = func(p position.Position, line []int) {
		if len(line) >= 2 {
			if len(line) == 2 {
				out = append(out, line)
			} else if k++; k%6 == 0 {
				out = append(out, line)
			}
			if len(line) == 3 {
				return
			}
		}
		n := v.Moves(p, &buf)
		moves := append([]position.Move(nil), buf[:n]...)
		for _, mv := range moves {
			walk(mv.Next, append(append([]int(nil), line...), int(mv.Pit)))
		}
	}
	walk(v.Start(), nil)
	return out
}

// game plays one game from opening, the tuned estimate as player
// tunedSide+1, and returns the tuned side's final score less the other's
// (a game of 600 plies is adjudicated by its captures).
func (m *match) game(opening []int, tunedSide int) (int, error) {
	var solvers [2]*solver.Solver
	for side := range 2 {
		e, budget, share := m.base, uint64(float64(m.nodes)*m.rows), false
		if side == tunedSide {
			e, budget, share = solver.EstimateTuned, m.nodes, m.play
		}
		s, err := solver.New(solver.Options{Threads: 1, HashMiB: 16, Estimate: e, MaxNodes: budget, Play: share})
		if err != nil {
			return 0, err
		}
		if m.weights != nil && side == tunedSide {
			if err := s.SetWeights(m.weights); err != nil {
				return 0, err
			}
		}
		solvers[side] = s
	}
	v := m.v
	g := position.NewGame(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	for _, pit := range opening {
		if _, err := g.Play(pit); err != nil {
			return 0, fmt.Errorf("opening %v: %w", opening, err)
		}
	}
	for ply := 0; !g.Over && ply < 600; ply++ {
		res, err := solvers[g.Position.Side].SearchRequest(context.Background(), v, g.Position, solver.Request{History: g.Layer(len(g.Line))})
		if err != nil || len(res.BestMoves) == 0 {
			return 0, fmt.Errorf("%s: no move (%v)", position.Format(v, g.Position), err)
		}
		move := res.BestMoves[0]
		if len(res.PV) > 0 {
			move = res.PV[0]
		}
		if _, err := g.Play(move); err != nil {
			return 0, fmt.Errorf("%s: %w", position.Format(v, g.Position), err)
		}
	}
	final := g.Final
	if !g.Over {
		final = g.Captured
	}
	m.mu.Lock()
	fmt.Fprintf(m.out, "%v tuned=%d: %d-%d (%s)\n", opening, tunedSide+1, final[0], final[1], g.End)
	m.mu.Unlock()
	return final[tunedSide] - final[1-tunedSide], nil
}
