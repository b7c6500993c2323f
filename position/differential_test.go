package position

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position/reference"
)

// toState converts a packed position to the reference implementation's
// absolute form.
func toState(v *Variant, p Position) reference.State {
	row1, row2 := p.Rows()
	return reference.State{Variant: v.Name, Rows: [2][]int{UnpackRow(row1, v.Pits), UnpackRow(row2, v.Pits)}, ToMove: p.Player()}
}

// settled is the packed engine's view of a position after any forced pass,
// in the reference's terms.
func settled(v *Variant, p Position) (reference.State, bool) {
	var buf [MaxPits]Move
	if n := v.Moves(p, &buf); n == 1 && buf[0].IsPass() {
		return toState(v, buf[0].Next), true
	}
	return toState(v, p), false
}

// compareWithReference checks one position: game end and shares, forced
// pass, the legal-move set, and every legal move's board, captures, pass
// and next player.
func compareWithReference(v *Variant, p Position) error {
	var buf [MaxPits]Move
	n := v.Moves(p, &buf)
	s := toState(v, p)
	if pass := n == 1 && buf[0].IsPass(); pass != reference.MustPass(s) {
		return fmt.Errorf("must pass: packed %v, reference %v", pass, !pass)
	} else if pass {
		p, s = buf[0].Next, toState(v, buf[0].Next)
		n = v.Moves(p, &buf)
	}
	over, shares := reference.GameOver(s)
	if over != (n == 0) {
		return fmt.Errorf("game over: packed %v, reference %v", n == 0, over)
	}
	if over {
		own, opp := v.Shares(p)
		if p.Side == 1 {
			own, opp = opp, own
		}
		if [2]int{own, opp} != shares {
			return fmt.Errorf("shares: packed %d-%d, reference %v", own, opp, shares)
		}
		return nil
	}
	pits := make([]int, n)
	for i, m := range buf[:n] {
		pits[i] = int(m.Pit)
	}
	if want := reference.LegalMoves(s); !reflect.DeepEqual(pits, want) {
		return fmt.Errorf("legal moves: packed %v, reference %v", pits, want)
	}
	for _, m := range buf[:n] {
		want, captured, passed, err := reference.Apply(s, int(m.Pit))
		if err != nil {
			return fmt.Errorf("move %d: reference refuses it: %v", m.Pit, err)
		}
		got, gotPassed := settled(v, m.Next)
		if int(m.Captured) != captured || gotPassed != passed || !reflect.DeepEqual(got, want) {
			return fmt.Errorf("move %d: packed %v captured %d passed %v; reference %v captured %d passed %v",
				m.Pit, got, m.Captured, gotPassed, want, captured, passed)
		}
	}
	return nil
}

// TestDifferential compares the packed engine with the reference
// implementation on random reachable positions: 1,000,000 a variant with
// MANCALA_LONG=1, 40,000 by default, 5,000 under -short, and for each of
// the 72 kalah variants (36 sizes, two capture rules) 30,000, 3,000 and 500. Games are random playouts from the start,
// restarted when they end, with a fixed seed per variant.
func TestDifferential(t *testing.T) {
	count := testsize.Pick(5_000, 40_000, 1_000_000)
	kalahCount := testsize.Pick(500, 3_000, 30_000)
	var wg sync.WaitGroup
	check := func(v *Variant, count int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := differential(v, count); err != nil {
				t.Errorf("%s: %v", v.Name, err)
			}
		}()
	}
	for _, v := range Variants() {
		check(v, count)
	}
	for _, v := range KalahVariants() {
		check(v, kalahCount)
	}
	wg.Wait()
}

func differential(v *Variant, count int) error {
	rng := rand.New(rand.NewPCG(7, uint64(v.ID)))
	var buf [MaxPits]Move
	p := v.Start()
	for i := 0; i < count; i++ {
		if err := compareWithReference(v, p); err != nil {
			return fmt.Errorf("%s: %v", Format(v, p), err)
		}
		n := v.Moves(p, &buf)
		if n == 0 {
			p = v.Start()
			continue
		}
		p = buf[rng.IntN(n)].Next
	}
	return nil
}
