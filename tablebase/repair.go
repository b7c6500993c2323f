package tablebase

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dustin/go-humanize"

	"github.com/mancala-solver/mancala/position"
)

// spaceMargin is the free space kept beyond a layer's estimate: Badger's
// manifest, key registry and discard files and the file system's own
// blocks.
const spaceMargin = 4 << 20

// freeSpace reports the bytes that may still be written under a directory;
// tests replace it to simulate a full disk.
var freeSpace = diskFree

// checkSpace fails, wrapping syscall.ENOSPC, when the file system holding
// the tablebase has less free space than a layer of stored compressed
// bytes needs: Badger writes the blocks to its write-ahead log, then to a
// table, and may compact them once more, so three times the blocks plus a
// margin. Writing into memory-mapped files on a full disk would kill the
// process (SIGBUS) instead of returning an error, so this is checked
// before anything is written.
func (s *store) checkSpace(stored int64) error {
	free, err := freeSpace(s.vdir)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	if err != nil {
		return err
	}
	if need := 3*stored + spaceMargin; free < need {
		return fmt.Errorf("tablebase %s: the next layer needs about %s free, %s are: %w (free some space and run the same command to resume)",
			s.dir, humanize.IBytes(uint64(need)), humanize.IBytes(uint64(max(free, 0))), syscall.ENOSPC)
	}
	return nil
}

// dropFrom removes v's layers n and above, highest first (renamed aside,
// then deleted), so that a crash part-way leaves layers 0..k with no gap.
// Layers of other variants and rules versions are not touched.
func (s *store) dropFrom(n int) error {
	seeds, err := storedLayers(s.vdir)
	if err != nil {
		return err
	}
	for i := len(seeds) - 1; i >= 0 && seeds[i] >= n; i-- {
		name := layerName(seeds[i])
		aside := filepath.Join(s.vdir, dropPrefix+name)
		if err := os.Rename(filepath.Join(s.vdir, name), aside); err != nil {
			return err
		}
		if err := syncDir(s.vdir); err != nil {
			return err
		}
		if err := os.RemoveAll(aside); err != nil {
			return err
		}
	}
	return nil
}

// DiskBytes returns the bytes v's layers under the current rules occupy on
// disk in the tablebase at dir (allocated blocks where the system reports
// them, else file sizes): the figure to divide by v's positions, whatever
// other variants the directory holds.
func DiskBytes(dir string, v *position.Variant) (int64, error) {
	v = VariantOf(v) // kalah sizes of one row length share a tablebase
	return dirBytes(variantDir(dir, v))
}
