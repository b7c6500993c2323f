package web

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// stalling is the real backend whose searches (solve, analyze) never end
// by themselves: each one says on begun that it started, waits for its
// context to end, and sends on ended how it ended.
type stalling struct {
	*Answers
	begun chan string
	ended chan error
}

func (s *stalling) stall(ctx context.Context, what string) error {
	s.begun <- what
	<-ctx.Done()
	s.ended <- ctx.Err()
	return ctx.Err()
}

func (s *stalling) Solve(ctx context.Context, q SolveQuery) (any, error) {
	return nil, s.stall(ctx, "solve "+q.Position)
}

func (s *stalling) Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error) {
	return nil, s.stall(ctx, "analyze "+q.Games)
}

// TestBrowserLeave leaves each page while its search runs and checks that
// the server sees the request canceled, not run to its time limit, and
// that the page, shown again, asks for its search again.
// Chromium keeps a page left behind in its back/forward cache with its
// fetches in flight, and the connection open: before the pages aborted
// their requests on pagehide, a board page left kept searching for the
// server's whole limit (a minute in TestBrowser: the next subtest waited
// 57 s for a slot). Nothing here depends on speed: a search the page
// does not abort ends by the deadline, context.DeadlineExceeded.
func TestBrowserLeave(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cons := newBrowser(t)
	o := &stalling{Answers: testBackend(t), begun: make(chan string, 8), ended: make(chan error, 8)}
	// The time limit bounds a failing run only: ample for a navigation.
	srv := httptest.NewServer(New(o, Config{Time: 20 * time.Second, LoopbackOnly: true}).Handler())
	defer srv.Close()
	begun := func(page string) {
		t.Helper()
		select {
		case what := <-o.begun:
			t.Logf("%s: %s under way", page, what)
		case <-time.After(time.Minute):
			t.Fatalf("%s asked for no search", page)
		}
	}
	leave := func(page string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		if err := <-o.ended; !errors.Is(err, context.Canceled) {
			t.Errorf("%s left: its search ended by %v, want the request canceled", page, err)
		}
	}
	for _, page := range []string{"/?position=awari", "/analyze?game=" + url.QueryEscape("awari 1")} {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+page)); err != nil {
			t.Fatal(err)
		}
		begun(page)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`window.leftOnce = true`)); err != nil {
			t.Fatal(err)
		}
		leave(page)
		// Back: shown again from the cache (pageshow), the page asks for
		// its search again, as it does loaded anew. Not
		// chromedp.NavigateBack: it waits for a load event, which a page
		// restored from the cache does not fire; history.back is called
		// after the evaluation returns, which the navigation would fail.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`setTimeout(() => history.back()), undefined`)); err != nil {
			t.Fatal(err)
		}
		begun(page + " again")
		cached, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.leftOnce === true`))
		t.Logf("%s shown again from the back/forward cache: %v", page, cached)
		leave(page + " again")
	}
	if p := cons.problems(); len(p) > 0 {
		t.Errorf("the browser console reported:\n%s", strings.Join(p, "\n"))
	}
}
