package solver

import "testing"

// TestNewRefusesTooManyThreads: a thread count beyond MaxThreads is
// refused when the solver is made, not met by a search that spends its
// time limit starting threads (reliability trial 6 of issue 43: serve
// with 2^63-1 threads never answered).
func TestNewRefusesTooManyThreads(t *testing.T) {
	for _, c := range []struct {
		threads int
		ok      bool
	}{{1, true}, {MaxThreads, true}, {MaxThreads + 1, false}, {1<<63 - 1, false}} {
		_, err := New(Options{Threads: c.threads, HashMiB: 1})
		if (err == nil) != c.ok {
			t.Errorf("%d threads: %v, want ok %v", c.threads, err, c.ok)
		}
	}
}
