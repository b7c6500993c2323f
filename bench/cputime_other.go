//go:build !unix

package bench

// processCPUSeconds is not measured outside Unix: the figures that need
// it are left out.
func processCPUSeconds() (seconds float64, ok bool) { return 0, false }
