package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// A search beyond the semaphore waits QueueWait and gets 503; play needs
// no slot; once the slot is free, searches are answered again.
func TestBusyServerAnswers503(t *testing.T) {
	f := newFake()
	h := New(f, Config{Searches: 1, QueueWait: 50 * time.Millisecond}).Handler()
	first := make(chan int)
	go func() {
		resp, _ := do(t, h, "GET", "/api/solve?position=slow", "")
		first <- resp.StatusCode
	}()
	<-f.started
	resp, body := do(t, h, "GET", "/api/solve?position=awari", "")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second search: status %d (Retry-After %q), want 503", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	errorOf(t, body)
	if resp, _ := do(t, h, "POST", "/api/analyze", "awari 1"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("analysis while busy: status %d, want 503", resp.StatusCode)
	}
	if resp, _ := do(t, h, "GET", "/api/play?position=awari&moves=1", ""); resp.StatusCode != 200 {
		t.Errorf("play while busy: status %d, want 200", resp.StatusCode)
	}
	close(f.release)
	if got := <-first; got != 200 {
		t.Errorf("first search: status %d, want 200", got)
	}
	if resp, _ := do(t, h, "GET", "/api/solve?position=awari", ""); resp.StatusCode != 200 {
		t.Errorf("search after the burst: status %d, want 200", resp.StatusCode)
	}
}

// Every search runs under the request's time limit: a search that would
// never end is stopped at Config.Time plus the grace.
func TestSearchHasADeadline(t *testing.T) {
	f := newFake()
	h := New(f, Config{Time: 10 * time.Millisecond}).Handler()
	done := make(chan int)
	go func() {
		resp, _ := do(t, h, "GET", "/api/solve?position=slow", "")
		done <- resp.StatusCode
	}()
	select {
	case got := <-done:
		if got != 200 {
			t.Errorf("status %d, want 200 (the fake answers when its context ends)", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("the search was never stopped")
	}
}

// Serve stops when its context ends: searches in flight are canceled and
// answered, then Serve returns and the port is closed.
func TestServeShutsDownGracefully(t *testing.T) {
	f := newFake()
	srv := New(f, Config{Time: time.Minute, LoopbackOnly: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error)
	go func() { served <- srv.Serve(ctx, ln) }()
	inFlight := make(chan int)
	go func() {
		resp, err := http.Get(addr + "/api/solve?position=slow")
		if err != nil {
			inFlight <- -1
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		inFlight <- resp.StatusCode
	}()
	<-f.started
	stop()
	if got := <-inFlight; got != 200 {
		t.Errorf("the search in flight got %d, want 200", got)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get(addr + "/"); err == nil {
		t.Error("the server still answers after shutting down")
	}
}

// A client that goes away (the board page cancels the search of a
// position it has left) frees its search slot at once.
func TestClientGoneFreesTheSlot(t *testing.T) {
	f := newFake()
	srv := New(f, Config{Time: time.Minute, Searches: 1, QueueWait: 5 * time.Second})
	base := startServer(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/solve?position=slow", nil)
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-f.started
	cancel()
	start := time.Now()
	resp, err := http.Get(base + "/api/solve?position=awari")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d after %v, want 200: the slot was not freed", resp.StatusCode, time.Since(start))
	}
}

// Look-ups the tablebase answers at once (solve of a position it holds,
// query) do not wait for the search slots: with every slot held by a
// search that blocks, they are answered, while a solve that needs a
// search gets 503.
func TestLookupsDoNotQueueBehindSearches(t *testing.T) {
	f := newFake()
	h := New(f, Config{Searches: 2, QueueWait: 50 * time.Millisecond}).Handler()
	done := make(chan int, 2)
	for range 2 {
		go func() {
			resp, _ := do(t, h, "GET", "/api/solve?position=slow", "")
			done <- resp.StatusCode
		}()
	}
	<-f.started
	<-f.started
	for _, target := range []string{"/api/solve?position=held&all=1", "/api/query?position=awari"} {
		if resp, body := do(t, h, "GET", target, ""); resp.StatusCode != 200 {
			t.Errorf("%s with every search slot held: status %d %s, want 200", target, resp.StatusCode, body)
		}
	}
	if resp, _ := do(t, h, "GET", "/api/solve?position=awari", ""); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a solve that needs a search: status %d, want 503", resp.StatusCode)
	}
	close(f.release)
	for range 2 {
		if got := <-done; got != 200 {
			t.Errorf("a search: status %d", got)
		}
	}
}

// The busy message counts the slots in words: "1 search running".
func TestBusyMessageSingular(t *testing.T) {
	f := newFake()
	h := New(f, Config{Searches: 1, QueueWait: 10 * time.Millisecond}).Handler()
	go do(t, h, "GET", "/api/solve?position=slow", "")
	<-f.started
	defer close(f.release)
	resp, body := do(t, h, "GET", "/api/solve?position=awari", "")
	if msg := errorOf(t, body); resp.StatusCode != 503 || msg != "server busy: 1 search running; try again shortly" {
		t.Errorf("status %d: %q", resp.StatusCode, msg)
	}
}
