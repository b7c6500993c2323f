//go:build unix

package solver

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// BenchmarkSearchEstimate measures the cost of each estimate in search:
// one thread, 1,000,000 nodes from oware's start (the table cleared
// before each), reported in CPU time a node (the process's user and
// system time, which on a loaded machine means more than wall time).
//
//	go test ./solver -run '^$' -bench SearchEstimate
func BenchmarkSearchEstimate(b *testing.B) {
	v, err := position.Lookup("oware")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []Estimate{EstimateRows, EstimateTuned} {
		b.Run(e.String(), func(b *testing.B) {
			s, err := New(Options{Threads: 1, HashMiB: 16, MaxNodes: 1_000_000, Estimate: e})
			if err != nil {
				b.Fatal(err)
			}
			nodes, cpu0 := uint64(0), cpuTime()
			for b.Loop() {
				s.Clear()
				res, err := s.Search(context.Background(), v, v.Start())
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(nodes), "cpu-ns/node")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
