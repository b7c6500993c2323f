package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeOracle answers from its inputs, so that the tests see exactly what
// the handlers passed on. Position "bad" is a BadRequest, "fail" a server
// error, "slow" blocks until ctx ends or release is closed, "busy" and
// "left" end as a wait for a busy solver does when the request's deadline
// passes or its client leaves.
type fakeOracle struct {
	mu      sync.Mutex
	solves  []SolveQuery
	analyze []AnalyzeQuery
	release chan struct{}
	started chan struct{}
}

func newFake() *fakeOracle {
	return &fakeOracle{release: make(chan struct{}), started: make(chan struct{}, 16)}
}

func (f *fakeOracle) answer(ctx context.Context, pos string, v any) (any, error) {
	switch pos {
	case "bad":
		return nil, BadRequestf("bad: not a position")
	case "fail":
		return nil, errors.New("disk on fire")
	case "busy":
		return nil, fmt.Errorf("waiting for the awari solver, busy with another search: %w", context.DeadlineExceeded)
	case "left":
		return nil, fmt.Errorf("waiting for the awari solver, busy with another search: %w", context.Canceled)
	case "slow":
		f.started <- struct{}{}
		select {
		case <-ctx.Done():
		case <-f.release:
		}
	}
	return v, nil
}

func (f *fakeOracle) Solve(ctx context.Context, q SolveQuery) (any, error) {
	f.mu.Lock()
	f.solves = append(f.solves, q)
	f.mu.Unlock()
	return f.answer(ctx, q.Position, map[string]any{"position": q.Position, "value": 0, "exact": true})
}

// Lookup answers position "held" at once, as a tablebase would; every
// other position needs a search.
func (f *fakeOracle) Lookup(ctx context.Context, q SolveQuery) (any, bool, error) {
	if q.Position != "held" {
		return nil, false, nil
	}
	return map[string]any{"position": q.Position, "value": 2, "exact": true, "source": "tablebase"}, true, nil
}

func (f *fakeOracle) Query(ctx context.Context, pos string) (any, error) {
	return f.answer(ctx, pos, map[string]any{"position": pos, "value": 1, "exact": true})
}

func (f *fakeOracle) Play(ctx context.Context, pos, moves string) (any, error) {
	return f.answer(ctx, pos, map[string]any{"position": pos, "moves": moves, "game_over": false})
}

func (f *fakeOracle) Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error) {
	f.mu.Lock()
	f.analyze = append(f.analyze, q)
	f.mu.Unlock()
	var out []any
	for _, line := range strings.Split(q.Games, "\n") {
		start, _ := gameFields(line)
		if start == "" {
			continue
		}
		res, err := f.answer(ctx, start, map[string]any{"position": start})
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

func (f *fakeOracle) Variants() []VariantInfo {
	return []VariantInfo{{Name: "awari", Pits: 6, Seeds: 48, Start: "awari:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0"}}
}

// do sends one request to h and returns the response and its body.
func do(t *testing.T, h http.Handler, method, target, body string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.String()
}

// errorOf decodes an {"error": "..."} body.
func errorOf(t *testing.T, body string) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
		t.Fatalf("body %q is not {\"error\": ...}", body)
	}
	return e.Error
}

func TestAPIStatusAndErrors(t *testing.T) {
	long := strings.Repeat("4,", 200)
	tests := []struct {
		name, method, target, body string
		status                     int
		errHas                     string // part of the error message; "" for a 2xx
	}{
		{"solve", "GET", "/api/solve?position=awari&all=1&time=1s", "", 200, ""},
		{"solve without position", "GET", "/api/solve", "", 400, "position: missing"},
		{"solve bad position", "GET", "/api/solve?position=bad", "", 400, "bad: not a position"},
		{"solve bad time", "GET", "/api/solve?position=awari&time=soon", "", 400, `time "soon"`},
		{"solve negative time", "GET", "/api/solve?position=awari&time=-1s", "", 400, `time "-1s"`},
		{"solve bad all", "GET", "/api/solve?position=awari&all=maybe", "", 400, `all "maybe"`},
		{"solve long position", "GET", "/api/solve?position=awari:" + long, "", 400, "at most 256"},
		{"solve server error", "GET", "/api/solve?position=fail", "", 500, "disk on fire"},
		{"solve past its deadline", "GET", "/api/solve?position=busy", "", 503, "server busy: waiting for the awari solver"},
		{"solve cancelled", "GET", "/api/solve?position=left", "", 503, "busy with another search: context canceled"},
		{"query", "GET", "/api/query?position=awari", "", 200, ""},
		{"query bad", "GET", "/api/query?position=bad", "", 400, "bad: not a position"},
		{"query missing", "GET", "/api/query", "", 400, "position: missing"},
		{"play", "GET", "/api/play?position=awari&moves=3,5,pass,1", "", 200, ""},
		{"play bad", "GET", "/api/play?position=bad&moves=1", "", 400, "bad: not a position"},
		{"play too many moves", "GET", "/api/play?position=awari&moves=" + strings.Repeat("1,", 2001), "", 400, "2001 moves, at most 2000"},
		{"analyze", "POST", "/api/analyze", "awari 3 3\n", 200, ""},
		{"analyze empty", "POST", "/api/analyze", "# nothing\n\n", 400, "no game"},
		{"analyze bad game", "POST", "/api/analyze", "bad 1 2", 400, "bad: not a position"},
		{"analyze too many games", "POST", "/api/analyze", strings.Repeat("awari 1\n", 9), 400, "line 9: more than 8 games"},
		{"analyze too many plies", "POST", "/api/analyze", "awari" + strings.Repeat(" 1", 601), 400, "601 moves, at most 600"},
		{"analyze too big", "POST", "/api/analyze", strings.Repeat("#", 65<<10), 413, "more than 65536 bytes"},
		{"solve by POST", "POST", "/api/solve?position=awari", "", 405, "use GET"},
		{"analyze by GET", "GET", "/api/analyze", "", 405, "use POST"},
		{"unknown route", "GET", "/api/files?name=/etc/passwd", "", 404, "no such API route"},
		{"variants", "GET", "/api/variants", "", 200, ""},
	}
	h := New(newFake(), Config{}).Handler()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, h, tc.method, tc.target, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/") || !strings.Contains(ct, "json") {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			if tc.errHas != "" {
				if msg := errorOf(t, body); !strings.Contains(msg, tc.errHas) {
					t.Errorf("error %q does not name %q", msg, tc.errHas)
				}
			} else if !json.Valid([]byte(body)) {
				t.Errorf("body %q is not one JSON value", body)
			}
		})
	}
}

func TestSolveTimeIsCapped(t *testing.T) {
	f := newFake()
	h := New(f, Config{Time: 2 * time.Second}).Handler()
	for _, target := range []string{"/api/solve?position=awari&time=500ms", "/api/solve?position=awari&time=1h", "/api/solve?position=awari&all"} {
		if resp, body := do(t, h, "GET", target, ""); resp.StatusCode != 200 {
			t.Fatalf("%s: status %d %s", target, resp.StatusCode, body)
		}
	}
	want := []SolveQuery{{"awari", 500 * time.Millisecond, false}, {"awari", 2 * time.Second, false}, {"awari", 2 * time.Second, true}}
	for i, q := range f.solves {
		if q != want[i] {
			t.Errorf("request %d reached the oracle as %+v, want %+v", i, q, want[i])
		}
	}
}

func TestAnalyzeSharesTimeAmongPlies(t *testing.T) {
	f := newFake()
	h := New(f, Config{Time: 4 * time.Second}).Handler()
	if resp, body := do(t, h, "POST", "/api/analyze", "awari 1 2 3 4\n# a comment\nawari 3,3,4,4\n"); resp.StatusCode != 200 {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	if got := f.analyze[0].PlyTime; got != 500*time.Millisecond {
		t.Errorf("ply time %v for 8 plies in 4s, want 500ms", got)
	}
}

// Several games come back as JSON Lines, one object a game, as
// `analyze --json` writes them.
func TestAnalyzeSeveralGamesAsJSONLines(t *testing.T) {
	h := New(newFake(), Config{}).Handler()
	resp, body := do(t, h, "POST", "/api/analyze", "awari 1\noware 2\n")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson; charset=utf-8" {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"awari"`) || !strings.Contains(lines[1], `"oware"`) {
		t.Errorf("body %q, want two lines, awari then oware", body)
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := New(newFake(), Config{}).Handler()
	for _, target := range []string{"/", "/analyze", "/assets/board.js", "/api/solve?position=awari", "/api/solve", "/nowhere"} {
		resp, _ := do(t, h, "GET", target, "")
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", target, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q allows unsafe sources", target, csp)
		}
		for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"} {
			if got := resp.Header.Get(name); got != want {
				t.Errorf("%s: %s %q, want %q", target, name, got, want)
			}
		}
	}
}

func TestLoopbackServerRefusesOtherHosts(t *testing.T) {
	h := New(newFake(), Config{LoopbackOnly: true}).Handler()
	for host, want := range map[string]int{"localhost:8080": 200, "127.0.0.1:8080": 200, "[::1]:8080": 200,
		"LOCALHOST": 200, "evil.example:8080": 421, "10.0.0.1": 421, "127.0.0.1.evil.example": 421} {
		req := httptest.NewRequest("GET", "/api/variants", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %q: status %d, want %d", host, rec.Code, want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "[::1]:0": true, "localhost:80": true,
		":8080": false, "0.0.0.0:8080": false, "192.168.1.2:80": false, "8080": false} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestPagesAndAssets(t *testing.T) {
	h := New(newFake(), Config{}).Handler()
	for target, want := range map[string]string{
		"/": "/assets/board.js", "/analyze": "/assets/analyze.js",
		"/assets/common.js": "drawBoard", "/assets/style.css": "--p1",
	} {
		resp, body := do(t, h, "GET", target, "")
		if resp.StatusCode != 200 || !strings.Contains(body, want) {
			t.Errorf("%s: status %d, body lacks %q", target, resp.StatusCode, want)
		}
	}
	for _, target := range []string{"/assets/", "/assets/../go.mod", "/assets/nothing.js", "/etc/passwd", "/board.html", "/assets/%2e%2e/doc.go"} {
		if resp, body := do(t, h, "GET", target, ""); resp.StatusCode != 404 && resp.StatusCode != 307 || strings.Contains(body, "package") {
			t.Errorf("%s: status %d, want 404 (or a redirect to a cleaned path)", target, resp.StatusCode)
		}
	}
}

// The pages must work under the CSP: no inline script, no inline style, no
// event-handler attributes, nothing from another origin.
func TestPagesNeedNothingInlineOrRemote(t *testing.T) {
	scriptTag := regexp.MustCompile(`(?i)<script[^>]*>`)
	inline := regexp.MustCompile(`(?i)\sstyle=|\son[a-z]+=|https?://|<style`)
	setStyle := regexp.MustCompile(`setAttribute\("style"|\.innerHTML\s*=|eval\(|new Function`)
	err := fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := assets.ReadFile(path)
		text := string(data)
		if strings.HasSuffix(path, ".html") {
			for _, tag := range scriptTag.FindAllString(text, -1) {
				if !strings.Contains(tag, ` src="/assets/`) {
					t.Errorf("%s: %s is an inline script", path, tag)
				}
			}
			if m := inline.FindString(text); m != "" {
				t.Errorf("%s: %q is blocked by the CSP or loads from elsewhere", path, m)
			}
		}
		if strings.HasSuffix(path, ".js") {
			if m := setStyle.FindString(text); m != "" {
				t.Errorf("%s: %q is blocked by the CSP or unsafe", path, m)
			}
			if strings.Contains(strings.ReplaceAll(text, "http://www.w3.org/2000/svg", ""), "http") {
				t.Errorf("%s: names a remote address", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
