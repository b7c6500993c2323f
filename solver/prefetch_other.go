//go:build !amd64

package solver

// prefetch does nothing where no prefetch instruction is wired in.
func prefetch(addr *uint64) {}
