//go:build linux

package tablebase

import (
	"os"
	"syscall"
)

// mapsFiles: this system maps files (mapFile), so a mapped layer is
// written and read in place.
const mapsFiles = true

// mapFile maps the first size bytes of f, shared: read-only and populated
// at once (MAP_POPULATE: the page-cache pages are wired in by one call,
// not faulted in one by one as probes reach them), or writable for
// WriteMapped. The release unmaps them; f may be closed before it.
func mapFile(f *os.File, size int, writable bool) ([]byte, func(), error) {
	prot, flags := syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE
	if writable {
		prot, flags = syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, prot, flags)
	if err != nil {
		return nil, nil, &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}
