//go:build linux

package tablebase

import "syscall"

// writerAttr makes the database writer die with the build, so that no
// orphan writes into a staging directory the next build deletes.
func writerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
