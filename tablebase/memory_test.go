package tablebase

import (
	"context"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"
	"github.com/mancala-solver/mancala/position"
)

// A tablebase built in memory holds exactly the values that Build stores
// and a Prober reads back from Badger, for every position up to 7 seeds
// (6 by default, 5 under -short; 7 with MANCALA_LONG=1).
func TestMemoryMatchesStored(t *testing.T) {
	seeds := testsize.Pick(5, 6, 7)
	for _, v := range position.Variants() {
		dir := t.TempDir()
		if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: seeds}); err != nil {
			t.Fatal(err)
		}
		pr, err := OpenProber(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		mem, err := BuildMemory(context.Background(), v, seeds, 0)
		if err != nil {
			t.Fatal(err)
		}
		if mem.MaxSeeds() != seeds {
			t.Fatalf("%s: memory holds %d seeds", v.Name, mem.MaxSeeds())
		}
		ix := NewIndex(v.Pits)
		for n := 0; n <= seeds; n++ {
			for r := int64(0); r < ix.Size(n); r++ {
				p := ix.Unrank(n, uint64(r))
				want, ok1 := pr.Probe(p)
				got, ok2 := mem.Probe(p)
				if !ok1 || !ok2 || got != want {
					t.Fatalf("%s %s: memory %d (%v), stored %d (%v)", v.Name, position.Format(v, p), got, ok2, want, ok1)
				}
			}
		}
		if _, ok := mem.Probe(v.Start()); ok {
			t.Errorf("%s: the start position is not in a %d-seed tablebase", v.Name, seeds)
		}
		pr.Close()
	}
}
