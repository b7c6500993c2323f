package tablebase

import (
	"context"
	"fmt"
	"testing"
)

// TestPropagateKeepsMover runs propagation on a hand-made layer with moves
// that keep the mover (kalah's extra move, which no variant here has yet):
// such a move hands the predecessor its child's result as its own. Edges
// (predecessor -> child, * keeps the mover), exits and expected results:
//
//	0: game over, worth +2                  -> +2 in 0 plies
//	1: *-> 0                                -> +2 in 1 (0's win is 1's own)
//	2:  -> 1                                -> -2 in 2
//	3: *-> 2, and a capture worth -3        -> -2 in 3 (the capture is worse)
//	4:  -> 3, *-> 1                         -> +2 in 2 (the shorter win)
//	5: *-> 5, and a capture worth 0         -> 0 in 0 (play forever or take 0)
func TestPropagateKeepsMover(t *testing.T) {
	g := &graph{
		// Predecessors by child: 0: 1*; 1: 2, 4*; 2: 3*; 3: 4; 4: none; 5: 5*.
		start: []uint32{0, 1, 3, 4, 5, 5, 6},
		from:  []uint32{1, 2, 4, 3, 4, 5},
		keep:  []uint64{1<<0 | 1<<2 | 1<<3 | 1<<5},
	}
	s := &layerSolver{n: 3, size: 6, threads: 1, prog: newProgress(3, 6, nil),
		exit:     []int8{2, noExit, noExit, -3, noExit, 0},
		count:    []uint8{1, 1, 1, 2, 2, 2},
		terminal: []uint64{1},
	}
	state, err := s.propagate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	values, dist := stateArrays(state)
	if got, want := fmt.Sprint(values, dist), "[2 2 -2 -2 2 0] [0 1 2 3 2 0]"; got != want {
		t.Errorf("values and distances %s, want %s", got, want)
	}
}
