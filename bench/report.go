package bench

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Figure is one measured rate: the median of Runs timed runs, with the
// smallest and largest run.
type Figure struct {
	Group   string  `json:"group"`             // sow, perft, solve or build
	Name    string  `json:"name"`              // what was measured
	Variant string  `json:"variant,omitempty"` // the variant, where one applies
	Threads int     `json:"threads"`           // goroutines doing the work
	Unit    string  `json:"unit"`              // e.g. "moves/s"
	Median  float64 `json:"median"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Runs    int     `json:"runs"`
}

// Signature is a work count that depends only on the rules or the search,
// never on the machine: perft node counts, search node counts at a fixed
// depth, tablebase position counts.
type Signature struct {
	Group   string `json:"group"`
	Name    string `json:"name"`
	Variant string `json:"variant,omitempty"`
	Value   uint64 `json:"value"`
}

// Ratio compares two figures of the same unit, e.g. the packed engine's
// make-move rate over the reference implementation's.
type Ratio struct {
	Group   string  `json:"group"`
	Name    string  `json:"name"`
	Variant string  `json:"variant,omitempty"`
	Value   float64 `json:"value"`
}

// Machine describes where the figures were measured.
type Machine struct {
	CPU       string `json:"cpu"`
	Cores     int    `json:"cores"`
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
}

// Report is everything one `mancala bench` run measured.
type Report struct {
	Machine    Machine     `json:"machine"`
	Started    time.Time   `json:"started"`
	Figures    []Figure    `json:"figures"`
	Ratios     []Ratio     `json:"ratios"`
	Signatures []Signature `json:"signatures"`
	// Samples describes the make-move samples of the sow group.
	Samples []MakeUp `json:"samples,omitempty"`
	// Skipped lists the groups left out for a variant they do not apply
	// to (Applies), when Run was given no group.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Skip is a group Run left out for a variant, and why.
type Skip struct {
	Group   string `json:"group"`
	Variant string `json:"variant"`
	Reason  string `json:"reason"`
}

// ThisMachine reads the CPU model (from /proc/cpuinfo where there is one),
// the number of cores and the Go version.
func ThisMachine() Machine {
	return Machine{CPU: cpuModel(), Cores: runtime.NumCPU(), GoVersion: runtime.Version(),
		OS: runtime.GOOS, Arch: runtime.GOARCH}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if key, value, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

// summarise turns per-run rates into a Figure.
func summarise(f Figure, rates []float64) Figure {
	sorted := slices.Clone(rates)
	slices.Sort(sorted)
	f.Runs = len(sorted)
	f.Min, f.Max = sorted[0], sorted[len(sorted)-1]
	if mid := len(sorted) / 2; len(sorted)%2 == 1 {
		f.Median = sorted[mid]
	} else {
		f.Median = (sorted[mid-1] + sorted[mid]) / 2
	}
	return f
}
