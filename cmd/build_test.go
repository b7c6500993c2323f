package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

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
		MemBytes: 36909875, Budget: 19005000000, DiskBytes: 5 << 20, PeakBytes: 176 << 20})
	want := "layer 14: 4457400 positions, unsow method, needs about 35 MiB of 18 GiB, plus 5.0 MiB on disk; heap peak about 176 MiB\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestLayerBarLog: off a terminal the bar writes a layer's share done at
// most once a progressLogEvery, timed from the layer's first progress.
func TestLayerBarLog(t *testing.T) {
	var buf bytes.Buffer
	b := newLayerBar(&buf, 6, 30, "build")
	t0 := time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
	if b.bar != nil {
		t.Fatal("a bar drawn on a buffer")
	}
	b.log(30, 3, 300, t0)
	b.log(30, 90, 300, t0.Add(30*time.Second))
	b.log(30, 150, 300, t0.Add(61*time.Second))
	b.log(30, 160, 300, t0.Add(90*time.Second))
	b.log(31, 1, 300, t0.Add(200*time.Second))
	b.log(31, 299, 300, t0.Add(259*time.Second))
	b.log(31, 300, 300, t0.Add(260*time.Second))
	want := "layer 30: 50% done after 1m1s\nlayer 31: 100% done after 1m0s\n"
	if got := buf.String(); got != want {
		t.Errorf("progress lines %q, want %q", got, want)
	}
}

// TestRemainingDiscountsTheRunningLayer: a layer's done line comes while
// the next layer runs (its store ends in the background), so the time
// still to go leaves out what the running layer has done, but never
// drops below the layers after it.
func TestRemainingDiscountsTheRunningLayer(t *testing.T) {
	ix := tablebase.NewIndex(6)
	t0 := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	clock := t0
	log := &layerLog{w: &strings.Builder{}, bar: &layerBar{}, ix: ix, maxSeeds: 12, now: func() time.Time { return clock }}
	layer10 := tablebase.LayerInfo{Seeds: 10, Positions: ix.Size(10), Seconds: 20, Method: "unsow"}
	built := []tablebase.LayerInfo{layer10}
	full := tablebase.EstimateSeconds(built, []int64{ix.Size(11), ix.Size(12)})
	after := tablebase.EstimateSeconds(built, []int64{ix.Size(12)})
	if full <= after || after <= 0 {
		t.Fatalf("estimates %v (layers 11, 12) and %v (layer 12): want 0 < the second < the first", full, after)
	}
	log.built = built
	if got := log.remainingSeconds(10); got != full {
		t.Errorf("before layer 11 starts: %v s to go, want %v", got, full)
	}
	log.start(tablebase.LayerPlan{Seeds: 11})
	clock = t0.Add(5 * time.Second)
	if got, want := log.remainingSeconds(10), max(full-5, after); got != want {
		t.Errorf("layer 11 running 5 s: %v s to go, want %v", got, want)
	}
	clock = t0.Add(time.Duration(full) * time.Second)
	if got := log.remainingSeconds(10); got != after {
		t.Errorf("layer 11 running past its estimate: %v s to go, want layer 12's %v", got, after)
	}
}
