//go:build unix

package tablebase

import (
	"errors"
	"os"
	"syscall"
)

// dirLock is an advisory flock(2) on a variant's build.lock, held
// exclusively by its build. The kernel drops it when the process dies, so
// a killed build never leaves a stale lock. Readers take no lock.
type dirLock struct{ f *os.File }

// lockFile takes the lock without waiting; a conflicting holder gives
// ErrInUse.
func lockFile(path string) (*dirLock, error) { return flockFile(path, syscall.LOCK_EX) }

// lockShared takes the lock shared, without waiting: beside other shared
// holders (imports of one layer each, Import), never beside a build.
func lockShared(path string) (*dirLock, error) { return flockFile(path, syscall.LOCK_SH) }

func flockFile(path string, how int) (*dirLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrInUse
		}
		return nil, err
	}
	return &dirLock{f: f}, nil
}

// release drops the lock.
func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	return l.f.Close()
}

// allocated returns the bytes a file occupies on disk: its allocated
// 512-byte blocks, which for Badger's sparse, preallocated logs is far
// less than their apparent size.
func allocated(info os.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512
	}
	return info.Size()
}

// diskFree returns the bytes an unprivileged process may still write on
// dir's file system.
func diskFree(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// writableDir fails, as an *fs.PathError, when this process may not
// delete entries of the directory dir (write and search permission).
func writableDir(dir string) error {
	if err := syscall.Access(dir, 0o3); err != nil { // W_OK | X_OK
		return &os.PathError{Op: "access", Path: dir, Err: err}
	}
	return nil
}
