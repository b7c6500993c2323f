//go:build !amd64

package tablebase

// prefetchAll does nothing where no prefetch instruction is wired in.
func prefetchAll(addrs []uintptr) {}
