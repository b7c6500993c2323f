package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load test runs only when MANCALA_LOAD=1:
//
//	MANCALA_LOAD=1 go test ./web -run TestLoad -v
//
// It starts the server on a loopback port over the real backend, sends
// MANCALA_LOAD_REQUESTS requests (default 2000) from MANCALA_LOAD_CLIENTS
// clients at once (default 32) over a mix of endpoints, and reports
// requests/s, p50 and p99 latency and errors; then a burst beyond the
// semaphore. It measures; it asserts only that nothing failed.

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// loadMix is the requests the clients cycle through: pages, plays,
// solves of endgames whose values are proven at once, and a short
// analysis.
func loadMix() []func(base string) (*http.Request, error) {
	get := func(path string) func(string) (*http.Request, error) {
		return func(base string) (*http.Request, error) { return http.NewRequest("GET", base+path, nil) }
	}
	q := url.QueryEscape
	var mix []func(string) (*http.Request, error)
	for _, pos := range []string{e2eStart, "awari:0,1,0,0,1,4/1,0,2,0,1,0:2:20-18", "awari:0,1,0,0,1,0/1,2,3,1,1,0:2:20-18"} {
		mix = append(mix, get("/api/solve?all=1&position="+q(pos)))
	}
	mix = append(mix,
		get("/api/play?position=awari&moves=3,5,1,2,4,6"),
		get("/api/play?position="+q(e2eStart)+"&moves=4,1,6,1,2,2,3,4,4,3"),
		get("/api/play?position=oware&moves=3,3,4,2,6,1"),
		get("/"),
		get("/assets/common.js"),
		func(base string) (*http.Request, error) {
			return http.NewRequest("POST", base+"/api/analyze", strings.NewReader(e2eStart+" 4 1 6 1 2 2"))
		},
	)
	return mix
}

type loadResult struct {
	latencies []time.Duration
	status    map[int]int
	slowest   map[int]time.Duration // the longest latency of each status
	failures  []string
	elapsed   time.Duration
}

// runLoad sends n requests from c clients, round-robin over mix.
func runLoad(base string, n, c int, mix []func(string) (*http.Request, error)) loadResult {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c}, Timeout: time.Minute}
	var next atomic.Int64
	var mu sync.Mutex
	res := loadResult{status: map[int]int{}, slowest: map[int]time.Duration{}}
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				req, _ := mix[i%len(mix)](base)
				t0 := time.Now()
				resp, err := client.Do(req)
				status := -1
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					status = resp.StatusCode
				}
				d := time.Since(t0)
				mu.Lock()
				res.latencies = append(res.latencies, d)
				res.status[status]++
				res.slowest[status] = max(res.slowest[status], d)
				if status != 200 && status != 503 && len(res.failures) < 5 {
					res.failures = append(res.failures, fmt.Sprintf("%s %s: %d %v", req.Method, req.URL, status, err))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	sort.Slice(res.latencies, func(i, j int) bool { return res.latencies[i] < res.latencies[j] })
	return res
}

func (r loadResult) quantile(q float64) time.Duration {
	return r.latencies[int(q*float64(len(r.latencies)-1))]
}

func (r loadResult) errors() int {
	n := 0
	for status, count := range r.status {
		if status != 200 && status != 503 {
			n += count
		}
	}
	return n
}

// startServer serves srv on a loopback port until the test ends.
func startServer(t *testing.T, srv *Server) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

func TestLoad(t *testing.T) {
	if os.Getenv("MANCALA_LOAD") != "1" {
		t.Skip("load test: set MANCALA_LOAD=1 to run it")
	}
	n, c := envInt("MANCALA_LOAD_REQUESTS", 2000), envInt("MANCALA_LOAD_CLIENTS", 32)
	searches := envInt("MANCALA_LOAD_SEARCHES", 2)
	srv := New(testBackend(t), Config{Time: 5 * time.Second, Searches: searches, LoopbackOnly: true})
	base := startServer(t, srv)
	mix := loadMix()
	// Warm up: the first endgame solve builds the backend's endgame
	// tablebase, once per process.
	if r := runLoad(base, len(mix), 1, mix); r.errors() > 0 {
		t.Fatalf("warm-up failed: %v", r.failures)
	}
	r := runLoad(base, n, c, mix)
	t.Logf("load: %d requests, %d clients, %d searches at once: %.0f requests/s, p50 %v, p99 %v, max %v; status %v",
		n, c, searches, float64(n)/r.elapsed.Seconds(), r.quantile(0.5).Round(10*time.Microsecond),
		r.quantile(0.99).Round(10*time.Microsecond), r.latencies[len(r.latencies)-1].Round(time.Millisecond), r.status)
	if r.errors() > 0 {
		t.Errorf("%d errors: %v", r.errors(), r.failures)
	}
}

// TestLoadBurst sends more long searches at once than the semaphore and
// its queue can take: some are answered, the rest get 503 quickly, and the
// server answers normally afterwards.
func TestLoadBurst(t *testing.T) {
	if os.Getenv("MANCALA_LOAD") != "1" {
		t.Skip("load test: set MANCALA_LOAD=1 to run it")
	}
	srv := New(testBackend(t), Config{Time: 500 * time.Millisecond, Searches: 1, QueueWait: 200 * time.Millisecond, LoopbackOnly: true})
	base := startServer(t, srv)
	long := func(base string) (*http.Request, error) {
		return http.NewRequest("GET", base+"/api/solve?position=awari&time=500ms", nil)
	}
	burst := envInt("MANCALA_LOAD_BURST", 64)
	r := runLoad(base, burst, burst, []func(string) (*http.Request, error){long})
	t.Logf("burst: %d searches of 500ms at once, 1 slot, 200ms queue: status %v; every 503 within %v",
		burst, r.status, r.slowest[503].Round(time.Millisecond))
	if r.errors() > 0 || r.status[503] == 0 || r.status[200] == 0 {
		t.Errorf("want some 200s, some 503s and nothing else; got %v %v", r.status, r.failures)
	}
	after := runLoad(base, 1, 1, []func(string) (*http.Request, error){long})
	if after.status[200] != 1 {
		t.Errorf("after the burst: %v %v", after.status, after.failures)
	}
	t.Logf("after the burst: a search answered 200 in %v", after.latencies[0].Round(time.Millisecond))
}
