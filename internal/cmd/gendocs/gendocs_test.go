package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestCLIPageIsCurrent regenerates docs/cli.md in memory and fails when
// the committed page differs: a help text changed without `go generate ./cmd`.
func TestCLIPageIsCurrent(t *testing.T) {
	want := generated(t)
	got, err := os.ReadFile("../../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/cli.md is stale (first difference at line %d); run `go generate ./cmd` from the repository root",
			firstDiffLine(got, want))
	}
}

// TestCLIPageCoversEveryCommand checks the page against the tree it is
// made from: a heading and a synopsis line for every command.
func TestCLIPageCoversEveryCommand(t *testing.T) {
	page := generated(t)
	for _, name := range []string{"show", "play", "perft", "solve", "analyze", "build", "query",
		"verify", "stats", "bench", "serve", "engine", "completion bash"} {
		if !strings.Contains(string(page), "\n## mancala "+name+"\n") {
			t.Errorf("no section for `mancala %s`", name)
		}
	}
	if strings.Contains(string(page), "Auto generated") {
		t.Error("the page carries cobra's dated tag")
	}
}

// generated returns the page as generate makes it, the environment put
// back afterwards.
func generated(t *testing.T) []byte {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "")
	page, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// firstDiffLine returns the 1-based line where a and b first differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
