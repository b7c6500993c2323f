//go:build unix

package tablebase

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestFaultTrial runs each fault kind many times on copies of a clean
// tablebase and counts, per kind: runs; crashes (a panic reaching the
// caller); wrong values served; runs where the damage was reported as
// damage (the rest changed nothing a reader uses); and runs where
// `build --repair` did not bring every value back or touched another
// variant (lost). Crashes, wrong and lost must be 0. It is slow, so it
// runs only with MANCALA_FAULTS=1:
//
//	MANCALA_FAULTS=1 MANCALA_FAULT_RUNS=40 go test ./tablebase -run FaultTrial -v -timeout 60m
func TestFaultTrial(t *testing.T) {
	if os.Getenv("MANCALA_FAULTS") != "1" {
		t.Skip("set MANCALA_FAULTS=1 to run the fault trial")
	}
	runs := 30
	if n, err := strconv.Atoi(os.Getenv("MANCALA_FAULT_RUNS")); err == nil && n > 0 {
		runs = n
	}
	rng := rand.New(rand.NewPCG(10, uint64(runs)))
	kinds := []struct {
		name  string
		runs  int
		fault func(t *testing.T, dir string, rng *rand.Rand) string
	}{
		{"truncate", runs, truncateFault},
		{"flip", runs, flipFault},
		{"metadata", runs, metadataFault},
		{"layer gone", runs, gapFault},
		{"no space", runs / 3, noSpaceFault},
		{"kill -9", runs / 3, killFault},
	}
	var report strings.Builder
	fmt.Fprintf(&report, "%-11s %5s %8s %6s %8s %9s %9s %5s\n", "fault", "runs", "crashes", "wrong", "unclear", "reported", "harmless", "lost")
	for _, k := range kinds {
		var sum trialOutcome
		var reported, harmless int
		for i := range k.runs {
			o := trialRun(t, k.fault, rng)
			sum.crashes, sum.wrong, sum.unclear, sum.lost = sum.crashes+o.crashes, sum.wrong+o.wrong, sum.unclear+o.unclear, sum.lost+o.lost
			if o.reported {
				reported++
			} else if o.crashes == 0 {
				harmless++
			}
			if o.crashes+o.wrong+o.unclear+o.lost > 0 {
				t.Errorf("%s run %d: %+v", k.name, i, o)
			}
		}
		fmt.Fprintf(&report, "%-11s %5d %8d %6d %8d %9d %9d %5d\n", k.name, k.runs, sum.crashes, sum.wrong, sum.unclear, reported, harmless, sum.lost)
	}
	t.Log("\n" + report.String())
}

// trialOutcome is what one run of the trial saw: panics, wrong values
// served, errors that are neither damage nor nil, whether damage was
// reported, and whether the repair failed to restore everything.
type trialOutcome struct {
	crashes, wrong, unclear, lost int
	reported                      bool
}

// trialRun applies one fault to a clean copy, reads it with every reader,
// repairs it and checks what came back.
func trialRun(t *testing.T, fault func(*testing.T, string, *rand.Rand) string, rng *rand.Rand) (o trialOutcome) {
	dir := cleanCopy(t)
	defer os.RemoveAll(dir)
	defer func() {
		if r := recover(); r != nil {
			t.Logf("crash: %v", r)
			o.crashes++
		}
	}()
	what := fault(t, dir, rng)
	_, wrong, err := probeAll(dir, 3)
	o.wrong = wrong
	errs := append(allReaders(dir), err)
	for _, e := range errs {
		switch {
		case e == nil:
		case errors.Is(e, ErrDamaged):
			o.reported = true
		default:
			t.Logf("%s: unclear error %v", what, e)
			o.unclear++
		}
	}
	v := lookup(t, "awari")
	if _, err := Build(context.Background(), dir, v, BuildOptions{MaxSeeds: safeSeeds, Threads: 2, Repair: true}); err != nil {
		t.Logf("%s: repair: %v", what, err)
		o.lost = 1
		return o
	}
	answered, bad, err := probeAll(dir, 1)
	sums, serr := layerSums(dir, lookup(t, "oware"))
	if err != nil || bad != 0 || answered != int(MemoryPositions(v, safeSeeds)) || serr != nil || fmt.Sprint(sums) != fmt.Sprint(fixture.oware) {
		t.Logf("%s: after repair %d answered, %d wrong, %v, oware %v", what, answered, bad, err, serr)
		o.lost = 1
	}
	return o
}

// randomFile picks a file of a random awari layer.
func randomFile(t *testing.T, dir string, rng *rand.Rand) string {
	ldir := filepath.Join(variantDir(dir, lookup(t, "awari")), layerName(rng.IntN(safeSeeds+1)))
	entries, err := os.ReadDir(ldir)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(ldir, entries[rng.IntN(len(entries))].Name())
}

func truncateFault(t *testing.T, dir string, rng *rand.Rand) string {
	path := randomFile(t, dir, rng)
	st, _ := os.Stat(path)
	size := rng.Int64N(max(st.Size(), 1))
	os.Truncate(path, size)
	return fmt.Sprintf("%s cut to %d of %d bytes", path, size, st.Size())
}

func flipFault(t *testing.T, dir string, rng *rand.Rand) string {
	path := randomFile(t, dir, rng)
	data, _ := os.ReadFile(path)
	if len(data) == 0 {
		return path + " empty"
	}
	at, bit := rng.IntN(len(data)), rng.IntN(8)
	data[at] ^= 1 << bit
	os.WriteFile(path, data, 0o644)
	return fmt.Sprintf("%s bit %d of byte %d flipped", path, bit, at)
}

func metadataFault(t *testing.T, dir string, rng *rand.Rand) string {
	n := rng.IntN(safeSeeds + 1)
	path := filepath.Join(variantDir(dir, lookup(t, "awari")), layerName(n), layerFile)
	data, _ := os.ReadFile(path)
	var m map[string]any
	json.Unmarshal(data, &m)
	fields := []string{"positions", "block_size", "blocks", "xxhash64", "seeds", "rules_version", "variant", "files"}
	f := fields[rng.IntN(len(fields))]
	switch x := m[f].(type) {
	case float64:
		m[f] = x + float64(rng.IntN(20)) - 10
	case string:
		m[f] = x + "x"
	default:
		delete(m, f)
	}
	data, _ = json.Marshal(m)
	os.WriteFile(path, data, 0o644)
	return fmt.Sprintf("layer %d field %s edited", n, f)
}

func gapFault(t *testing.T, dir string, rng *rand.Rand) string {
	n := rng.IntN(safeSeeds)
	os.RemoveAll(filepath.Join(variantDir(dir, lookup(t, "awari")), layerName(n)))
	return fmt.Sprintf("layer %d removed", n)
}

// noSpaceFault runs a build to 11 seeds that meets a full disk at a random
// layer, which must leave everything stored as it was.
func noSpaceFault(t *testing.T, dir string, rng *rand.Rand) string {
	full := 10 + rng.IntN(2)
	freeSpace = func(vdir string) (int64, error) {
		if seeds, _ := storedLayers(vdir); len(seeds) >= full {
			return 0, nil
		}
		return diskFree(vdir)
	}
	defer func() { freeSpace = diskFree }()
	_, err := Build(context.Background(), dir, lookup(t, "awari"), BuildOptions{MaxSeeds: 11, Threads: 2})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("build on a disk full at layer %d: %v", full, err)
	}
	return fmt.Sprintf("disk full at layer %d", full)
}

// killFault kills a build of awari to 10 seeds in layer 9, in a directory
// holding the fixture's oware, and resumes it.
func killFault(t *testing.T, dir string, rng *rand.Rand) string {
	os.RemoveAll(variantDir(dir, lookup(t, "awari")))
	killChildBuild(t, dir)
	return "build killed in layer 9"
}
