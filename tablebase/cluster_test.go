package tablebase

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mancala-solver/mancala/position"

	"github.com/mancala-solver/mancala/internal/testsize"
	"golang.org/x/sync/errgroup"
)

// goCluster is a Cluster whose ranks are goroutines, each running its
// own Build as an MPI process would: it checks the build across
// processes (build_cluster.go) in the default, pure-Go test.
type goCluster struct {
	*localRanks
	rank int
	bufs *clusterBufs
}

// clusterBufs is what the ranks of a goCluster share for Share and
// Broadcast.
type clusterBufs struct {
	state  [][]uint32
	values []int8
}

func newGoClusters(size int) []Cluster {
	l, bufs := newLocalRanks(size), &clusterBufs{state: make([][]uint32, size)}
	cs := make([]Cluster, size)
	for r := range cs {
		cs[r] = &goCluster{localRanks: l, rank: r, bufs: bufs}
	}
	return cs
}

func (c *goCluster) Rank() int { return c.rank }
func (c *goCluster) Size() int { return c.parts }

func (c *goCluster) Share(ctx context.Context, state []uint32, span int64) error {
	c.bufs.state[c.rank] = state
	if err := c.bar.wait(ctx); err != nil {
		return err
	}
	for t, from := range c.bufs.state {
		if t != c.rank {
			lo, hi := min(int64(t)*span, int64(len(state))), min(int64(t+1)*span, int64(len(state)))
			copy(state[lo:hi], from[lo:hi])
		}
	}
	return c.bar.wait(ctx)
}

func (c *goCluster) Broadcast(ctx context.Context, values []int8) error {
	if c.rank == 0 {
		c.bufs.values = values
	}
	if err := c.bar.wait(ctx); err != nil {
		return err
	}
	if c.rank != 0 {
		copy(values, c.bufs.values)
	}
	return c.bar.wait(ctx)
}

// buildCluster runs Build on every rank of a goCluster of size ranks,
// which write their parts into dir. It returns rank 0's stats.
func buildCluster(t *testing.T, dir, name string, size, seeds int) BuildStats {
	t.Helper()
	stats, err := tryBuildCluster(dir, lookup(t, name), size, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

// tryBuildCluster is buildCluster returning the first rank's error;
// layerStart, when not nil, is every rank's LayerStart (rank, plan).
func tryBuildCluster(dir string, v *position.Variant, size, seeds int, layerStart func(int, LayerPlan) error) (BuildStats, error) {
	var stats BuildStats
	eg, ctx := errgroup.WithContext(context.Background())
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	for r, c := range newGoClusters(size) {
		eg.Go(func() error {
			opts := BuildOptions{MaxSeeds: seeds, Threads: 1, Parts: size, Cluster: c}
			if layerStart != nil {
				opts.LayerStart = func(p LayerPlan) {
					if err := layerStart(r, p); err != nil {
						cancel(err)
					}
				}
			}
			st, err := Build(ctx, dir, v, opts)
			if r == 0 {
				stats = st
			}
			if err != nil {
				if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
					err = cause
				}
				return fmt.Errorf("rank %d: %w", r, err)
			}
			return nil
		})
	}
	return stats, eg.Wait()
}

// importParts imports the parts at parts into a new tablebase and
// returns its directory.
func importParts(t *testing.T, parts string, v *position.Variant) (string, ImportStats) {
	t.Helper()
	tb := t.TempDir()
	st, err := Import(context.Background(), parts, tb, v, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tb, st
}

// TestClusterMatchesOneMachine: awari and oware built by 3 and 4 ranks
// that are separate Builds, each writing its parts, then imported, give
// the one-machine build's values and distances (read back from both
// tablebases), value and distance checksums and inner moves of every
// layer; the parts' own metadata has the same checksums. A build stopped
// at seeds-3 and started again resumes there (every rank loads the
// complete layers from the parts) and ends equal too.
func TestClusterMatchesOneMachine(t *testing.T) {
	seeds := 12
	if testsize.Short() {
		seeds = 10
	}
	for _, name := range []string{"awari", "oware"} {
		v := lookup(t, name)
		one := build(t, v, seeds, MethodAuto)
		want, wantInfos := layerChecksums(t, one, v), completeLayers(t, one, v)
		for _, size := range []int{3, 4} {
			t.Run(fmt.Sprintf("%s/%d-ranks", name, size), func(t *testing.T) {
				parts := t.TempDir()
				first := buildCluster(t, parts, name, size, seeds-3)
				stats := buildCluster(t, parts, name, size, seeds)
				if len(first.Layers) != seeds-2 || stats.Resumed != seeds-2 || len(stats.Layers) != 3 {
					t.Errorf("built %d layers, then resumed %d and built %d; want %d, %d, 3", len(first.Layers), stats.Resumed, len(stats.Layers), seeds-2, seeds-2)
				}
				if got := partsChecksums(t, parts, v); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("parts' checksums by %d ranks\n%x\nwant\n%x", size, got, want)
				}
				tb, ist := importParts(t, parts, v)
				if len(ist.Layers) != seeds+1 || ist.MaxSeeds != seeds {
					t.Errorf("imported %d layers, to %d; want %d, to %d", len(ist.Layers), ist.MaxSeeds, seeds+1, seeds)
				}
				if got := layerChecksums(t, tb, v); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("checksums by %d ranks\n%x\nwant\n%x", size, got, want)
				}
				for n, info := range completeLayers(t, tb, v) {
					if info.InnerMoves != wantInfos[n].InnerMoves || info.Method != "unsow-parts" {
						t.Errorf("layer %d: %d inner moves by %s, want %d by unsow-parts", n, info.InnerMoves, info.Method, wantInfos[n].InnerMoves)
					}
				}
				sameValues(t, tb, one, v, seeds)
			})
		}
	}
}
