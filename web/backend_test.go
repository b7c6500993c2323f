package web

import "testing"

// testBackend is the Oracle the browser and load tests run over: the one
// `mancala serve` uses.
func testBackend(t testing.TB) Oracle {
	return NewInterim(2, 1, 16)
}
