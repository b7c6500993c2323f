package tablebase

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForcedMethodRefusedUpFront: a method that cannot solve the variant
// (un-sowing for kalah, whose sowing passes the stores; the forward pass
// for awari, whose positions recur) is refused before any layer is
// planned or anything is written: no LayerStart (it used to announce
// "unsow" for kalah and then fail in the layer), an empty directory.
func TestForcedMethodRefusedUpFront(t *testing.T) {
	for _, c := range []struct {
		variant string
		method  Method
		want    string
	}{
		{"kalah", MethodUnsow, "cannot be built by un-sowing"},
		{"awari", MethodForward, "cannot be built by the forward pass"},
	} {
		v := lookup(t, c.variant)
		dir := filepath.Join(t.TempDir(), "tb")
		var started []string
		_, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: 4, Method: c.method,
			LayerStart: func(p LayerPlan) { started = append(started, p.Method) }})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "layer 0: ") {
			t.Errorf("%s by method %d: error %v, want %q at layer 0", c.variant, c.method, err, c.want)
		}
		if len(started) > 0 {
			t.Errorf("%s by method %d: layers announced %v before the refusal", c.variant, c.method, started)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s by method %d: the refused build made %s (%v)", c.variant, c.method, dir, err)
		}
	}
}

// TestPlanIsRun: the method each layer's plan announces is the method
// that solved it (LayerInfo.Method), for every default choice: un-sowing
// (awari), the forward pass (kalah), the graph (djenon-abe), and, forced,
// value iteration.
func TestPlanIsRun(t *testing.T) {
	t.Parallel() // sets no knob (refbuild_test.go)
	for _, c := range []struct {
		variant string
		method  Method
		want    string
	}{
		{"awari", MethodAuto, "unsow"},
		{"kalah", MethodAuto, "forward"},
		{"djenon-abe", MethodAuto, "graph"},
		{"oware", MethodIteration, "iteration"},
	} {
		v := lookup(t, c.variant)
		var plans []string
		stats, err := Build(context.Background(), t.TempDir(), v, BuildOptions{MaxSeeds: 7, Method: c.method, Threads: 2,
			LayerStart: func(p LayerPlan) { plans = append(plans, p.Method) }})
		if err != nil {
			t.Fatal(err)
		}
		for n, info := range stats.Layers {
			if plans[n] != c.want || info.Method != c.want {
				t.Errorf("%s layer %d: planned %s, ran %s; want %s", c.variant, n, plans[n], info.Method, c.want)
			}
		}
	}
}

// TestChooseMethodShape: the choice is a function of the layer's shape
// alone. Awari's layer 20 (C(31,11) = 84,672,315 positions) un-sows
// within 1 GiB; the same shape made to forbid un-sowing takes the graph
// at 8 GiB (about 2.7 GB with 3.3 moves a position in the layer) and
// value iteration at 600 MiB (6.125 bytes a position and the least cache
// of the lower layers: 558 MiB; the graph, even spilled, needs 1.2 GiB);
// a shape marked forward takes the forward pass; and 200 MiB is refused
// in human units (un-sowing with the narrow state, 3.125 x 84,672,315
// bytes, beside the least cache of the lower layers, 64 MiB: the exits'
// scan with the lower layers in memory does not fit either).
func TestChooseMethodShape(t *testing.T) {
	v := lookup(t, "awari")
	b := &builder{stored: true, v: v, ix: NewIndex(v.Pits), opts: withDefaults(BuildOptions{MaxSeeds: 20, Threads: 2})}
	sh := func(budget int64) *layerShape {
		b.opts.MemBytes = budget
		return b.shape(20, 3.3)
	}
	for _, c := range []struct {
		name  string
		shape *layerShape
		want  string
	}{
		{"awari at 1 GiB", sh(1 << 30), "unsow"},
		{"no un-sowing at 8 GiB", func() *layerShape { s := sh(8 << 30); s.unsow = false; return s }(), "graph"},
		{"no un-sowing at 600 MiB", func() *layerShape { s := sh(600 << 20); s.unsow = false; return s }(), "iteration"},
		{"forward at 1 GiB", func() *layerShape { s := sh(1 << 30); s.forward = true; return s }(), "forward"},
	} {
		p, err := chooseMethod(c.shape)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Method != c.want || p.method.name() != strings.TrimSuffix(c.want, "-spilled") {
			t.Errorf("%s: planned %s (method %s), want %s", c.name, p.Method, p.method.name(), c.want)
		}
	}
	_, err := chooseMethod(sh(200 << 20))
	if want := "layer 20: a memory budget of 200 MiB is too small: this layer needs at least 316 MiB"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("awari at 200 MiB: %v, want %q", err, want)
	}
}

// TestRefusedBeforeWork (issue 43, defect 3): a layer one machine cannot
// build is refused before any layer is planned and before the directory
// is made, naming the memory in human units and the distributed route.
// Awari's layer 31 (C(42,11) = 4,280,561,376 positions) needs 3.125
// bytes a position by un-sowing (the narrow state), 12.5 GiB, more than
// 10 GiB (it fits the default budget of a 24 GiB machine, 18 GiB, since
// the narrow state; it needed 20.4 GiB before); layer 32 (C(43,11) = 5,752,004,349) has
// more than 2^32 positions, which one machine's build does not rank,
// whatever the budget. Layer 31 with 200 GiB is within both.
func TestRefusedBeforeWork(t *testing.T) {
	v := lookup(t, "awari")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // should a build start, it stops at once
	for _, c := range []struct {
		seeds int
		mem   int64
		want  []string
	}{
		{31, 10 << 30, []string{"layer 31: a memory budget of 10 GiB is too small: this layer needs at least 12 GiB", "docs/distributed-build.md"}},
		{32, 200 << 30, []string{"layer 32: 5,752,004,349 positions, more than one machine's build ranks (2^32 a layer)", "GiB of memory", "docs/distributed-build.md"}},
	} {
		dir := filepath.Join(t.TempDir(), "tb")
		started := 0
		_, err := Build(ctx, dir, v, BuildOptions{MaxSeeds: c.seeds, MemBytes: c.mem, LayerStart: func(LayerPlan) { started++ }})
		for _, want := range c.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("awari to %d with %d bytes: %v, want %q", c.seeds, c.mem, err, want)
			}
		}
		if _, serr := os.Stat(dir); started > 0 || !os.IsNotExist(serr) {
			t.Errorf("awari to %d: %d layers started, directory: %v; want none before the refusal", c.seeds, started, serr)
		}
	}
	b := &builder{stored: true, v: v, ix: NewIndex(v.Pits), opts: withDefaults(BuildOptions{MaxSeeds: 31, MemBytes: 200 << 30})}
	if err := b.checkLayers(0); err != nil {
		t.Errorf("awari to 31 with 200 GiB: %v", err)
	}
}

// TestPlanBuildAwari30 pins the plan of awari to 30 (issue 41: a 16 GiB
// machine, whose default budget is 12 GiB, should build it). With the
// narrow propagation state un-sowing needs 3.125 bytes a position of the
// layer (the state 2, the exits 1, the terminal bits 1/8), where the wide
// one needed 5.125 (layer 30's state alone was 11.77 GiB: the 12 GiB
// budget refused the layer, needing 15 GiB). Layer 29 (C(40,11) =
// 2,311,801,440 positions) then takes 7,224,379,500 bytes beside layers
// 0..28 held (5,586,853,480): 12,811,232,980, within 18 GiB and 12 GiB
// alike. Layer 30 (C(41,11) = 3,159,461,968) at 18 GiB scans once,
// 9,873,318,650 bytes beside layers 0..29 (7,898,654,920):
// 17,771,973,570; at 12 GiB it scans twice, its peak the first scan's
// exits and terminal bits (3,554,394,720) beside layers 0..29:
// 11,453,049,640. At 9 GiB layer 30 is refused: no method needs less
// than its 9,873,318,650 bytes (9.2 GiB).
func TestPlanBuildAwari30(t *testing.T) {
	v := lookup(t, "awari")
	for _, c := range []struct {
		budget int64
		want   []LayerPlan
	}{
		{18 << 30, []LayerPlan{{Seeds: 29, MemBytes: 12811232980}, {Seeds: 30, MemBytes: 17771973570}}},
		{12 << 30, []LayerPlan{{Seeds: 29, MemBytes: 12811232980}, {Seeds: 30, MemBytes: 11453049640}}},
	} {
		plans, err := PlanBuild(v, BuildOptions{MaxSeeds: 30, MemBytes: c.budget, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range c.want {
			got := plans[want.Seeds]
			if got.Method != "unsow" || got.MemBytes != want.MemBytes || got.PeakBytes != heapPeak(want.MemBytes) {
				t.Errorf("layer %d at %d bytes: planned %+v, want un-sowing in %d bytes", want.Seeds, c.budget, got, want.MemBytes)
			}
		}
	}
	plans, err := PlanBuild(v, BuildOptions{MaxSeeds: 30, MemBytes: 9 << 30, Threads: 2})
	if want := "layer 30: a memory budget of 9.0 GiB is too small: this layer needs at least 9.2 GiB"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("awari to 30 at 9 GiB: %v, want %q", err, want)
	}
	if len(plans) != 30 {
		t.Errorf("awari to 30 at 9 GiB: %d layers planned before the refusal, want 30", len(plans))
	}
}
