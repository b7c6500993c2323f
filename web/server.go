package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"
)

// MaxTime caps Config.Time: no request searches longer than this.
const MaxTime = 2 * time.Minute

// Config sets the server's bounds. Zero fields take the defaults below.
type Config struct {
	// Time bounds each request's work (a solve's search, a whole
	// analysis); default 5 s, capped at MaxTime.
	Time time.Duration
	// Searches is how many searches may run at once; default 1.
	Searches int
	// Lookups is how many look-ups (answers the tablebase gives at once:
	// query, and solve of a position it holds) may run at once, beside
	// the searches and without waiting for them; default 16.
	Lookups int
	// QueueWait is how long a request waits for a search slot before it
	// gets 503; default 3 s.
	QueueWait time.Duration
	// LoopbackOnly makes the server answer only requests whose Host names
	// a loopback address (set it when listening on one).
	LoopbackOnly bool
	// MaxConns bounds the open connections; default 256. A connection
	// over it closes the one idle longest (its client reconnects when it
	// next asks), or waits for one to end when none is idle, so that idle
	// keep-alive connections cannot use up the process's file limit.
	MaxConns int
	Limits   Limits
	// Logf, if set, receives one line per failed request (status 500).
	Logf func(format string, args ...any)
}

// Limits bound what one request may ask for.
type Limits struct {
	Body     int64 // bytes of an analyze body; default 64 KiB
	Position int   // bytes of a position string; default 256
	Moves    int   // moves in a play request; default 2000
	Games    int   // games in an analyze request; default 8
	Plies    int   // moves in one analysed game; default 600
}

// minPlyTime is the least search time an analysed ply gets when the
// request's time is shared among many plies.
const minPlyTime = 20 * time.Millisecond

// grace is the time an Oracle gets, after its search time, to finish its
// answer before the request's context ends.
const grace = 2 * time.Second

func (c Config) withDefaults() Config {
	if c.Time <= 0 {
		c.Time = 5 * time.Second
	}
	c.Time = min(c.Time, MaxTime)
	if c.Searches < 1 {
		c.Searches = 1
	}
	if c.QueueWait <= 0 {
		c.QueueWait = 3 * time.Second
	}
	c.MaxConns = defaultTo(c.MaxConns, 256)
	c.Lookups = defaultTo(c.Lookups, 16)
	l := &c.Limits
	l.Body = defaultTo(l.Body, 64<<10)
	l.Position = defaultTo(l.Position, 256)
	l.Moves = defaultTo(l.Moves, 2000)
	l.Games = defaultTo(l.Games, 8)
	l.Plies = defaultTo(l.Plies, 600)
	return c
}

func defaultTo[T int | int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Server serves the pages and the API over an Oracle.
type Server struct {
	cfg      Config
	oracle   Oracle
	searches *semaphore.Weighted
	lookups  *semaphore.Weighted
	handler  http.Handler
}

// New returns a server over o with cfg's bounds (defaults filled in).
func New(o Oracle, cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, oracle: o, searches: semaphore.NewWeighted(int64(cfg.Searches)),
		lookups: semaphore.NewWeighted(int64(cfg.Lookups))}
	s.handler = s.routes()
	return s
}

// Config returns the server's configuration with its defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Handler returns the server's HTTP handler: every page and API route with
// the security headers and the host check.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", servePage("board.html"))
	mux.HandleFunc("GET /analyze", servePage("analyze.html"))
	mux.Handle("GET /assets/", assetHandler())
	mux.HandleFunc("/api/variants", only("GET", s.variants))
	mux.HandleFunc("/api/solve", only("GET", s.solve))
	mux.HandleFunc("/api/query", only("GET", s.query))
	mux.HandleFunc("/api/play", only("GET", s.play))
	mux.HandleFunc("/api/move", only("GET", s.move))
	mux.HandleFunc("/api/analyze", only("POST", s.analyze))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route: "+r.Method+" "+r.URL.Path)
	})
	return s.secure(mux)
}

// only answers requests of one method (GET also allows HEAD); others get
// 405 with a JSON error.
func only(method string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == "GET" && r.Method == "HEAD") {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": use "+method)
			return
		}
		h(w, r)
	}
}

// secure adds the security headers to every response and, for a loopback
// server, refuses requests for other hosts.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "+
			"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if s.cfg.LoopbackOnly && !loopbackHost(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, "this server answers only for localhost")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names a loopback address.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether a listen address (host:port) is on a loopback
// interface only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return loopbackHost(host)
}

// Serve answers on ln until ctx ends, then shuts down gracefully: it stops
// accepting, cancels the searches in flight (they answer with what they
// have) and waits for their responses, at most Config.Time plus a grace.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()
	limited := newConnLimit(ln, s.cfg.MaxConns)
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      s.cfg.QueueWait + s.cfg.Time + 2*grace + 5*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnState:         limited.connState,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(limited) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	cancelRequests()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.Time+2*grace)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serveErr := <-done; !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}
