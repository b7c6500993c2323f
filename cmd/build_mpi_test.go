package cmd

import "testing"

// TestFailLayerOf: MANCALA_FAIL_AT names the rank and the layer at whose
// start the CI's fault run stops a rank; any other rank, a malformed
// value or a requeued job's start (SLURM_RESTART_COUNT above 0) does not
// fail.
func TestFailLayerOf(t *testing.T) {
	for _, c := range []struct {
		at, restarts string
		rank, layer  int
		ok           bool
	}{
		{"2:12", "", 2, 12, true},
		{"2:12", "0", 2, 12, true},
		{"0:5", "", 0, 5, true},
		{"2:12", "1", 2, 0, false},
		{"2:12", "10", 2, 0, false},
		{"2:12", "", 1, 0, false},
		{"2-12", "", 2, 0, false},
		{"", "", 0, 0, false},
		{"x:3", "", 0, 0, false},
		{"0:y", "", 0, 0, false},
	} {
		layer, ok := failLayerOf(c.rank, c.at, c.restarts)
		if layer != c.layer || ok != c.ok {
			t.Errorf("%q, restarts %q, rank %d: layer %d, %v; want %d, %v", c.at, c.restarts, c.rank, layer, ok, c.layer, c.ok)
		}
	}
}
