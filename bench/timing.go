package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Options are shared by every benchmark.
type Options struct {
	// Threads is the goroutine count of the multi-threaded figures.
	Threads int
	// Seconds is the time budget of one figure, split over Runs runs.
	Seconds float64
	// Runs is the number of timed runs a figure's median is taken over.
	Runs int
	// PlayLeaves makes perft play every move of its last ply instead of
	// bulk-counting it (the counts are the same).
	PlayLeaves bool
	// Starting, when not nil, is called before each figure is measured
	// (its Median, Min and Max still 0), and Measured with each figure
	// once measured, so that a caller can show progress.
	Starting, Measured func(Figure)
}

// MinRunSeconds is the shortest timed run Options allow: below a
// millisecond, starting the goroutines and reading the clock weigh more
// than the work measured (and a run of 0.2 ns measured 0 moves/s).
const MinRunSeconds = 0.001

// MaxRuns is the most runs that seconds can be split into, each lasting
// at least MinRunSeconds (0 when not even one can).
func MaxRuns(seconds float64) int {
	if !(seconds >= MinRunSeconds) { // also NaN
		return 0
	}
	return int(min(seconds/MinRunSeconds+1e-9, 1<<30))
}

// RunsError is Check's refusal of more runs than a figure's time holds.
type RunsError struct {
	Runs    int
	Seconds float64
	Max     int // MaxRuns(Seconds)
}

func (e *RunsError) Error() string {
	return fmt.Sprintf("%d runs in %g s: each would last less than %g s, too short to measure; at most %d runs fit",
		e.Runs, e.Seconds, MinRunSeconds, e.Max)
}

// Check returns an error for options Run cannot measure with: no thread,
// no run, or more runs than Seconds holds (a *RunsError: each run's share
// of Seconds under MinRunSeconds).
func (o Options) Check() error {
	switch {
	case o.Threads < 1:
		return fmt.Errorf("%d threads: want 1 or more", o.Threads)
	case o.Runs < 1:
		return fmt.Errorf("%d runs: want 1 or more", o.Runs)
	case o.Runs > MaxRuns(o.Seconds):
		return &RunsError{Runs: o.Runs, Seconds: o.Seconds, Max: MaxRuns(o.Seconds)}
	}
	return nil
}

func (o Options) runDuration() time.Duration {
	runs := max(o.Runs, 1)
	return time.Duration(o.Seconds / float64(runs) * float64(time.Second))
}

// rate runs work on threads goroutines for d and returns operations per
// second. work does a batch of operations starting at offset i and returns
// how many it did; it is called until the time is up or ctx is done.
func rate(ctx context.Context, threads int, d time.Duration, work func(i int) int) float64 {
	var total atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(offset int) {
			defer wg.Done()
			done := 0
			for i := offset; time.Now().Before(deadline) && ctx.Err() == nil; {
				n := work(i)
				done += n
				i += n
			}
			total.Add(int64(done))
		}(t * 7919)
	}
	wg.Wait()
	return float64(total.Load()) / time.Since(start).Seconds()
}

// repeat measures a rate opts.Runs times and summarises the runs that
// finished. A run that ctx stopped is dropped, and so is the figure (ok
// false) when no run finished: a cut run's rate is not a measurement.
func repeat(ctx context.Context, f Figure, opts Options, measure func() float64) (_ Figure, ok bool) {
	if ctx.Err() != nil {
		return f, false
	}
	if opts.Starting != nil {
		opts.Starting(f)
	}
	rates := make([]float64, 0, opts.Runs)
	for r := 0; r < max(opts.Runs, 1); r++ {
		x := measure()
		if ctx.Err() != nil {
			break
		}
		rates = append(rates, x)
	}
	if len(rates) == 0 {
		return f, false
	}
	f = summarise(f, rates)
	if opts.Measured != nil {
		opts.Measured(f)
	}
	return f, true
}
