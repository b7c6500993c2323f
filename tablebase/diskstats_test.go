package tablebase

import (
	"context"
	"testing"
)

// TestBuildStatsCountEveryStoredLayer: a build asking for fewer layers
// than the directory holds reports the stored layers its disk figure
// covers, so that bytes a position divide the disk by the positions on
// it (issue 43, defect 9: `build awari --max-seeds 10` into a directory
// holding 0..17 printed 73.686 bytes/position). The positions of awari's
// layers 0..k are C(k+12, 12), the ways to put up to k seeds in 12 pits.
func TestBuildStatsCountEveryStoredLayer(t *testing.T) {
	v := lookup(t, "awari")
	dir := build(t, v, 6, MethodAuto)
	stats, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	const c18of12 = 18564 // 18!/(12! 6!)
	if stats.MaxSeeds != 3 || stats.DiskTop != 6 || stats.DiskPositions != c18of12 {
		t.Errorf("max seeds %d, disk top %d, disk positions %d; want 3, 6, %d", stats.MaxSeeds, stats.DiskTop, stats.DiskPositions, c18of12)
	}
	stats, err = Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 7, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	const c19of12 = 50388 // 19!/(12! 7!)
	if stats.DiskTop != 7 || stats.DiskPositions != c19of12 {
		t.Errorf("after building layer 7: disk top %d, disk positions %d; want 7, %d", stats.DiskTop, stats.DiskPositions, c19of12)
	}
}
