package tablebase

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestPollStore: a layer whose put has finished is recorded (LayerDone,
// the statistics) at the next progress report, before the report itself;
// one still being put is left alone; a failed put is kept as the build's
// error and never reaches LayerDone.
func TestPollStore(t *testing.T) {
	var events []string
	b := &builder{stats: &BuildStats{}, opts: BuildOptions{
		LayerDone: func(info LayerInfo) { events = append(events, fmt.Sprintf("done %d", info.Seeds)) },
	}}
	report := b.reportStored(func(layer int, done, total int64) {
		events = append(events, fmt.Sprintf("progress %d %d/%d", layer, done, total))
	})

	b.storing = &storing{info: LayerInfo{Seeds: 7, Positions: 100}, done: make(chan error, 1)}
	report(8, 1, 3)
	if b.storing == nil || len(b.stats.Layers) != 0 {
		t.Fatalf("a layer still being put was recorded: %v", events)
	}
	b.storing.done <- nil
	report(8, 2, 3)
	report(8, 3, 3)
	want := "[progress 8 1/3 done 7 progress 8 2/3 progress 8 3/3]"
	if got := fmt.Sprint(events); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if b.storing != nil || b.stats.MaxSeeds != 7 || b.stats.Positions != 100 || len(b.stats.Layers) != 1 {
		t.Errorf("after the put: storing %v, stats %+v", b.storing, *b.stats)
	}

	failed := errors.New("disk full")
	b.storing = &storing{info: LayerInfo{Seeds: 8}, done: make(chan error, 1)}
	b.storing.done <- failed
	report(9, 1, 3)
	if err := b.finishStore(); !errors.Is(err, failed) || b.stats.MaxSeeds != 7 || len(events) != 5 {
		t.Errorf("after a failed put: finishStore %v, max seeds %d, events %v", err, b.stats.MaxSeeds, events)
	}
}

// TestLayerDoneOrder: in a whole build every layer's LayerDone comes once,
// in order, after the next layer's LayerStart (it is stored while that
// layer is solved) and never inside a Progress call; the statistics count
// every layer.
func TestLayerDoneOrder(t *testing.T) {
	v := lookup(t, "awari")
	const maxSeeds = 10
	var started, doneUpTo int = -1, -1
	inProgress := false
	var faults []string
	opts := BuildOptions{MaxSeeds: maxSeeds, Threads: 2,
		LayerStart: func(p LayerPlan) { started = p.Seeds },
		LayerDone: func(info LayerInfo) {
			switch {
			case inProgress:
				faults = append(faults, fmt.Sprintf("layer %d done inside a progress call", info.Seeds))
			case info.Seeds != doneUpTo+1:
				faults = append(faults, fmt.Sprintf("layer %d done after layer %d", info.Seeds, doneUpTo))
			case info.Seeds < maxSeeds && started != info.Seeds+1:
				faults = append(faults, fmt.Sprintf("layer %d done while layer %d was the last started", info.Seeds, started))
			}
			doneUpTo = info.Seeds
		},
		Progress: func(layer int, done, total int64) {
			inProgress = true
			defer func() { inProgress = false }()
			if layer != started {
				faults = append(faults, fmt.Sprintf("progress of layer %d while layer %d was the last started", layer, started))
			}
		},
	}
	stats, err := Build(context.Background(), t.TempDir(), v, opts)
	if err != nil {
		t.Fatal(err)
	}
	if doneUpTo != maxSeeds || stats.MaxSeeds != maxSeeds || len(stats.Layers) != maxSeeds+1 {
		t.Errorf("layers done to %d, stats to %d with %d layers; want %d", doneUpTo, stats.MaxSeeds, len(stats.Layers), maxSeeds)
	}
	for _, f := range faults {
		t.Error(f)
	}
}
