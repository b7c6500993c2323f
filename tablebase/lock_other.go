//go:build !unix

package tablebase

import "os"

// dirLock is a no-op where flock(2) does not exist; Badger's own
// directory lock still keeps two writers apart there.
type dirLock struct{}

func lockDir(dir string, exclusive bool) (*dirLock, error) { return &dirLock{}, nil }

func (l *dirLock) release() error   { return nil }
func (l *dirLock) upgrade() error   { return nil }
func (l *dirLock) downgrade() error { return nil }

// allocated returns the file's size.
func allocated(info os.FileInfo) int64 { return info.Size() }
