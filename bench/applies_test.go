package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/position/reference"
)

func mustVariant(t *testing.T, name string) *position.Variant {
	t.Helper()
	v, err := position.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSowReferenceKnowsEveryVariant: the sow group's reference makes
// every sampled move of every variant the tool accepts, oware-own's as
// oware's (only the repetition rule differs), and reaches the packed
// engine's seeds captured (reliability trial 1: `bench sow --variant
// oware-own` panicked with "unknown variant").
func TestSowReferenceKnowsEveryVariant(t *testing.T) {
	for _, name := range []string{"oware-own", "oware", "awari", "kalah-4x3"} {
		v := mustVariant(t, name)
		s := PlaySample(v)
		states := referenceStates(s)
		for j := range 200 {
			var err error
			var captured int
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				_, captured, _, err = reference.Apply(states[j], s.Pits[j])
			}()
			if err != nil {
				t.Fatalf("%s sample %d: %v", name, j, err)
			}
			if _, c := v.Play(s.Positions[j], s.Pits[j]); int(c) != captured {
				t.Fatalf("%s sample %d: reference captures %d, packed %d", name, j, captured, c)
			}
		}
	}
}

// TestRunSkipsGroupsThatDoNotApply: with no group named, a group that
// cannot measure the variant is left out with a note and the run
// succeeds; named, it is refused before any work (reliability trial 2:
// `bench --variant kalah-4x3` ran sow, perft and build, then failed). The
// context is cancelled so that no figure is measured.
func TestRunSkipsGroupsThatDoNotApply(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opts := Options{Threads: 1, Seconds: 0.01, Runs: 1}
	for _, c := range []struct {
		variant string
		skipped []string
	}{{"kalah-4x3", []string{"solve"}}, {"oware-own", []string{"solve", "build"}}, {"awari", nil}} {
		v := mustVariant(t, c.variant)
		r, err := Run(ctx, nil, []*position.Variant{v}, opts)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s, no group: %v; want only the cancellation", c.variant, err)
		}
		var got []string
		for _, s := range r.Skipped {
			got = append(got, s.Group)
		}
		if !slices.Equal(got, c.skipped) {
			t.Errorf("%s, no group: skipped %v, want %v", c.variant, got, c.skipped)
		}
		for _, g := range c.skipped {
			if _, err := Run(ctx, []string{g}, []*position.Variant{v}, opts); err == nil || errors.Is(err, context.Canceled) {
				t.Errorf("%s, group %s named: %v; want a refusal", c.variant, g, err)
			}
		}
	}
}

// TestRunsMustFitSeconds: a run count whose runs would each last under
// MinRunSeconds is refused before any work, naming the most that fit
// (reliability trial 3: --runs 1000000000 printed 0 moves/s and ran on).
func TestRunsMustFitSeconds(t *testing.T) {
	for _, c := range []struct {
		seconds float64
		runs    int
		ok      bool
	}{{0.2, 1_000_000_000, false}, {0.2, 201, false}, {0.2, 200, true}, {0.01, 10, true}, {0.01, 11, false}, {2, 3, true}, {2, 0, false}} {
		err := Options{Threads: 1, Seconds: c.seconds, Runs: c.runs}.Check()
		if (err == nil) != c.ok {
			t.Errorf("%d runs in %g s: %v, want ok %v", c.runs, c.seconds, err, c.ok)
		}
	}
	var runs *RunsError
	_, err := Run(context.Background(), []string{"sow"}, []*position.Variant{mustVariant(t, "awari")}, Options{Threads: 1, Seconds: 0.2, Runs: 1_000_000_000})
	if !errors.As(err, &runs) || runs.Max != 200 {
		t.Errorf("Run with 1e9 runs in 0.2 s: %v; want a *RunsError with at most 200", err)
	}
}
