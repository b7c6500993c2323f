//go:build linux

package tablebase

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// mapsFiles: this system maps files (mapFile), so a mapped layer is
// written and read in place.
const mapsFiles = true

// mapFile maps the first size bytes of f, shared: read-only and populated
// at once (mapPopulated), on huge pages where it can (below), or writable
// for WriteMapped. The release unmaps them; f may be closed before it.
//
// A search reads a layer at random, so with 4 KiB pages nearly every probe
// also misses the TLB. Where the file system keeps files in large folios
// (ext4 and xfs on recent kernels) a file read in under MADV_HUGEPAGE sits
// in the page cache in 2 MiB folios, which the mapping then maps with one
// entry each. Pages cached already as 4 KiB ones (the file written through
// a mapping, WriteMapped) stay so until the kernel evicts them, so a layer
// of 4 MiB or more found mostly on small pages is dropped from the cache
// (POSIX_FADV_DONTNEED) and read in again, once: later loads, by any
// process, find it on huge pages (noHugeReread stops this where it does
// not help). Kalah(6,4) with the 20-seed database on Linux 6.18 (ext4):
// layers 14-20 then on huge pages (/proc/PID/smaps, FilePmdMapped) but
// for each one's last partial 2 MiB, and the (6,4) proof took 3.6% less
// CPU time (docs/tablebase-design.md, "Mapped layers").
func mapFile(f *os.File, size int, writable bool) ([]byte, func(), error) {
	if writable {
		b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
		if err != nil {
			return nil, nil, &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
		}
		return b, func() { _ = syscall.Munmap(b) }, nil
	}
	b, err := mapPopulated(f, size)
	if err == nil && size >= 2*hugepage.Size && !noHugeReread.Load() && hugeMappedBytes(b) < size/2 {
		_ = syscall.Munmap(b)
		_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED) // drops the clean pages no one maps
		if b, err = mapPopulated(f, size); err == nil && hugeMappedBytes(b) < size/2 {
			noHugeReread.Store(true)
		}
	}
	if err != nil {
		return nil, nil, &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}

// noHugeReread is set once a layer read in again (mapFile) is still
// mostly on small pages: the file system or the kernel keeps no large
// folios, or the file's pages were dirty (just written), so reading the
// other layers in again would only cost their reads.
var noHugeReread atomic.Bool

// mapPopulated maps the first size bytes of f read-only, advised to use
// huge pages, and wires in every page at once (MADV_POPULATE_READ: one
// call, not a fault a page as probes reach them), reading in the ones not
// cached; before Linux 5.14, with MAP_POPULATE, without the advice.
func mapPopulated(f *os.File, size int) ([]byte, error) {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	if unix.Madvise(b, unix.MADV_POPULATE_READ) == nil {
		return b, nil
	}
	_ = syscall.Munmap(b)
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
}

// hugeMappedBytes is how much of the file mapping b the kernel maps with
// huge pages (FilePmdMapped in /proc/self/smaps), or len(b) when it cannot
// tell (no such file or field), so that nothing is read in again.
func hugeMappedBytes(b []byte) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return len(b)
	}
	defer f.Close()
	head := []byte(fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(b)))))
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 0 && (line[0] >= '0' && line[0] <= '9' || line[0] >= 'a' && line[0] <= 'f') {
			in = bytes.HasPrefix(line, head) // a mapping's first line, its address range (fields are capitalised)
			continue
		}
		if in && bytes.HasPrefix(line, []byte("FilePmdMapped:")) {
			kb, err := strconv.Atoi(string(bytes.Fields(line)[1]))
			if err != nil {
				return len(b)
			}
			return kb << 10
		}
	}
	return len(b)
}
