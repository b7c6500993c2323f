package web

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit is a listener that keeps at most max connections open. When
// one more arrives it closes the evictable connection (idle between
// requests, or new and not yet sending one) that has waited longest: such
// a connection costs a file descriptor and serves nobody, and an HTTP
// client opens a new one when it next asks. When none is evictable, every
// connection is in a request, which the server's timeouts bound, so
// Accept waits for one to end.
type connLimit struct {
	net.Listener
	max int

	mu        sync.Mutex
	changed   *sync.Cond // a connection closed or became evictable, or the listener closed
	open      int
	evictable map[*limitedConn]time.Time // since when
	closed    bool
}

func newConnLimit(ln net.Listener, max int) *connLimit {
	l := &connLimit{Listener: ln, max: max, evictable: map[*limitedConn]time.Time{}}
	l.changed = sync.NewCond(&l.mu)
	return l
}

// Accept accepts a connection, then makes room for it.
func (l *connLimit) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.open >= l.max && !l.closed {
		if oldest := l.oldestEvictable(); oldest != nil {
			delete(l.evictable, oldest)
			l.mu.Unlock()
			oldest.Close() // counts itself out
			l.mu.Lock()
			continue
		}
		l.changed.Wait()
	}
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.open++
	return &limitedConn{Conn: c, l: l}, nil
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *connLimit) Close() error {
	l.mu.Lock()
	l.closed = true
	l.changed.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

func (l *connLimit) oldestEvictable() *limitedConn {
	var oldest *limitedConn
	var since time.Time
	for c, t := range l.evictable {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	return oldest
}

// connState is the http.Server's ConnState hook: it tells which
// connections are between requests.
func (l *connLimit) connState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch state {
	case http.StateNew, http.StateIdle:
		if !c.closed {
			l.evictable[c] = time.Now()
			l.changed.Broadcast()
		}
	default: // active, hijacked, closed
		delete(l.evictable, c)
	}
}

// limitedConn is a connection counted by its connLimit until closed.
type limitedConn struct {
	net.Conn
	l      *connLimit
	closed bool // under l.mu
}

func (c *limitedConn) Close() error {
	l := c.l
	l.mu.Lock()
	if !c.closed {
		c.closed = true
		l.open--
		delete(l.evictable, c)
		l.changed.Broadcast()
	}
	l.mu.Unlock()
	return c.Conn.Close()
}
