package cmd

import (
	"context"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/tablebase"
)

// TestVerifySetsMemoryLimit: verify, like build, asks the collector to keep
// the heap near the memory budget, so that reading a layer's values does
// not double the heap (issue 19: 19.8 GiB of anonymous memory where 13.5
// GiB were live).
func TestVerifySetsMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	debug.SetMemoryLimit(1 << 62)
	opts := &verifyOptions{tb: t.TempDir(), threads: 1}
	_ = runVerify(context.Background(), io.Discard, io.Discard, "awari", opts) // an empty directory: an error, after the limit is set
	if got, want := debug.SetMemoryLimit(-1), tablebase.DefaultMemBytes()+1<<30; got != want {
		t.Fatalf("soft memory limit after verify = %d, want %d", got, want)
	}
}

// TestVerifyProgressSaysTheOutcome: each layer's stderr line says whether
// the layer passed, so the log of a verify stopped before its summary
// still tells (issue 19: an oware verify killed after layer 29).
func TestVerifyProgressSaysTheOutcome(t *testing.T) {
	for _, tc := range []struct {
		check tablebase.LayerCheck
		want  string
	}{
		{tablebase.LayerCheck{Seeds: 3, Positions: 100, ChecksumOK: true, Rechecked: true, Seconds: 2},
			"ok, checked in 2.0 s, 50 positions/s"},
		{tablebase.LayerCheck{Seeds: 3, Positions: 100, ChecksumOK: true, Seconds: 0.5},
			"checksum ok, read in 0.5 s, not re-derived (below --from)"},
		{tablebase.LayerCheck{Seeds: 3, Positions: 100, ChecksumOK: true, Rechecked: true, Seconds: 2, Mismatches: 2, Examples: []string{"P (rank 7): stored 1, its moves give 3"}},
			"FAILED in 2.0 s: 2 positions disagree with their moves, first P (rank 7): stored 1, its moves give 3"},
		{tablebase.LayerCheck{Seeds: 3, Positions: 100, Seconds: 0.5},
			"FAILED in 0.5 s: checksum mismatch"},
	} {
		if got := verifyProgress(tc.check); got != tc.want {
			t.Errorf("verifyProgress(%+v) = %q, want %q", tc.check, got, tc.want)
		}
	}
}

// TestMemoryHintNamesTheFlag: a verify too large for the machine says
// which --to checks what fits, and says nothing of the flag when not even
// layer 0 fits.
func TestMemoryHintNamesTheFlag(t *testing.T) {
	mem := &tablebase.MemoryError{Seeds: 30, Need: 17 << 30, Have: 16 << 30, Fits: 29}
	if got, want := memoryHint(mem).Error(), "verify: "+mem.Error()+": check them with --to 29"; got != want {
		t.Errorf("memoryHint = %q, want %q", got, want)
	}
	mem.Fits = -1
	if got := memoryHint(mem).Error(); strings.Contains(got, "--to") || !strings.HasSuffix(got, "not even layer 0 fits") {
		t.Errorf("memoryHint with nothing that fits = %q, want no --to, ending \"not even layer 0 fits\"", got)
	}
}
