// Package testsize chooses how much work a test does, so that one test
// command suits every use:
//
//   - `go test -short ./...`: seconds; the quick check while editing.
//   - `go test -race ./...` (README's test command): minutes on a 2-core
//     machine, enough random positions to catch a broken rule.
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

// Pick returns short under -short, long when MANCALA_LONG=1, else normal.
// -short wins over MANCALA_LONG.
func Pick[T any](short, normal, long T) T {
	switch {
	case testing.Short():
		return short
	case Long():
		return long
	}
	return normal
}
