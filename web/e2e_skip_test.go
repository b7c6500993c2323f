package web

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
)

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// TestBrowserSkipIsVisible: without Chromium the browser test says so on
// the terminal, where `go test ./...` shows it beside the package's "ok"
// line, and not only in t.Skip's line, which it hides (the newcomer trial
// of issue 43).
func TestBrowserSkipIsVisible(t *testing.T) {
	names, notes := chromiumNames, skipNotes
	t.Cleanup(func() { chromiumNames, skipNotes, noteOnce = names, notes, sync.Once{} })
	var out bytes.Buffer
	chromiumNames, noteOnce = []string{"/nonexistent/chromium-for-this-test"}, sync.Once{}
	skipNotes = func() io.WriteCloser { return nopCloser{&out} }
	t.Setenv("MANCALA_CHROMIUM", "")
	skipped := false
	t.Run("browser", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		chromiumPath(t)
	})
	if !skipped || !strings.Contains(out.String(), "browser test skipped") {
		t.Errorf("skipped %v, terminal line %q; want the test skipped and a line saying so", skipped, out.String())
	}
}
