package tablebase

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
)

// TestPartsMatchOneMachine: awari and oware built in 3 and 4 parts, each
// part a goroutine that scans, seeds and propagates its own range and
// exchanges its own batches (build_partition.go), give every layer's
// value and distance checksums of the one-machine build; each layer is
// planned and run as "unsow-parts".
func TestPartsMatchOneMachine(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	seeds := 12
	if testsize.Short() {
		seeds = 10
	}
	for i, name := range []string{"awari", "oware"} {
		v := lookup(t, name)
		want := layerChecksums(t, refBuild(t, v, seeds, MethodAuto), v)
		counts := []int{3, 4}
		if testsize.Short() {
			// Awari in 3 parts, oware in 4 under -race: 23.6 -> 6.3 s.
			counts = counts[i : i+1]
		}
		for _, parts := range counts {
			t.Run(fmt.Sprintf("%s/%d-parts", name, parts), func(t *testing.T) {
				dir := t.TempDir()
				var plans []string
				stats, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: seeds, Threads: 2, Parts: parts,
					LayerStart: func(p LayerPlan) { plans = append(plans, p.Method) }})
				if err != nil {
					t.Fatal(err)
				}
				if got := layerChecksums(t, dir, v); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("checksums in %d parts\n%x\nwant\n%x", parts, got, want)
				}
				for n, info := range stats.Layers {
					if plans[n] != "unsow-parts" || info.Method != "unsow-parts" {
						t.Errorf("layer %d: planned %s, ran %s; want unsow-parts", n, plans[n], info.Method)
					}
				}
			})
		}
	}
}

// TestPartRanges: ranges are whole blocks, cover the layer, and a rank
// maps to its owner and its place in the owner's range.
func TestPartRanges(t *testing.T) {
	for _, c := range []struct {
		size  int64
		parts int
		want  int64
	}{
		{1, 3, BlockSize},
		{3 * BlockSize, 3, BlockSize},
		{3*BlockSize + 1, 3, 2 * BlockSize},
		{4_280_561_376, 72, 59_506_688}, // awari's layer 31: 908 blocks a part
	} {
		span := partRanges(c.size, c.parts)
		if span != c.want || span%BlockSize != 0 || span*int64(c.parts) < c.size {
			t.Errorf("%d positions in %d parts: ranges of %d, want %d", c.size, c.parts, span, c.want)
		}
	}
	r := &rankPart{span: 2 * BlockSize}
	for _, c := range []struct {
		p        uint64
		to       int
		relative uint32
	}{{0, 0, 0}, {2*BlockSize - 1, 0, 2*BlockSize - 1}, {2 * BlockSize, 1, 0}, {5*BlockSize + 7, 2, BlockSize + 7}} {
		if to, rel := r.owner(c.p); to != c.to || rel != c.relative {
			t.Errorf("rank %d: owner %d at %d, want %d at %d", c.p, to, rel, c.to, c.relative)
		}
	}
}

// TestLocalRanks: four goroutine parts exchange, round after round, a
// batch each names its sender, receiver and round by, and agree on the
// sum of their round numbers; then a part that fails in the middle
// cancels the others, whose next exchange returns the context's error
// instead of waiting for it forever.
func TestLocalRanks(t *testing.T) {
	const parts, rounds = 4, 200
	ex := newLocalRanks(parts)
	var wg sync.WaitGroup
	errs := make([]error, parts)
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				out := make([]Batch, parts)
				for to := range out {
					out[to].Win = []uint32{uint32(p), uint32(to), uint32(round)}
				}
				in, err := ex.Exchange(context.Background(), p, out)
				if err != nil {
					errs[p] = err
					return
				}
				for from, b := range in {
					if fmt.Sprint(b.Win) != fmt.Sprint([]uint32{uint32(from), uint32(p), uint32(round)}) {
						errs[p] = fmt.Errorf("part %d round %d: from %d got %v", p, round, from, b.Win)
						return
					}
				}
				if sum, err := ex.Sum(context.Background(), p, int64(round)); err != nil || sum != parts*int64(round) {
					errs[p] = fmt.Errorf("part %d round %d: sum %d, %v", p, round, sum, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	ex = newLocalRanks(parts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	failed := errors.New("part 2 fails")
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				if p == 2 && round == rounds/2 {
					errs[p] = failed
					cancel() // as errgroup does for propagateParts
					return
				}
				if _, err := ex.Exchange(ctx, p, make([]Batch, parts)); err != nil {
					errs[p] = err
					return
				}
			}
			errs[p] = nil
		}()
	}
	wg.Wait()
	for p, err := range errs {
		if want := map[bool]error{true: failed, false: context.Canceled}[p == 2]; !errors.Is(err, want) {
			t.Errorf("part %d: %v, want %v", p, err, want)
		}
	}
}
