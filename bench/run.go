package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// Groups lists the benchmark groups in the order Run measures them.
var Groups = []string{"sow", "perft", "solve", "build"}

// Run measures the named groups (all of Groups when none is named) on the
// given variants and returns one report. It fails on an unknown group or a
// failed tablebase build.
func Run(ctx context.Context, groups []string, variants []*position.Variant, opts Options) (Report, error) {
	if len(groups) == 0 {
		groups = Groups
	}
	r := Report{Machine: ThisMachine(), Started: time.Now().UTC()}
	for _, g := range groups {
		switch g {
		case "sow":
			figures, ratios := Sow(ctx, variants, opts)
			r.Figures, r.Ratios = append(r.Figures, figures...), append(r.Ratios, ratios...)
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
			figures, signatures, err := Build(ctx, variants, opts)
			r.Figures, r.Signatures = append(r.Figures, figures...), append(r.Signatures, signatures...)
			if err != nil {
				return r, err
			}
		default:
			return r, fmt.Errorf("%q is not a benchmark group (known: %v)", g, Groups)
		}
	}
	return r, ctx.Err()
}
