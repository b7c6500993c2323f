package tablebase

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiskFillsWhileStoring: the disk fills after the free-space check
// passed, while a layer is being written (issue 21: 8 of 18 trials died of
// SIGBUS in Badger's memory-mapped files when another process filled the
// disk just after staging-N appeared). The check is told there is room,
// the file system is nearly full: the build must stop with one line
// wrapping ENOSPC, leave no staging directory, keep every stored layer,
// and resume once there is space. Root only (it mounts a small tmpfs).
func TestDiskFillsWhileStoring(t *testing.T) {
	mnt := mountTmpfs(t, "16m")
	dir := filepath.Join(mnt, "tb")
	v := lookup(t, "awari")
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 8, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	free, _ := diskFree(mnt)
	filler := filepath.Join(mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, free-64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	freeSpace = func(string) (int64, error) { return 1 << 40, nil } // the check passed before the disk filled
	_, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 12, Threads: 2})
	freeSpace = diskFree
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("build while the disk fills: %q, want one line wrapping ENOSPC", err)
	}
	entries, _ := os.ReadDir(variantDir(dir, v))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), stagePrefix) {
			t.Errorf("%s left behind", e.Name())
		}
	}
	pr, err := OpenProber(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if pr.MaxSeeds() < 8 {
		t.Errorf("after the full disk: MaxSeeds %d, want at least 8", pr.MaxSeeds())
	}
	pr.Close()
	os.Remove(filler)
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 10, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(checksums(t, dir, v)), fmt.Sprint(checksums(t, build(t, v, 10, MethodAuto), v)); got != want {
		t.Errorf("checksums after the full disk and a resume\n%s\nwant\n%s", got, want)
	}
}

// TestConcurrentBuildsNewDirectory: builds of two variants started at once
// into one new directory both succeed (issue 21: one failed in 13 of 20,
// seeing the other's half-made directory as "not a tablebase"). Each of
// 20 rounds starts the two from a barrier; the test does not depend on
// how they interleave, only on both succeeding whatever the interleaving.
func TestConcurrentBuildsNewDirectory(t *testing.T) {
	root := t.TempDir()
	names := []string{"awari", "oware"}
	for round := range 20 {
		dir := filepath.Join(root, fmt.Sprint(round), "tb")
		start := make(chan struct{})
		errs := make(chan error, len(names))
		for _, name := range names {
			v := lookup(t, name)
			go func() {
				<-start
				_, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 2, Threads: 1})
				errs <- err
			}()
		}
		close(start)
		for range names {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		for _, name := range names {
			if got := len(completeLayers(t, dir, lookup(t, name))); got != 3 {
				t.Errorf("round %d: %s has %d layers, want 3", round, name, got)
			}
		}
	}
}
