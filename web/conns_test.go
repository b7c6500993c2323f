package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// failsafe ends a read that the server should answer or close; it is hit
// only when the test fails.
const failsafe = 30 * time.Second

// get sends one keep-alive request on c and reads its response.
func get(t *testing.T, c net.Conn, r *bufio.Reader, path string) int {
	t.Helper()
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// Idle keep-alive connections beyond Config.MaxConns do not lock new
// clients out: each connection over the bound closes one that is idle, so
// every client is answered and, of clients connections, all but max are
// closed by the server (which ones depends on when the server marks each
// idle). The newest stays open: no connection came after it.
func TestIdleConnectionsAreCapped(t *testing.T) {
	const max, clients = 4, 12
	base := startServer(t, New(newFake(), Config{MaxConns: max, LoopbackOnly: true}))
	addr := base[len("http://"):]
	conns := make([]net.Conn, clients)
	readers := make([]*bufio.Reader, clients)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(failsafe))
		conns[i], readers[i] = c, bufio.NewReader(c)
		if got := get(t, c, readers[i], "/api/variants"); got != 200 {
			t.Fatalf("client %d: status %d", i, got)
		}
	}
	closed := make(chan int, clients)
	for i := range clients - 1 {
		go func() {
			if _, err := readers[i].ReadByte(); errors.Is(err, io.EOF) {
				closed <- i
			} else {
				closed <- -1 // the failsafe, or the test's end
			}
		}()
	}
	for range clients - max {
		if i := <-closed; i < 0 {
			t.Fatalf("fewer than %d of the %d older connections were closed", clients-max, clients-1)
		}
	}
	last := clients - 1
	if got := get(t, conns[last], readers[last], "/api/variants"); got != 200 {
		t.Errorf("the newest client's second request: status %d", got)
	}
}
