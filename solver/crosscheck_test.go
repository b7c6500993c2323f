package solver_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// TestSearchAgreesWithTablebase cross-checks two independent methods on
// the same positions: the exact value found by search without a
// tablebase, and the value that retrograde analysis stored. Positions
// come from seeded random playouts, stopped at the first position within
// built layers; searches are capped in nodes, and those that do not
// finish exactly are skipped (at least half must finish); one thread keeps
// which ones finish the same from run to run. Each position is searched
// with each horizon estimate (the tuned one in every variant, tuned for
// oware or not): estimates may change which searches finish, never a
// proven value.
func TestSearchAgreesWithTablebase(t *testing.T) {
	// Awari's and oware's cycling endgames are slow to prove beyond a few
	// seeds (see doc.go on repetitions), so their positions are smaller;
	// the short run (and -race) searches a seed or two fewer: the same
	// cycles, a fraction of the nodes.
	layers := map[string]int{"awari": 6, "oware": 6, "akon": 8, "djenon-abe": 10, "djenon-aboure": 10}
	if testsize.Short() {
		layers = map[string]int{"awari": 5, "oware": 5, "akon": 7, "djenon-abe": 8, "djenon-aboure": 8}
	}
	want := testsize.Pick(3, 4, 16) // positions a variant
	// Nodes a search: the short run's exact searches take at most
	// 204,665 (akon's second position, rows estimate); its searches that
	// do not finish took 0.5 to 3 million nodes each, most of oware's
	// 32 s under -race.
	maxNodes := testsize.Pick[uint64](300_000, 3_000_000, 3_000_000)
	for _, v := range position.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := tablebase.Build(context.Background(), dir, v, tablebase.BuildOptions{MaxSeeds: layers[v.Name]}); err != nil {
				t.Fatal(err)
			}
			tb, err := tablebase.OpenProber(dir, v)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			rng := rand.New(rand.NewPCG(11, uint64(v.ID)))
			exact := 0
			for i := 0; i < want; i++ {
				p := playoutTo(v, rng, layers[v.Name])
				stored, ok := tb.Probe(p)
				if !ok {
					t.Fatalf("%s: not in the tablebase", position.Format(v, p))
				}
				for i, e := range []solver.Estimate{solver.EstimateRows, solver.EstimateTuned} {
					// The tuned estimate's search lets estimates cross
					// lines, as the engine's does.
					opts := solver.Options{Threads: 1, HashMiB: 8, MaxNodes: maxNodes, Estimate: e, Play: i == 1}
					res, err := solver.Search(context.Background(), v, p, opts)
					if err != nil {
						t.Fatal(err)
					}
					if !res.Exact {
						continue
					}
					exact++
					if res.Value != stored {
						t.Errorf("%s: search with the %s estimate %d, tablebase %d", position.Format(v, p), e, res.Value, stored)
					}
				}
			}
			t.Logf("%d of %d searches exact, all equal to the tablebase", exact, 2*want)
			if exact < want {
				t.Errorf("only %d of %d searches finished exactly", exact, 2*want)
			}
		})
	}
}

// playoutTo plays random moves from the start until the board holds at
// most maxSeeds seeds and the game is not over, restarting games that end
// first.
func playoutTo(v *position.Variant, rng *rand.Rand, maxSeeds int) position.Position {
	var buf [position.MaxPits]position.Move
	for p := v.Start(); ; {
		n := v.Moves(p, &buf)
		switch {
		case n == 0:
			p = v.Start()
		case p.Seeds() <= maxSeeds:
			return p
		default:
			p = buf[rng.IntN(n)].Next
		}
	}
}
