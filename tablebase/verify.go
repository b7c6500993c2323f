package tablebase

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mancala-solver/mancala/position"
)

// maxReported is how many bad positions a layer check names.
const maxReported = 10

// LayerCheck is the outcome of re-checking one stored layer.
type LayerCheck struct {
	Seeds      int      `json:"seeds"`
	Positions  int64    `json:"positions"`
	ChecksumOK bool     `json:"checksum_ok"`
	Unreadable string   `json:"unreadable,omitempty"` // why the layer could not be read
	Mismatches int64    `json:"mismatches"`           // positions whose value or distance disagrees with their moves
	Examples   []string `json:"examples,omitempty"`   // up to 10 of them, described
}

// OK reports whether the layer passed every check.
func (c LayerCheck) OK() bool { return c.ChecksumOK && c.Unreadable == "" && c.Mismatches == 0 }

// VerifyOptions configures Verify.
type VerifyOptions struct {
	Threads  int                                // 0: runtime.GOMAXPROCS(0)
	Progress func(layer int, done, total int64) // as in BuildOptions; total = 3 per position
}

// ErrInconsistent is wrapped by Verify's error when a check failed.
var ErrInconsistent = errors.New("tablebase is inconsistent")

// Verify re-checks every stored layer of v in dir: its files against the
// sizes and checksums its build recorded, its values' checksum, and each position's value against its moves (rules.md 6):
// with no moves, value == TerminalValue; else value == max over moves of
// the moves' values (position.Move.Value). It returns one LayerCheck a layer, and an error
// wrapping ErrInconsistent that names the first failing layer and
// position when any check fails, or a *DamageError (ErrDamaged) for
// damaged files or metadata, which says how to repair them; the layers
// above a damaged one are not checked. The equations hold for the true
// values but also for some wrong ones inside cycles; the tests compare
// the values themselves with independent references.
func Verify(ctx context.Context, dir string, v *position.Variant, opts VerifyOptions) ([]LayerCheck, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	s, err := openStore(dir, v, false)
	if err != nil {
		return nil, err
	}
	defer s.close()
	infos, damage := s.layers()
	if err := checkFormat(dir, v, infos); err != nil {
		return nil, err
	}
	opts.Threads = withDefaults(BuildOptions{Threads: opts.Threads}).Threads
	ix := NewIndex(v.Pits)
	var checks []LayerCheck
	var first error
	var lower [][]int8
	for n, info := range complete(infos) {
		check, values := verifyLayer(ctx, s, v, ix, info, lower, opts)
		if err := ctx.Err(); err != nil {
			return checks, err
		}
		checks = append(checks, check)
		if !check.OK() && first == nil {
			first = fmt.Errorf("%w: %s layer %d: %s", ErrInconsistent, v.Name, n, describe(check))
			if !check.ChecksumOK || check.Unreadable != "" {
				// The stored bytes changed since the build: damage, which a repair fixes.
				first = &DamageError{Dir: dir, Variant: v.Name, Seeds: n, Top: s.topLayer(), Detail: describe(check), Cause: first}
			}
		}
		if check.Unreadable != "" {
			break // the layers above depend on this one's values: nothing to check them against
		}
		lower = append(lower, values)
	}
	var dmg *DamageError
	if errors.As(damage, &dmg) && len(checks) == len(infos) {
		// The metadata of layer dmg.Seeds is damaged: nothing above it is served.
		checks = append(checks, LayerCheck{Seeds: dmg.Seeds, Positions: ix.Size(dmg.Seeds), Unreadable: dmg.Detail})
	}
	if first == nil && damage != nil {
		first = damage
	}
	return checks, first
}

// describe sums up a failed layer check in one line.
func describe(c LayerCheck) string {
	switch {
	case c.Unreadable != "":
		return c.Unreadable
	case c.Mismatches > 0:
		return fmt.Sprintf("%d positions disagree with their moves, first %s", c.Mismatches, c.Examples[0])
	}
	return "checksum mismatch"
}

// verifyLayer checks one layer; it returns the values it read (zero values
// when the layer is unreadable) for the layers above.
func verifyLayer(ctx context.Context, s *store, v *position.Variant, ix *Index, info LayerInfo, lower [][]int8, opts VerifyOptions) (LayerCheck, []int8) {
	check := LayerCheck{Seeds: info.Seeds, Positions: info.Positions, ChecksumOK: true}
	size := ix.Size(info.Seeds)
	if info.Positions != size || info.BlockSize != BlockSize {
		check.Unreadable = fmt.Sprintf("metadata says %d positions in blocks of %d, want %d in blocks of %d", info.Positions, info.BlockSize, size, BlockSize)
		return check, make([]int8, size)
	}
	values, err := s.loadLayer(info)
	var sumErr *ChecksumError
	var dmg *DamageError
	switch {
	case errors.As(err, &sumErr):
		check.ChecksumOK = false
	case errors.As(err, &dmg):
		check.Unreadable = dmg.Detail
		return check, make([]int8, size)
	case err != nil:
		check.Unreadable = err.Error()
		return check, make([]int8, size)
	}
	ls := layerVerifier{&layerSolver{v: v, ix: ix, n: info.Seeds, size: size, lower: memLower(lower), threads: opts.Threads,
		prog: newProgress(info.Seeds, size, opts.Progress)}}
	dist, err := s.loadDistances(info)
	if err != nil {
		check.Unreadable = err.Error()
	}
	var mu sync.Mutex
	_ = ls.forChunks(ctx, func(lo, hi int64) error {
		bad, examples := ls.checkRange(lo, hi, values)
		if dist != nil {
			badDist, distExamples := ls.checkDistanceRange(lo, hi, values, dist)
			bad, examples = bad+badDist, append(examples, distExamples...)
		}
		mu.Lock()
		defer mu.Unlock()
		check.Mismatches += bad
		for _, e := range examples {
			if len(check.Examples) < maxReported {
				check.Examples = append(check.Examples, e)
			}
		}
		ls.prog.add(3 * (hi - lo))
		return nil
	})
	return check, values
}

// layerVerifier re-derives a stored layer's values and distances from its
// moves, with the build's view of a layer (its variant, index and the
// values of the layers below) but none of its propagation.
type layerVerifier struct{ *layerSolver }

// mismatches walks ranks [lo, hi) and counts the positions for which
// wrong describes a disagreement, keeping the first few descriptions.
func (s layerVerifier) mismatches(lo, hi int64, wrong func(i int64, p position.Position, buf *[position.MaxPits]position.Move) string) (int64, []string) {
	var buf [position.MaxPits]position.Move
	var bad int64
	var examples []string
	c := s.ix.newCursor(s.n, uint64(lo))
	for i := lo; i < hi; i++ {
		if i > lo {
			c.next()
		}
		if what := wrong(i, c.position(), &buf); what != "" {
			if bad++; len(examples) < maxReported {
				examples = append(examples, what)
			}
		}
	}
	return bad, examples
}

// checkRange re-derives each value of ranks [lo, hi) from its moves and
// returns how many disagree, describing the first few.
func (s layerVerifier) checkRange(lo, hi int64, values []int8) (int64, []string) {
	return s.mismatches(lo, hi, func(i int64, p position.Position, buf *[position.MaxPits]position.Move) string {
		if want := s.derive(p, values, buf); int(values[i]) != want {
			return fmt.Sprintf("%s (rank %d): stored %d, its moves give %d", position.Format(s.v, p), i, values[i], want)
		}
		return ""
	})
}

// checkDistanceRange re-derives the distance of each position of ranks
// [lo, hi) from its moves and the stored values and distances (the
// equations in doc.go) and returns how many disagree, describing the
// first few.
func (s layerVerifier) checkDistanceRange(lo, hi int64, values []int8, dist []uint16) (int64, []string) {
	return s.mismatches(lo, hi, func(i int64, p position.Position, buf *[position.MaxPits]position.Move) string {
		if want := s.deriveDistance(p, values, dist, buf); want != int(dist[i]) {
			return fmt.Sprintf("%s (rank %d): stored distance %d, its moves give %d", position.Format(s.v, p), i, dist[i], want)
		}
		return ""
	})
}

// derive returns the value that p's moves give, from the stored values of
// its layer and the layers below.
func (s layerVerifier) derive(p position.Position, values []int8, buf *[position.MaxPits]position.Move) int {
	nm := s.v.Moves(p, buf)
	if nm == 0 {
		return s.v.TerminalValue(p)
	}
	best := -1 << 30
	for j := range buf[:nm] {
		m := &buf[j]
		if m.Captured > 0 {
			best = max(best, int(s.exitValue(p, m)))
		} else {
			best = max(best, m.Value(p, int(values[s.ix.Rank(m.Next)])))
		}
	}
	return best
}

// deriveDistance returns the distance that p's moves give: 0 for value 0
// or no moves; else the shortest (winner) or longest (loser) of its
// value-keeping moves, a capture counting 1 and a move inside the layer
// 1 + its child's distance.
func (s layerVerifier) deriveDistance(p position.Position, values []int8, dist []uint16, buf *[position.MaxPits]position.Move) int {
	v := int(values[s.ix.Rank(p)])
	nm := s.v.Moves(p, buf)
	if v == 0 || nm == 0 {
		return 0
	}
	best := -1
	for j := range buf[:nm] {
		m := &buf[j]
		value, d := 0, 1
		if m.Captured > 0 {
			value = int(s.exitValue(p, m))
		} else {
			q := s.ix.Rank(m.Next)
			value, d = m.Value(p, int(values[q])), 1+int(dist[q])
		}
		if value == v && (best < 0 || (v > 0 && d < best) || (v < 0 && d > best)) {
			best = d
		}
	}
	return best
}
