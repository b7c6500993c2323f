package cmd

import (
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/tablebase"
)

// Only the last layer's line says the build is complete; the layers
// before it, fast ones with no estimate yet included, say what is left.
func TestLayerDoneSaysCompleteOnlyAtTheEnd(t *testing.T) {
	var out strings.Builder
	ix := tablebase.NewIndex(6)
	log := &layerLog{w: &out, bar: &layerBar{}, ix: ix, maxSeeds: 3}
	want := []string{"layers 1..3 to go", "layers 2..3 to go", "layer 3 to go", "the build is complete"}
	for n := 0; n <= 3; n++ {
		out.Reset()
		log.done(tablebase.LayerInfo{Seeds: n, Positions: ix.Size(n), Seconds: 0.01, Method: "unsow"})
		line := out.String()
		if !strings.HasSuffix(line, "; "+want[n]+"\n") {
			t.Errorf("layer %d: %q, want it to end with %q", n, line, want[n])
		}
	}
}

// Sizes are written by go-humanize's IBytes, as --mem reads them
// (parseSize): a tenth below 10 units, whole units above.
func TestLayerStartSizes(t *testing.T) {
	var out strings.Builder
	log := &layerLog{w: &out, bar: &layerBar{}}
	log.start(tablebase.LayerPlan{Seeds: 14, Positions: 4457400, Method: "unsow",
		MemBytes: 36909875, Budget: 19005000000, DiskBytes: 5 << 20})
	want := "layer 14: 4457400 positions, unsow method, needs about 35 MiB of 18 GiB, plus 5.0 MiB on disk\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
