//go:build !unix

package tablebase

import (
	"errors"
	"os"
)

// dirLock is a no-op where flock(2) does not exist; Badger's own
// directory lock still keeps two writers of one layer apart there.
type dirLock struct{}

func lockFile(path string) (*dirLock, error) { return &dirLock{}, nil }

func lockShared(path string) (*dirLock, error) { return &dirLock{}, nil }

func (l *dirLock) release() error { return nil }

// allocated returns the file's size.
func allocated(info os.FileInfo) int64 { return info.Size() }

// diskFree is unknown here: the space check is skipped.
func diskFree(dir string) (int64, error) { return 0, errors.ErrUnsupported }

// writableDir is not known here: a removal that fails says so itself.
func writableDir(dir string) error { return nil }
