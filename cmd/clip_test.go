package cmd

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipInput(t *testing.T) {
	long := strings.Repeat("9", 100_000)
	got := clipInput(long)
	if n := utf8.RuneCountInString(got); n != clipWidth || !strings.HasSuffix(got, "…") {
		t.Errorf("clipInput of 100000 digits: %d characters %q", n, got)
	}
	if short := "awari:1,2,3"; clipInput(short) != short {
		t.Errorf("clipInput changed %q", short)
	}
}

func TestErrorLine(t *testing.T) {
	err := errors.New("position awari:" + strings.Repeat("1,", 50_000) + " is bad\nsee the docs")
	line := ErrorLine(err)
	if strings.Contains(line, "\n") || len(line) > 200 || !strings.HasPrefix(line, "position awari:1,1,") || !strings.HasSuffix(line, "… is bad see the docs") {
		t.Errorf("ErrorLine: %q", line)
	}
}

func TestCheckThreads(t *testing.T) {
	for n, ok := range map[int]bool{0: false, 1: true, maxThreads(): true, maxThreads() + 1: false, 100000: false} {
		if err := checkThreads(n); (err == nil) != ok {
			t.Errorf("checkThreads(%d): %v", n, err)
		}
	}
}
