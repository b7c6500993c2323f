package tablebase

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// TestMapFileReread maps a file large enough for mapFile to read it in
// again on huge pages when it finds it on small ones (its pages clean,
// synced, so that they can be dropped): the mapping must hold the file's
// bytes whether it was read in again or not.
func TestMapFileReread(t *testing.T) {
	defer noHugeReread.Store(noHugeReread.Load())
	noHugeReread.Store(false)
	want := make([]byte, 5*hugepage.Size/2+123)
	for i := range want {
		want[i] = byte(i*7 + i>>12)
	}
	path := filepath.Join(t.TempDir(), "layer")
	if err := os.WriteFile(path, want, 0o666); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	b, release, err := mapFile(f, len(want), false)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if !bytes.Equal(b, want) {
		t.Fatal("the mapping does not hold the file's bytes")
	}
	t.Logf("%d of %d bytes on huge pages", hugeMappedBytes(b), len(b))
}
