package lines

import (
	"errors"
	"strings"
	"testing"
)

func collect(in string) ([]string, error) {
	var got []string
	err := Each(strings.NewReader(in), func(n int, text string) error {
		if n != len(got)+1 {
			return errors.New("numbers out of order")
		}
		got = append(got, text)
		return nil
	})
	return got, err
}

// Lines of exactly MaxBytes are read whatever their end; one byte more is
// a TooLongError naming the line.
func TestLimit(t *testing.T) {
	full := strings.Repeat("x", MaxBytes)
	for _, end := range []string{"\n", "\r\n", ""} {
		got, err := collect("a\r\n" + full + end)
		if err != nil || len(got) != 2 || got[0] != "a" || len(got[1]) != MaxBytes {
			t.Errorf("a full line ending %q: %d lines, %v", end, len(got), err)
		}
	}
	for _, in := range []string{"a\n" + full + "x\nb\n", "a\n" + full + "x", "a\n" + full + "x\r\n", "a\n" + strings.Repeat(full, 16) + "\n"} {
		_, err := collect(in)
		var long *TooLongError
		if !errors.As(err, &long) || long.Line != 2 {
			t.Errorf("a line of %d bytes: got %v, want line 2 too long", len(in)-2, err)
		}
	}
	if _, err := collect("a\n" + full + "x"); err.Error() != "line 2: longer than 1 MiB, the most a line may hold" {
		t.Errorf("message: %q", err)
	}
}

func TestStopsAtError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := Each(strings.NewReader("a\nb\nc\n"), func(int, string) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("got %v after %d lines", err, n)
	}
}
