package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/mancala-solver/mancala/position"
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

// Run measures the named groups (all of Groups when none is named) on the
// given variants (nil: each group's DefaultVariants) and returns one
// report. It fails on an unknown group, a variant the solve suite has no
// positions of, or a failed tablebase build.
func Run(ctx context.Context, groups []string, variants []*position.Variant, opts Options) (Report, error) {
	if len(groups) == 0 {
		groups = Groups
	}
	r := Report{Machine: ThisMachine(), Started: time.Now().UTC()}
	for _, g := range groups {
		variants := variants
		if variants == nil {
			variants = DefaultVariants(g)
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
