package tablebase

import (
	"sync"
	"sync/atomic"
)

// progress counts a layer's work units (3 per position: the scan, then
// the graph method's reverse pass and propagation, or the iteration
// method's sweeps) and hands them to the caller's callback, one call at a
// time and never going backwards.
type progress struct {
	layer    int
	total    int64
	done     atomic.Int64
	mu       sync.Mutex
	reported int64
	fn       func(layer int, done, total int64)
}

func newProgress(layer int, positions int64, fn func(layer int, done, total int64)) *progress {
	return &progress{layer: layer, total: 3 * positions, fn: fn}
}

// add records units more of work done.
func (p *progress) add(units int64) { p.report(p.done.Add(units)) }

// reach records that the work done is at least level.
func (p *progress) reach(level int64) {
	for {
		d := p.done.Load()
		if d >= level || p.done.CompareAndSwap(d, level) {
			break
		}
	}
	p.report(p.done.Load())
}

func (p *progress) report(done int64) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	done = min(done, p.total)
	if done > p.reported {
		p.reported = done
		p.fn(p.layer, done, p.total)
	}
}
