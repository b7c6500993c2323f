//go:build linux

package tablebase

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// spillSupported reports whether mapSpill can back arrays with a file.
const spillSupported = true

// mapSpill creates the file path, bytes long (bytes > 0), allocates its
// blocks on disk (fallocate, so that writing through the mapping cannot
// meet a full disk, which would be a SIGBUS rather than an error), maps
// it shared for reading and writing, and removes its name at once: the
// kernel keeps the file until unmapSpill releases the mapping or the
// process exits, so not even a crash leaves it behind. The kernel pages
// the mapping in and out as memory allows. Too little disk space is an
// error wrapping syscall.ENOSPC; nothing is left behind on any error.
func mapSpill(path string, bytes int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path) // runs after Close: the mapping keeps the file
	defer f.Close()
	if err := reserve(f, bytes); err != nil {
		return nil, fmt.Errorf("spilling %d bytes to %s: %w", bytes, path, err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(bytes), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping %d bytes of %s: %w", bytes, path, err)
	}
	return data, nil
}

// reserve gives f bytes of allocated (zeroed) blocks: fallocate where the
// file system supports it, else zeros written with write(2), so that a
// full disk is an error here and never a fault in the mapping later.
func reserve(f *os.File, bytes int64) error {
	err := syscall.Fallocate(int(f.Fd()), 0, 0, bytes)
	if !errors.Is(err, syscall.EOPNOTSUPP) {
		return err
	}
	zeros := make([]byte, 1<<20)
	for off := int64(0); off < bytes; off += int64(len(zeros)) {
		if _, err := f.WriteAt(zeros[:min(int64(len(zeros)), bytes-off)], off); err != nil {
			return err
		}
	}
	return nil
}

// unmapSpill releases a mapping made by mapSpill, and with it the file.
func unmapSpill(data []byte) error { return syscall.Munmap(data) }
