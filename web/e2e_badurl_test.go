package web

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBadURL: a bad position in the URL shows the error beside an
// empty board with Undo, Redo and Best off, as there is no game to step
// through (issue 43, defect 11: Undo and Redo stayed enabled).
func TestBrowserBadURL(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cons := newBrowser(t)
	srv := httptest.NewServer(New(newFake(), Config{Time: time.Minute, LoopbackOnly: true}).Handler())
	defer srv.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?position=bad&moves=1,2")); err != nil {
		t.Fatal(err)
	}
	pollUntil(t, ctx, "the error", `document.getElementById("board").dataset.state === "error"`, time.Minute)
	off, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`["undo", "redo", "best"].map((id) => document.getElementById(id).disabled)`))
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"undo", "redo", "best"} {
		if !off[i] {
			t.Errorf("#%s enabled beside the empty board of a bad position", id)
		}
	}
	msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#error")))
	if err != nil || msg == "" {
		t.Errorf("no error shown (%v)", err)
	}
	_ = cons // the page's own error report is the expected console line
}
