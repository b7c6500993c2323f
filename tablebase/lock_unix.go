//go:build unix

package tablebase

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lockName is our own lock file, beside Badger's. Taking it first, without
// blocking, turns every conflict into ErrInUse before Badger is touched.
const lockName = "mancala.lock"

// dirLock is an advisory flock(2) on DIR/mancala.lock: exclusive for a
// builder, shared for probers, verify and stats. The kernel drops it when
// the process dies, so a killed build never leaves a stale lock.
type dirLock struct{ f *os.File }

// lockDir takes the lock without waiting; a conflicting holder gives
// ErrInUse.
func lockDir(dir string, exclusive bool) (*dirLock, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil && !exclusive {
		// A read-only directory: fall back to Badger's own lock.
		return &dirLock{}, nil
	}
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
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

// upgrade makes a shared lock exclusive, or fails with ErrInUse when
// another process holds it too.
func (l *dirLock) upgrade() error { return l.set(syscall.LOCK_EX) }

// downgrade makes an exclusive lock shared again.
func (l *dirLock) downgrade() error { return l.set(syscall.LOCK_SH) }

func (l *dirLock) set(how int) error {
	if l.f == nil {
		return nil
	}
	err := syscall.Flock(int(l.f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrInUse
	}
	return err
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
