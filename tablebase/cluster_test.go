package tablebase

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
}

func newGoClusters(size int) []Cluster {
	l := newLocalRanks(size)
	cs := make([]Cluster, size)
	for r := range cs {
		cs[r] = &goCluster{localRanks: l, rank: r}
	}
	return cs
}

func (c *goCluster) AllToAll(ctx context.Context, out [][]byte) ([][]byte, error) {
	return c.localRanks.AllToAll(ctx, c.rank, out)
}

func (c *goCluster) Rank() int { return c.rank }
func (c *goCluster) Size() int { return c.parts }

// buildCluster runs Build on every rank of a goCluster of size ranks,
// which write their parts into dir. It returns every rank's stats.
func buildCluster(t *testing.T, dir, name string, size, seeds int) []BuildStats {
	t.Helper()
	stats, err := tryBuildCluster(dir, lookup(t, name), size, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

// tryBuildCluster is buildCluster returning the first rank's error;
// layerStart, when not nil, is every rank's LayerStart (rank, plan).
func tryBuildCluster(dir string, v *position.Variant, size, seeds int, layerStart func(int, LayerPlan) error) ([]BuildStats, error) {
	stats := make([]BuildStats, size)
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
			stats[r] = st
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
// at seeds-3 and started again resumes there (every rank reads its
// ranges of the complete layers from the parts) and ends equal too. The
// captures' values are looked up from the ranks that own them
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
	for i, name := range []string{"awari", "oware"} {
		v := lookup(t, name)
		one := refBuild(t, v, seeds, MethodAuto)
		want, wantInfos := layerChecksums(t, one, v), completeLayers(t, one, v)
		sizes := []int{3, 4}
		if testsize.Short() {
			// Awari by 3 ranks, oware by 4 under -race: 28.2 -> 12.2 s.
			sizes = sizes[i : i+1]
		}
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%d-ranks", name, size), func(t *testing.T) {
				parts := t.TempDir()
				first := buildCluster(t, parts, name, size, seeds-3)[0]
				stats := buildCluster(t, parts, name, size, seeds)[0]
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

// TestClusterRankHoldsItsRange: a rank of a build across processes holds
// its range of the layer and of the lower layers only: each rank's
// counted bytes (noteHeld, the arrays' lengths) are within 1/P of the
// one-machine build's and the ranges' rounding to blocks (a third more
// at these sizes: awari's layer 12 is 21 blocks, layer 11 11), and the
// ranks' add up to the one-machine build's, in parts, whose propagation
// state is the ranks' (the wide one: build_state.go). 11 seeds under
// -race (30.0 -> 22.9 s; the largest rank then holds 1.17 of 1/3 and 1.22 of
// 1/4), 12 otherwise.
func TestClusterRankHoldsItsRange(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	seeds := testsize.Pick(11, 12, 12)
	v := lookup(t, "awari")
	one, err := Build(context.Background(), t.TempDir(), v, BuildOptions{MaxSeeds: seeds, Threads: 1, Method: MethodUnsow, Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	whole := one.heldBytes
	for _, size := range []int64{3, 4} {
		total := int64(0)
		for r, st := range buildCluster(t, t.TempDir(), "awari", int(size), seeds) {
			t.Logf("rank %d of %d: %d bytes held (one machine: %d)", r, size, st.heldBytes, whole)
			if st.heldBytes <= 0 || st.heldBytes > whole/size*4/3 {
				t.Errorf("rank %d of %d held %d bytes; the one-machine build %d, want at most 4/3 of 1/%d of it", r, size, st.heldBytes, whole, size)
			}
			total += st.heldBytes
		}
		if total < whole*95/100 || total > whole*105/100 {
			t.Errorf("%d ranks held %d bytes in all, the one-machine build %d", size, total, whole)
		}
	}
}

// TestClusterRefusesOtherMethods: only un-sowing is split by range, so a
// build across processes of kalah (the forward pass) or with another
// method forced is refused on every rank before any work.
func TestClusterRefusesOtherMethods(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method Method
	}{{"kalah", MethodAuto}, {"awari", MethodGraph}} {
		for r, c := range newGoClusters(2) {
			_, err := Build(context.Background(), t.TempDir(), lookup(t, tc.name), BuildOptions{MaxSeeds: 6, Parts: 2, Cluster: c, Method: tc.method})
			if err == nil || !strings.Contains(err.Error(), "un-sow") {
				t.Errorf("%s, method %d, rank %d: %v, want a refusal naming un-sowing", tc.name, tc.method, r, err)
			}
		}
	}
}
