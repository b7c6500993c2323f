// Package testsize chooses how much work a test does, so that one test
// command suits every use:
//
//   - `go test -short ./...`: seconds; the quick check while editing.
//   - `go test -race ./...` (README's test command): the short amount of
//     work, since the race detector slows tests five to ten times; minutes
//     on a 2-core machine.
//   - `go test ./...`: more random positions, without the race detector.
//   - `MANCALA_LONG=1 go test ./...`: the long differential and property
//     runs (millions of positions), run by CI without -race.
//
// Tests never depend on wall-clock speed; only their amount of work
// changes with the level.
package testsize

import (
	"os"
	"testing"
)

// LongEnv is the environment variable that selects the long runs when set
// to 1.
const LongEnv = "MANCALA_LONG"

// Long reports whether the long runs were asked for (MANCALA_LONG=1).
func Long() bool { return os.Getenv(LongEnv) == "1" }

// Pick returns short under -short or under the race detector, long when
// MANCALA_LONG=1 (also under -race), else normal. -short wins over
// MANCALA_LONG.
func Pick[T any](short, normal, long T) T {
	switch {
	case testing.Short():
		return short
	case Long():
		return long
	case race:
		return short
	}
	return normal
}

// Short reports whether a test should do its short amount of work: under
// -short, or under the race detector without MANCALA_LONG=1 (see race.go).
func Short() bool { return Pick(true, false, false) }
