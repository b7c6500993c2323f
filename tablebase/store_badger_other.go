//go:build !linux

package tablebase

import "syscall"

// writerAttr has nothing to set where the parent's death cannot be
// passed on; a writer left running only writes its staging directory.
func writerAttr() *syscall.SysProcAttr { return nil }
