//go:build !linux

package tablebase

import (
	"errors"
)

// spillSupported reports whether mapSpill can back arrays with a file:
// not here, so the graph method stays in memory and a layer whose graph
// does not fit falls back to value iteration.
const spillSupported = false

// mapSpill always fails where spilling is not supported.
func mapSpill(path string, bytes int64) ([]byte, error) {
	return nil, errors.New("spilling the graph to disk is supported on Linux only")
}

// unmapSpill does nothing where spilling is not supported.
func unmapSpill(data []byte) error { return nil }
