//go:build !amd64

package prefetch

import "unsafe"

// Line does nothing where no prefetch instruction is wired in.
func Line(addr unsafe.Pointer) {}

// All does nothing where no prefetch instruction is wired in.
func All(addrs []uintptr) {}
