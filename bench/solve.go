package bench

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// suiteText is the solver's fixed suite: positions from play, per variant,
// in sections "midgame" and "endgame" (see the file's header).
//
//go:embed testdata/solve-suite.txt
var suiteText string

// SolveDepth is the fixed depth of the midgame searches, in plies.
const SolveDepth = 14

// SuitePosition is one line of the suite.
type SuitePosition struct {
	Section string // "midgame" or "endgame"
	Setup   position.Setup
}

// Suite parses the embedded solver suite.
func Suite() ([]SuitePosition, error) {
	var suite []SuitePosition
	section := ""
	sc := bufio.NewScanner(strings.NewReader(suiteText))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if s, ok := strings.CutPrefix(text, "# section: "); ok {
			section = strings.TrimSpace(s)
			continue
		}
		if text, _, _ = strings.Cut(text, "#"); strings.TrimSpace(text) == "" {
			continue
		}
		st, err := position.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("solve suite line %d: %w", line, err)
		}
		suite = append(suite, SuitePosition{Section: section, Setup: st})
	}
	return suite, nil
}

// Solve runs the solver's suite per variant: nodes per second on the
// midgame positions searched to SolveDepth, and seconds to an exact value
// (best moves included) on the endgame positions, each on one thread and
// on opts.Threads, with the speedups. The one-thread node count at
// SolveDepth is a signature: it changes when the search changes. A variant
// the suite has no midgames or endgames of is an error.
func Solve(ctx context.Context, variants []*position.Variant, opts Options) ([]Figure, []Ratio, []Signature, error) {
	suite, err := Suite()
	if err != nil {
		return nil, nil, nil, err
	}
	var figures []Figure
	var ratios []Ratio
	var signatures []Signature
	for _, v := range variants {
		mid, end := sectionOf(suite, v, "midgame"), sectionOf(suite, v, "endgame")
		if len(mid) == 0 || len(end) == 0 {
			return figures, ratios, signatures, fmt.Errorf("bench solve: the suite has no %s positions (it has the five games of rules.md)", v.Name)
		}
		var byThreads [2][2]Figure // zero where not measured
		for t, threads := range threadCounts(opts.Threads) {
			var nodes uint64
			f := Figure{Group: "solve", Name: fmt.Sprintf("midgames to depth %d", SolveDepth), Variant: v.Name,
				Threads: threads, Unit: "nodes/s"}
			if f, ok := repeat(ctx, f, opts, func() float64 {
				var secs float64
				nodes, secs, err = searchAll(ctx, v, mid, threads, SolveDepth)
				return float64(nodes) / secs
			}); ok {
				byThreads[t][0], figures = f, append(figures, f)
				if threads == 1 {
					signatures = append(signatures, Signature{Group: "solve", Variant: v.Name,
						Name: fmt.Sprintf("nodes of the midgames to depth %d, 1 thread", SolveDepth), Value: nodes})
				}
			}
			f = Figure{Group: "solve", Name: "endgames to exact", Variant: v.Name, Threads: threads, Unit: "s/position"}
			if f, ok := repeat(ctx, f, opts, func() float64 {
				var secs float64
				_, secs, err = searchAll(ctx, v, end, threads, 0)
				return secs / float64(max(len(end), 1))
			}); ok {
				byThreads[t][1], figures = f, append(figures, f)
			}
			if err != nil {
				return figures, ratios, signatures, err
			}
		}
		if opts.Threads > 1 && byThreads[0][0].Median > 0 && byThreads[1][0].Median > 0 &&
			byThreads[0][1].Median > 0 && byThreads[1][1].Median > 0 {
			ratios = append(ratios,
				Ratio{Group: "solve", Name: "nodes/s speedup, all threads / 1", Variant: v.Name,
					Value: byThreads[1][0].Median / byThreads[0][0].Median},
				Ratio{Group: "solve", Name: "time-to-exact speedup, 1 thread / all", Variant: v.Name,
					Value: byThreads[0][1].Median / byThreads[1][1].Median})
		}
	}
	return figures, ratios, signatures, nil
}

func sectionOf(suite []SuitePosition, v *position.Variant, section string) []position.Position {
	var out []position.Position
	for _, sp := range suite {
		if sp.Section == section && sp.Setup.Variant == v {
			out = append(out, sp.Setup.Position)
		}
	}
	return out
}

// searchAll searches each position with a fresh table, to depth (0: until
// exact, when an inexact result is an error), and returns the nodes and
// seconds of all the searches.
func searchAll(ctx context.Context, v *position.Variant, positions []position.Position, threads, depth int) (uint64, float64, error) {
	s, err := solver.New(solver.Options{Threads: threads, HashMiB: 64, MaxDepth: depth})
	if err != nil {
		return 0, 0, err
	}
	var nodes uint64
	var elapsed time.Duration
	for _, p := range positions {
		s.Clear()
		res, err := s.Search(ctx, v, p)
		if err != nil {
			return nodes, elapsed.Seconds(), err
		}
		if depth == 0 && !res.Exact && ctx.Err() == nil {
			return nodes, elapsed.Seconds(), fmt.Errorf("bench: %s not solved exactly", position.Format(v, p))
		}
		nodes, elapsed = nodes+res.Nodes, elapsed+res.Elapsed
	}
	return nodes, max(elapsed.Seconds(), 1e-9), nil
}
