package web

import "testing"

// A path that is no file name at all (invalid UTF-8, a NUL, a backslash
// trick) is a missing asset, 404, not a server failure.
func TestAssetPathThatIsNoNameIs404(t *testing.T) {
	h := New(newFake(), Config{}).Handler()
	for _, target := range []string{"/assets/%ff", "/assets/%ff.js", "/assets/a%00b", "/assets/%c0%af", "/assets/x/%ff"} {
		if resp, _ := do(t, h, "GET", target, ""); resp.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", target, resp.StatusCode)
		}
	}
}
