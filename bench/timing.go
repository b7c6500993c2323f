package bench

import (
	"context"
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
