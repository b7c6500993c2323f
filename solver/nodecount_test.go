package solver

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

var nodeCounts = flag.Bool("node-counts", false, "print the node counts of TestNodeCounts")

// TestNodeCounts prints, with -node-counts, the nodes one thread searches
// on every suite position to a fixed depth in each search mode (proof;
// play; proof and play above a tablebase of 6 seeds; play of oware-own
// with that tablebase as estimates; oware's positions under oware-own's
// rules, proof and play), so that a change meant to
// keep the search as it is can show the same counts before and after:
//
//	go test ./solver -run TestNodeCounts -node-counts -v
func TestNodeCounts(t *testing.T) {
	if !*nodeCounts {
		t.Skip("run with -node-counts")
	}
	type mode struct {
		name string
		opts func(v *position.Variant) (Options, bool)
	}
	fake := func(v *position.Variant) Tablebase {
		return hashTablebase{max: 6}
	}
	modes := []mode{
		{"exact", func(*position.Variant) (Options, bool) { return Options{}, true }},
		{"play", func(*position.Variant) (Options, bool) { return Options{Play: true}, true }},
		{"exact+tb", func(v *position.Variant) (Options, bool) {
			return Options{Tablebase: fake(v)}, v.Repetition == position.RepetitionNobody && v.CanRepeat()
		}},
		{"play+tb", func(v *position.Variant) (Options, bool) {
			return Options{Play: true, Tablebase: fake(v)}, v.Repetition == position.RepetitionNobody && v.CanRepeat()
		}},
		{"own", func(v *position.Variant) (Options, bool) { return Options{}, v.Name == "oware" }},
		{"own+play", func(v *position.Variant) (Options, bool) { return Options{Play: true}, v.Name == "oware" }},
		{"own+etb", func(v *position.Variant) (Options, bool) {
			return Options{Play: true, EstimateTablebase: hashTablebase{max: 6}}, v.Name == "oware"
		}},
	}
	own, err := position.Lookup("oware-own")
	if err != nil {
		t.Fatal(err)
	}
	suite := readSuite(t)
	for _, m := range modes {
		var total uint64
		line := ""
		for _, sp := range suite {
			o, ok := m.opts(sp.setup.Variant)
			if !ok {
				continue
			}
			o.Threads, o.HashMiB = 1, 16
			v := sp.setup.Variant
			if strings.HasPrefix(m.name, "own") {
				v = own // oware's positions under oware-own's rules
			}
			n := fixedDepthNodes(t, v, sp.setup.Position, o, 12)
			total += n
			line += fmt.Sprintf(" %d", n)
		}
		t.Logf("%-9s total %d:%s", m.name, total, line)
	}
}

// fixedDepthNodes runs one worker's negamax on p at depths 1..depth, each
// with the full window and then a null window at the value found, and
// returns the nodes searched: no clock, no stop, no second thread, so the
// count depends on the search's rules alone.
func fixedDepthNodes(t *testing.T, v *position.Variant, p position.Position, o Options, depth int) uint64 {
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	sr := newSearch(s, v, p, buf[:n], s.opts, nil)
	sr.start, sr.now = time.Now(), time.Now
	w := newWorker(sr, 0)
	w.noStop = true
	for d := 1; d <= depth; d++ {
		g, _, _ := w.negamax(p, -inf, inf, d, 0, 0, 0)
		w.negamax(p, g-1, g, d, 0, 0, 0)
	}
	return w.nodes
}

// hashTablebase "holds" every position of at most max seeds, valued by a
// hash of the position within -seeds..seeds: wrong values, but fixed
// ones, and free to compute, which is all a node count needs.
type hashTablebase struct{ max int }

func (h hashTablebase) MaxSeeds() int { return h.max }

func (h hashTablebase) Probe(p position.Position) (int, bool) {
	s := p.Seeds()
	if s > h.max {
		return 0, false
	}
	return int(boardHash(p, 0)%uint64(2*s+1)) - s, true
}
