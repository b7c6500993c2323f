//go:build unix

package bench

import "syscall"

// processCPUSeconds returns the CPU time this process has used so far,
// user plus system, over all its threads (getrusage RUSAGE_SELF); ok is
// false when the system call fails.
func processCPUSeconds() (seconds float64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}
