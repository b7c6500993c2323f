// Command randpos prints seeded random positions of a variant, one a line
// in the notation of docs/notation.md: each the position after a number of
// uniformly random legal moves from the start, drawn between -lo and -hi
// (a game that ends first is dropped and drawn again). It is for checking
// a change to the search on more than the start position: the node count
// of a one-thread proof is deterministic, so the same set searched before
// and after a change measures it without timing noise.
//
//	go run ./internal/cmd/randpos -variant kalah -n 12 -lo 6 -hi 11 -seed 1 > set.txt
//	while read p; do mancala solve "$p" --tb DIR --load-tb -1 --threads 1 --time 0 --one-best --json | grep '"nodes"'; done < set.txt
//
// Each position gets a process of its own there: `mancala solve -` keeps
// one transposition table for all its lines, so that a position's count
// would depend on the ones before it. See docs/testing.md for the other
// operator tools.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/mancala-solver/mancala/position"
)

func main() {
	variant := flag.String("variant", "kalah", "the variant")
	n := flag.Int("n", 12, "positions to print")
	lo := flag.Int("lo", 6, "fewest random plies from the start")
	hi := flag.Int("hi", 11, "most random plies from the start")
	seed := flag.Uint64("seed", 1, "the generator's seed (with the variant's ID)")
	flag.Parse()
	v, err := position.Lookup(*variant)
	if err != nil || *lo < 0 || *hi < *lo || *n < 0 {
		fmt.Fprintln(os.Stderr, "randpos: a known -variant and 0 <= -lo <= -hi, -n >= 0 needed")
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(*seed, uint64(v.ID)))
	for range *n {
		fmt.Println(position.Format(v, playout(v, rng, *lo+rng.IntN(*hi-*lo+1))))
	}
}

// playout plays plies random legal moves from the start, again from the
// start whenever the game ends before they are played or at the last.
func playout(v *position.Variant, rng *rand.Rand, plies int) position.Position {
	var buf [position.MaxPits]position.Move
	for {
		p, ended := v.Start(), false
		for range plies {
			k := v.Moves(p, &buf)
			if k == 0 {
				ended = true
				break
			}
			p = buf[rng.IntN(k)].Next
		}
		if !ended && v.Moves(p, &buf) > 0 {
			return p
		}
	}
}
