package bench

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// The signature (testdata/signatures.txt, checked by .ci/run) is a set of
// numbers that change only when the rules, the tablebase build or the
// search change: perft counts, the checksums of small tablebases and the
// node counts of fixed-depth searches. Unlike the benchmarks it measures
// no time, so it is the same on every machine and every run; it takes
// seconds.

// SignaturePerft is the perft depth of each variant in the signature:
// 0.2 to 2 million leaves each.
var SignaturePerft = map[string]int{
	"awari": 8, "oware": 8, "oware-own": 8, "akon": 7, "djenon-abe": 8, "djenon-aboure": 9, "kalah": 7, "kalah-std": 7,
}

// SignatureBuild is the size (seeds) of each tablebase the signature
// builds: 15,000 to 400,000 positions each. kalah and kalah-std share
// kalah's tablebase of six-pit rows but differ in captures, so both are
// built.
var SignatureBuild = map[string]int{
	"awari": 9, "oware": 9, "akon": 7, "djenon-abe": 8, "djenon-aboure": 8, "kalah": 7, "kalah-std": 7,
}

// SignatureDepth is the depth, in plies, of the signature's searches of
// the solver suite's midgames (Suite; the start position for a variant
// the suite lacks), on one thread with a 16 MiB transposition table and
// no tablebase, each from a cleared table: 1,000 to 200,000 nodes each.
// Kalah's extra moves make its plies cheap and its tree wide, so it
// searches less deep.
var SignatureDepth = map[string]int{
	"awari": 11, "oware": 11, "oware-own": 11, "akon": 11, "djenon-abe": 11, "djenon-aboure": 11, "kalah": 7, "kalah-std": 7,
}

// signatureVariants lists the variants in the order the signature gives
// them.
var signatureVariants = []string{"awari", "oware", "oware-own", "akon", "djenon-abe", "djenon-aboure", "kalah", "kalah-std"}

// WriteSignature writes the signature to out, one number a line, each
// line naming what it counts:
//
//	perft VARIANT depth D: N
//	build VARIANT layer S: positions N values XXH distances XXH
//	search VARIANT midgame|start I depth D: nodes N value V best PITS
//
// The build checksums are those `mancala stats` prints (xxHash64 of a
// layer's values and of its distances). tmp is a directory for the
// builds (removed before it returns; "" for the system's).
func WriteSignature(ctx context.Context, out io.Writer, tmp string) error {
	for _, name := range signatureVariants {
		v, err := position.Lookup(name)
		if err != nil {
			return err
		}
		if d, ok := SignaturePerft[name]; ok {
			fmt.Fprintf(out, "perft %s depth %d: %d\n", name, d, v.Perft(v.Start(), d))
		}
	}
	for _, name := range signatureVariants {
		seeds, ok := SignatureBuild[name]
		if !ok {
			continue
		}
		v, err := position.Lookup(name)
		if err != nil {
			return err
		}
		if err := signatureBuild(ctx, out, tmp, v, seeds); err != nil {
			return err
		}
	}
	suite, err := Suite()
	if err != nil {
		return err
	}
	for _, name := range signatureVariants {
		v, err := position.Lookup(name)
		if err != nil {
			return err
		}
		depth := SignatureDepth[name]
		s, err := solver.New(solver.Options{Threads: 1, HashMiB: 16, MaxDepth: depth})
		if err != nil {
			return err
		}
		positions, what := sectionOf(suite, v, "midgame"), "midgame"
		if len(positions) == 0 { // the suite has the five games only
			positions, what = []position.Position{v.Start()}, "start"
		}
		for i, p := range positions {
			s.Clear()
			res, err := s.Search(ctx, v, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "search %s %s %d depth %d: nodes %d value %d best %v\n", name, what, i+1, depth, res.Nodes, res.Value, res.BestMoves)
		}
	}
	return nil
}

// signatureBuild builds v's tablebase to seeds seeds in a new directory
// under tmp (two threads: the checksums do not depend on them) and
// writes each layer's checksums.
func signatureBuild(ctx context.Context, out io.Writer, tmp string, v *position.Variant, seeds int) error {
	dir, err := os.MkdirTemp(tmp, "mancala-signature-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if _, err := tablebase.Build(ctx, dir, v, tablebase.BuildOptions{MaxSeeds: seeds, Threads: 2}); err != nil {
		return fmt.Errorf("signature: build %s to %d seeds: %w", v.Name, seeds, err)
	}
	layers, err := tablebase.Layers(dir, v)
	if err != nil {
		return err
	}
	for _, l := range layers {
		fmt.Fprintf(out, "build %s layer %d: positions %d values %016x distances %016x\n", v.Name, l.Seeds, l.Positions, l.Checksum, l.DistanceChecksum)
	}
	return nil
}
