package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve refuses, before it listens, a --tb that is not a directory:
// started, it would answer every request with an error.
func TestServeRefusesTBThatIsNoDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("not a tablebase"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // should it start, it stops at once
	for _, c := range []struct{ tb, want string }{
		{file, "--tb " + file + ": not a directory"},
		{filepath.Join(dir, "missing"), "--tb " + filepath.Join(dir, "missing") + ": no such directory"},
	} {
		cmd := newServeCmd()
		var out, errOut strings.Builder
		cmd.SetOut(&out)
		cmd.SetErr(&errOut)
		opts := &serveOptions{addr: "127.0.0.1:0", tb: c.tb, time: 5e9, threads: 1, searches: 1, hash: 1}
		err := runServe(ctx, cmd, opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("--tb %s: got %v, want %q", c.tb, err, c.want)
		}
		if out.Len() > 0 {
			t.Errorf("--tb %s: printed %q", c.tb, out.String())
		}
	}
}
