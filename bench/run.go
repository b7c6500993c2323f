package bench

import (
	"context"
	"fmt"
	"time"

	"mancala/position"
)

// Groups lists the benchmark groups in the order Run measures them.
var Groups = []string{"sow", "perft"}

// Run measures the named groups (all of Groups when none is named) on the
// given variants and returns one report. It fails only on an unknown group.
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
		default:
			return r, fmt.Errorf("%q is not a benchmark group (known: %v)", g, Groups)
		}
	}
	return r, ctx.Err()
}
