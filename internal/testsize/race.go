//go:build race

package testsize

// race: the race detector slows the tests five to ten times, so the
// README's test command (which runs under -race) does the -short amount of
// work; the normal amount runs without -race, the long one in CI.
const race = true
