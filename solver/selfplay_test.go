package solver

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// SelfPlayEnv, set to a node budget per move, runs TestSelfPlay.
const SelfPlayEnv = "MANCALA_SELFPLAY"

// TestSelfPlay plays EstimateTuned against EstimateRows in oware (or
// against the committed weights, MANCALA_SELFPLAY_BASE=tuned, when
// MANCALA_WEIGHTS gives candidate weights): every
// opening of two plies and every sixth of three, each played twice with
// the colours swapped, at a fixed node budget per move (so that the load
// on the machine does not bias it), one thread, no tablebase. It reports
// the tuned side's wins, draws and losses (by the game's final scores).
// MANCALA_SELFPLAY_PLAY=1 gives the tuned side Options.Play
// (with MANCALA_SELFPLAY_BASE=tuned: sharing against not sharing).
//
//	MANCALA_SELFPLAY=20000 go test ./solver -run TestSelfPlay -v -timeout 2h
func TestSelfPlay(t *testing.T) {
	env := os.Getenv(SelfPlayEnv)
	if env == "" {
		t.Skipf("set %s to a node budget per move", SelfPlayEnv)
	}
	nodes, err := strconv.ParseUint(env, 10, 64)
	if err != nil || nodes == 0 {
		t.Fatalf("%s=%q: want a node count", SelfPlayEnv, env)
	}
	v := mustVariant(t, "oware")
	if name := os.Getenv("MANCALA_SELFPLAY_VARIANT"); name != "" {
		v = mustVariant(t, name)
	}
	openings := selfPlayOpenings(v)
	type job struct {
		opening   []int
		tunedSide int // 0: the tuned estimate plays player 1
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var wins, draws, losses int
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				score := playMatchGame(t, v, j.opening, j.tunedSide, nodes)
				mu.Lock()
				switch {
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
	for _, o := range openings {
		for side := range 2 {
			jobs <- job{o, side}
		}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%s, %d nodes a move (the rows side %.2f times as many), %d games: tuned estimate %d wins, %d draws, %d losses against the %s estimate",
		v.Name, nodes, rowsFactor(t), wins+draws+losses, wins, draws, losses, baseEstimate(t))
}

// selfPlayOpenings lists every line of two plies from the start and every
// sixth of three.
func selfPlayOpenings(v *position.Variant) [][]int {
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
		for _, m := range moves {
			walk(m.Next, append(append([]int(nil), line...), int(m.Pit)))
		}
	}
	walk(v.Start(), nil)
	return out
}

// playMatchGame plays one game from opening, the tuned estimate as player
// tunedSide+1, and returns the tuned side's final score less the other's.
func playMatchGame(t *testing.T, v *position.Variant, opening []int, tunedSide int, nodes uint64) int {
	var solvers [2]*Solver
	base := baseEstimate(t)
	for side, e := range [2]Estimate{base, base} {
		if side == tunedSide {
			e = EstimateTuned
		}
		budget := nodes
		if side != tunedSide {
			budget = uint64(float64(nodes) * rowsFactor(t))
		}
		share := side == tunedSide && os.Getenv("MANCALA_SELFPLAY_PLAY") == "1"
		s, err := New(Options{Threads: 1, HashMiB: 16, Estimate: e, MaxNodes: budget, Play: share})
		if err != nil {
			t.Error(err)
			return 0
		}
		if w := os.Getenv("MANCALA_WEIGHTS"); w != "" && side == tunedSide {
			s.weights = parseWeights(t, w)
		}
		solvers[side] = s
	}
	g := position.NewGame(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	for _, pit := range opening {
		if _, err := g.Play(pit); err != nil {
			t.Errorf("opening %v: %v", opening, err)
			return 0
		}
	}
	for ply := 0; !g.Over && ply < 600; ply++ {
		s := solvers[g.Position.Side]
		res, err := s.SearchRequest(context.Background(), v, g.Position, Request{History: g.Layer(len(g.Line))})
		if err != nil || len(res.BestMoves) == 0 {
			t.Errorf("%s: %v %+v", position.Format(v, g.Position), err, res)
			return 0
		}
		move := res.BestMoves[0]
		if len(res.PV) > 0 {
			move = res.PV[0]
		}
		if _, err := g.Play(move); err != nil {
			t.Errorf("%s: %v", position.Format(v, g.Position), err)
			return 0
		}
	}
	final := g.Final
	if !g.Over { // adjudicate a game that runs too long by its captures
		final = g.Captured
	}
	d := final[tunedSide] - final[1-tunedSide]
	t.Logf("%v tuned=%d: %d-%d (%s)", opening, tunedSide+1, final[0], final[1], g.End)
	return d
}

// baseEstimate is the other side's estimate: MANCALA_SELFPLAY_BASE,
// default rows.
func baseEstimate(t *testing.T) Estimate {
	name := os.Getenv("MANCALA_SELFPLAY_BASE")
	if name == "" {
		return EstimateRows
	}
	e, ok := ParseEstimate(name)
	if !ok {
		t.Fatalf("MANCALA_SELFPLAY_BASE=%q: want rows or tuned", name)
	}
	return e
}

// rowsFactor is MANCALA_SELFPLAY_ROWS, default 1: the rows side's node
// budget as a multiple of the tuned side's, to make up for the tuned
// estimate's slower nodes (about 1.2 makes the two equal in CPU time).
func rowsFactor(t *testing.T) float64 {
	env := os.Getenv("MANCALA_SELFPLAY_ROWS")
	if env == "" {
		return 1
	}
	f, err := strconv.ParseFloat(env, 64)
	if err != nil || f <= 0 {
		t.Fatalf("MANCALA_SELFPLAY_ROWS=%q: want a positive factor", env)
	}
	return f
}

// parseWeights reads MANCALA_WEIGHTS: the tuned side's weights, comma
// separated in feature order, for trying candidates.
func parseWeights(t *testing.T, s string) *[nFeatures]int32 {
	var w [nFeatures]float64
	for i, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || i >= nFeatures {
			t.Fatalf("MANCALA_WEIGHTS=%q: want %d numbers", s, nFeatures)
		}
		w[i] = x
	}
	return fixedWeights(&w)
}
