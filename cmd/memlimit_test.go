package cmd

import (
	"context"
	"io"
	"runtime/debug"
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
