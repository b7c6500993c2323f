//go:build !linux

package tablebase

import "os"

// mapsFiles: this system maps no files here; Load decodes every layer,
// and WriteMapped writes its files from memory.
const mapsFiles = false

// mapFile returns errNoMapping.
func mapFile(f *os.File, size int, writable bool) ([]byte, func(), error) {
	return nil, nil, errNoMapping
}
