package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// Groups lists the benchmark groups in the order Run measures them.
var Groups = []string{"sow", "perft", "solve", "build"}

// DefaultVariants are the variants a group measures when none is named:
// the five games of rules.md and Kalah(6,4) under both capture rules, except
// for solve, whose suite holds positions of the five games only.
func DefaultVariants(group string) []*position.Variant {
	if group == "solve" {
		return position.Variants()
	}
	return append(position.Variants(), position.Kalah(6, 4), position.KalahStd(6, 4))
}

// Applies returns nil when group can measure v, else why not: the solve
// suite holds positions of the five games of rules.md only, and a build
// needs a variant with tablebases (tablebase.Buildable).
func Applies(group string, v *position.Variant) error {
	switch group {
	case "solve":
		suite, err := Suite()
		if err != nil {
			return err
		}
		if len(sectionOf(suite, v, "midgame")) == 0 || len(sectionOf(suite, v, "endgame")) == 0 {
			return fmt.Errorf("the suite has no %s positions (it has the five games of rules.md)", v.Name)
		}
	case "build":
		return tablebase.Buildable(v)
	}
	return nil
}

// Run measures the named groups (all of Groups when none is named) on the
// given variants (nil: each group's DefaultVariants) and returns one
// report. Before any work it checks opts (Options.Check) and that each
// named group applies to each variant given (Applies), and fails on the
// first that does not; with no group named, a group that does not apply
// to a variant is left out of it, and the report says so (Report.Skipped).
// It fails too on an unknown group or a failed tablebase build.
func Run(ctx context.Context, groups []string, variants []*position.Variant, opts Options) (Report, error) {
	r := Report{Machine: ThisMachine(), Started: time.Now().UTC()}
	if err := opts.Check(); err != nil {
		return r, err
	}
	named := len(groups) > 0
	if !named {
		groups = Groups
	}
	plan := make([][]*position.Variant, len(groups))
	for i, g := range groups {
		if !slices.Contains(Groups, g) {
			return r, fmt.Errorf("%q is not a benchmark group (known: %v)", g, Groups)
		}
		if variants == nil {
			plan[i] = DefaultVariants(g)
			continue
		}
		for _, v := range variants {
			err := Applies(g, v)
			switch {
			case err == nil:
				plan[i] = append(plan[i], v)
			case named:
				return r, fmt.Errorf("bench %s --variant %s: %w", g, v.Name, err)
			default:
				r.Skipped = append(r.Skipped, Skip{Group: g, Variant: v.Name, Reason: err.Error()})
			}
		}
	}
	for i, g := range groups {
		variants := plan[i]
		if len(variants) == 0 {
			continue
		}
		switch g {
		case "sow":
			figures, ratios, samples := Sow(ctx, variants, opts)
			r.Figures, r.Ratios = append(r.Figures, figures...), append(r.Ratios, ratios...)
			r.Samples = append(r.Samples, samples...)
		case "perft":
			figures, signatures := Perft(ctx, variants, opts)
			r.Figures, r.Signatures = append(r.Figures, figures...), append(r.Signatures, signatures...)
		case "solve":
			figures, ratios, signatures, err := Solve(ctx, variants, opts)
			r.Figures, r.Ratios = append(r.Figures, figures...), append(r.Ratios, ratios...)
			r.Signatures = append(r.Signatures, signatures...)
			if err != nil {
				return r, err
			}
		case "build":
			figures, ratios, signatures, err := Build(ctx, variants, opts)
			r.Figures, r.Ratios = append(r.Figures, figures...), append(r.Ratios, ratios...)
			r.Signatures = append(r.Signatures, signatures...)
			if err != nil {
				return r, err
			}
		default:
			return r, fmt.Errorf("%q is not a benchmark group (known: %v)", g, Groups)
		}
	}
	return r, ctx.Err()
}
