//go:build unix

package solver

import (
	"context"
	"fmt"
	"slices"
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

// BenchmarkKalahThreads measures how one and two threads share a kalah
// proof: Kalah(6,3) from the start, no tablebase, Request.OneBest, the
// table cleared before each. Besides the wall time it reports the nodes
// of all threads, those of the busiest thread (the work on the longest
// path: two threads that split a proof evenly and waste nothing would
// each search half of one thread's nodes) and the CPU time, so that the
// split can be judged on a loaded machine too.
//
//	go test ./solver -run '^$' -bench KalahThreads
func BenchmarkKalahThreads(b *testing.B) {
	v := position.Kalah(6, 3)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s, err := New(Options{Threads: threads, HashMiB: 64})
			if err != nil {
				b.Fatal(err)
			}
			nodes, busiest, cpu0 := uint64(0), uint64(0), cpuTime()
			for b.Loop() {
				s.Clear()
				res, err := s.SearchRequest(context.Background(), v, v.Start(), Request{OneBest: true})
				if err != nil || !res.Exact {
					b.Fatalf("%v, exact %v", err, res.Exact)
				}
				nodes += res.Nodes
				busiest += slices.Max(s.threadNodes)
			}
			n := float64(b.N)
			b.ReportMetric(float64(nodes)/n, "nodes/op")
			b.ReportMetric(float64(busiest)/n, "busiest-nodes/op")
			b.ReportMetric((cpuTime()-cpu0).Seconds()/n, "cpu-s/op")
		})
	}
}
