// Package lines reads line-oriented input (positions on stdin, game
// records in a file or a request body) under the one length limit
// docs/notation.md gives: a line may be up to MaxBytes long, its line end
// ("\n" or "\r\n") not counted.
package lines

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// MaxBytes is the longest line read, in bytes. A position string is under
// 100 bytes and a long game record a few KiB, so a longer line is a
// mistake (a binary file, a missing newline), reported as such rather
// than held in memory.
const MaxBytes = 1 << 20

// TooLongError is a line longer than MaxBytes; Line is its 1-based number.
type TooLongError struct{ Line int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("line %d: longer than %d MiB, the most a line may hold", e.Line, MaxBytes>>20)
}

// Each calls fn with every line of r, in order, with its 1-based number
// and its text without the line end, and stops at fn's first error, which
// it returns. A line longer than MaxBytes is a *TooLongError; a read
// error is wrapped.
func Each(r io.Reader, fn func(number int, text string) error) error {
	sc := bufio.NewScanner(r)
	// Room for a line of MaxBytes and its "\r\n"; the scanner drops both.
	sc.Buffer(make([]byte, 0, 64<<10), MaxBytes+2)
	number := 0
	for sc.Scan() {
		number++
		if len(sc.Bytes()) > MaxBytes {
			return &TooLongError{Line: number}
		}
		if err := fn(number, sc.Text()); err != nil {
			return err
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return &TooLongError{Line: number + 1}
	case err != nil:
		return fmt.Errorf("line %d: %w", number+1, err)
	}
	return nil
}
