package tablebase

import (
	"context"
	"fmt"
	"testing"

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

func (c *goCluster) AllToAll(ctx context.Context, out [][]byte) ([][]byte, error) {
	return c.localRanks.AllToAll(ctx, c.rank, out)
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

// buildCluster runs Build on every rank of a goCluster of size ranks;
// rank 0 stores in dir. It returns rank 0's stats.
func buildCluster(t *testing.T, dir, name string, size, seeds int) BuildStats {
	t.Helper()
	v := lookup(t, name)
	var stats BuildStats
	eg, ctx := errgroup.WithContext(context.Background())
	for r, c := range newGoClusters(size) {
		eg.Go(func() error {
			st, err := Build(ctx, dir, v, BuildOptions{MaxSeeds: seeds, Threads: 1, Parts: size, Cluster: c})
			if r == 0 {
				stats = st
			}
			if err != nil {
				return fmt.Errorf("rank %d: %w", r, err)
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		t.Fatal(err)
	}
	return stats
}

// TestClusterMatchesOneMachine: awari and oware built by 3 and 4 ranks
// that are separate Builds (one store, rank 0's) give the one-machine
// build's value and distance checksums and inner moves of every layer;
// a build stopped at seeds-3 and started again resumes there (the ranks
// other than 0 get the complete layers from rank 0) and ends equal too.
// The captures' values are looked up from the ranks that own them
// (build_lookup.go).
func TestClusterMatchesOneMachine(t *testing.T) {
	// Lookup rounds of one block: the larger layers' captures are
	// looked up in several rounds.
	defer func(c int64) { lookupChunk = c }(lookupChunk)
	lookupChunk = BlockSize
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
				dir := t.TempDir()
				first := buildCluster(t, dir, name, size, seeds-3)
				stats := buildCluster(t, dir, name, size, seeds)
				if len(first.Layers) != seeds-2 || stats.Resumed != seeds-2 || len(stats.Layers) != 3 {
					t.Errorf("built %d layers, then resumed %d and built %d; want %d, %d, 3", len(first.Layers), stats.Resumed, len(stats.Layers), seeds-2, seeds-2)
				}
				if got := layerChecksums(t, dir, v); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("checksums by %d ranks\n%x\nwant\n%x", size, got, want)
				}
				for n, info := range completeLayers(t, dir, v) {
					if info.InnerMoves != wantInfos[n].InnerMoves || info.Method != "unsow-parts" {
						t.Errorf("layer %d: %d inner moves by %s, want %d by unsow-parts", n, info.InnerMoves, info.Method, wantInfos[n].InnerMoves)
					}
				}
			})
		}
	}
}
