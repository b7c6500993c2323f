package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/mancala-solver/mancala/internal/lines"
	"github.com/mancala-solver/mancala/position"
)

// StdinArg is the argument that makes a command read its positions (or
// games) from stdin, one a line.
const StdinArg = "-"

// maxLineBytes bounds one line of stdin (lines.MaxBytes, notation.md).
const maxLineBytes = lines.MaxBytes

// inputLine is one line of stdin that holds something: its 1-based number
// in the input and its text without the comment and surrounding spaces.
type inputLine struct {
	Number int
	Text   string
}

// readLines reads the lines of r that hold something. Blank lines are
// skipped, and so are comments when comments is set: from "#" to the end
// of the line, whole-line or trailing. what names one item ("position",
// "game") in the error for an input without any. Errors name the line:
// "stdin line 3: longer than 1 MiB, the most a line may hold".
func readLines(r io.Reader, comments bool, what string) ([]inputLine, error) {
	var found []inputLine
	number := 0
	err := lines.Each(r, func(n int, text string) error {
		number = n
		if comments {
			text, _, _ = strings.Cut(text, "#")
		}
		if text = strings.TrimSpace(text); text != "" {
			found = append(found, inputLine{Number: n, Text: text})
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, stdinError(err)
	case len(found) == 0 && number == 0:
		return nil, fmt.Errorf("stdin is empty: want one %s a line", what)
	case len(found) == 0:
		return nil, fmt.Errorf("stdin has %s but no %s (blank lines and # comments are skipped)", plural(number, "line"), what)
	}
	return found, nil
}

// stdinError names stdin in an error of package lines, or of a reader of
// lines whose errors start "line N:" as lines.TooLongError's do.
func stdinError(err error) error {
	return fmt.Errorf("stdin %w", err)
}

// positionInput is one position to work on, with where it came from.
type positionInput struct {
	Setup position.Setup
	Line  int // its line on stdin, or 0 for a command-line argument
}

// readPositions parses arg as a position, or, for "-", every line of in
// (comments allowed), before any is worked on, so that bad input prints
// nothing on stdout. An error names the line.
func readPositions(in io.Reader, arg string) ([]positionInput, error) {
	if arg != StdinArg {
		setup, err := parsePosition(arg)
		return []positionInput{{Setup: setup}}, err
	}
	lines, err := readLines(in, true, "position")
	if err != nil {
		return nil, err
	}
	inputs := make([]positionInput, len(lines))
	for i, l := range lines {
		setup, err := parsePosition(l.Text)
		if err != nil {
			return nil, fmt.Errorf("stdin line %d: %w", l.Number, err)
		}
		inputs[i] = positionInput{Setup: setup, Line: l.Number}
	}
	return inputs, nil
}
