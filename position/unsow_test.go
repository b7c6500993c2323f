package position

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// unsowVariants are the games AppendUnsown applies to, the rule variants
// (oware-own) included.
func unsowVariants(t *testing.T) []*Variant {
	var vs []*Variant
	for _, name := range append(Names(), "oware-own") {
		if v, _ := Lookup(name); v != nil && v.CanUnsow() {
			vs = append(vs, v)
		}
	}
	if len(vs) < 3 {
		t.Fatalf("only %d variants sow skipping the origin", len(vs))
	}
	return vs
}

// quietMovesTo counts p's legal moves that capture nothing and lead to
// child: the forward definition AppendUnsown inverts.
func quietMovesTo(v *Variant, p, child Position) int {
	var buf [MaxPits]Move
	n, count := v.Moves(p, &buf), 0
	for _, m := range buf[:n] {
		if m.Captured == 0 && m.Next == child {
			count++
		}
	}
	return count
}

// eachBoard calls fn with every board of 2*pits pits holding seeds seeds.
func eachBoard(pits, seeds int, fn func(Position)) {
	var rows [2][MaxPits]int
	var fill func(i, left int)
	fill = func(i, left int) {
		if i == 2*pits-1 {
			rows[i/pits][i%pits] = left
			fn(Position{Own: PackRow(rows[0][:pits]), Opp: PackRow(rows[1][:pits])})
			return
		}
		for c := 0; c <= left; c++ {
			rows[i/pits][i%pits] = c
			fill(i+1, left-c)
		}
	}
	fill(0, seeds)
}

// Every board of up to 7 seeds: AppendUnsown lists exactly the
// predecessors that forward move generation finds, each once per move
// (two independent methods: the lap table inverted against Moves).
func TestUnsowExhaustive(t *testing.T) {
	for _, v := range unsowVariants(t) {
		for n := 0; n <= 7; n++ {
			forward := map[Position][]Position{} // child -> its predecessors, once a move
			var boards []Position
			var buf [MaxPits]Move
			eachBoard(v.Pits, n, func(p Position) {
				boards = append(boards, p)
				for _, m := range buf[:v.Moves(p, &buf)] {
					if m.Captured == 0 {
						forward[m.Next] = append(forward[m.Next], p)
					}
				}
			})
			for _, child := range boards {
				child.Side = 1 // the predecessors come with Side 0
				got := v.AppendUnsown(child, nil)
				if fmt.Sprint(sortedBoards(got)) != fmt.Sprint(sortedBoards(forward[child])) {
					t.Fatalf("%s %s: AppendUnsown %v, forward moves %v", v.Name, Format(v, child), got, forward[child])
				}
			}
		}
	}
}

func sortedBoards(ps []Position) []Position {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, func(a, b Position) int {
		if a.Own != b.Own {
			return cmpUint(a.Own, b.Own)
		}
		return cmpUint(a.Opp, b.Opp)
	})
	return ps
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Random boards of any seed count (laps of 12 and more, empty rows, grand
// slams): every quiet move's child lists its parent among its unsown
// positions, and every unsown position appears as many times as it has
// quiet moves to the child.
func TestUnsowRandomBoards(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 31))
	for _, v := range unsowVariants(t) {
		for range 20000 {
			var rows [2][MaxPits]int
			empty := r.IntN(3) // 0: none, 1: the mover's row, 2: the opponent's
			for range r.IntN(v.Total() + 1) {
				row := r.IntN(2)
				if empty == 1 && row == 0 || empty == 2 && row == 1 {
					row = 1 - row
				}
				rows[row][r.IntN(v.Pits)]++
			}
			p := Position{Own: PackRow(rows[0][:v.Pits]), Opp: PackRow(rows[1][:v.Pits])}
			var buf [MaxPits]Move
			for _, m := range buf[:v.Moves(p, &buf)] {
				if m.Captured != 0 {
					continue
				}
				got := v.AppendUnsown(m.Next, nil)
				if !slices.Contains(got, p) {
					t.Fatalf("%s %s pit %d: the parent is not among %v", v.Name, Format(v, p), m.Pit, got)
				}
				for _, q := range got {
					if want, n := quietMovesTo(v, q, m.Next), count(got, q); want != n {
						t.Fatalf("%s child %s: %s listed %d times, has %d quiet moves to it", v.Name, Format(v, m.Next), Format(v, q), n, want)
					}
				}
			}
		}
	}
}

func count(ps []Position, p Position) int {
	n := 0
	for _, q := range ps {
		if q == p {
			n++
		}
	}
	return n
}
