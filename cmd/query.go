package cmd

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"mancala/position"
	"mancala/tablebase"
)

// exitNotInTablebase is query's exit code when the position is not stored.
const exitNotInTablebase = 3

type queryOptions struct {
	tb   string
	json bool
}

func newQueryCmd() *cobra.Command {
	opts := &queryOptions{}
	c := &cobra.Command{
		Use:   "query POS [--tb DIR] [--json]",
		Short: "Look a position up in the tablebase: its value and every move's, best first",
		Long: `query prints the exact value of a position (score difference in seeds from
the side to move, to the end of the game) and the value of each legal move,
best first, from a tablebase made by build. A player who must pass passes
first, and the position after the pass is shown.

Exit codes: 0 answered; 1 bad input, no tablebase (or none of this variant)
in DIR, or a damaged one (the message gives the repair command); 3 the
position has more seeds than the tablebase's layers hold (the message gives
the build command that covers it; solve answers without a tablebase).`,
		Example: `  mancala query awari:0,0,0,0,0,1/1,1,0,0,0,0:1
  mancala query oware:2,0,1,0,0,3/0,1,0,2,0,0:2 --tb /data/tb --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c.OutOrStdout(), args[0], opts)
		},
	}
	addTBFlag(c, &opts.tb)
	addJSONFlag(c, &opts.json)
	return c
}

// queryMove is one legal move and its value to the mover.
type queryMove struct {
	Move     any `json:"move"`
	Value    int `json:"value"`
	Captured int `json:"captured"`
}

type queryResult struct {
	Position  string      `json:"position"`
	Passed    bool        `json:"passed,omitempty"`
	GameOver  bool        `json:"game_over"`
	Value     int         `json:"value"`
	Exact     bool        `json:"exact"`
	BestMoves []any       `json:"best_moves"`
	Moves     []queryMove `json:"moves"`
	Seeds     int         `json:"seeds"`
	MaxSeeds  *int        `json:"tablebase_max_seeds,omitempty"` // absent when not consulted
}

func runQuery(out io.Writer, arg string, opts *queryOptions) error {
	setup, err := parsePosition(arg)
	if err != nil {
		return err
	}
	v := setup.Variant
	res := queryResult{Exact: true, BestMoves: []any{}, Moves: []queryMove{}, Seeds: setup.Position.Seeds()}
	var buf [position.MaxPits]position.Move
	if n := v.Moves(setup.Position, &buf); n == 1 && buf[0].IsPass() {
		setup.Position, res.Passed = buf[0].Next, true
	}
	res.Position = setup.String()
	if v.Moves(setup.Position, &buf) == 0 {
		// The rules give the value; no tablebase needed.
		res.GameOver, res.Value = true, v.TerminalValue(setup.Position)
	} else if err := queryTablebase(&res, opts.tb, v, setup.Position); err != nil {
		return err
	}
	if opts.json {
		return writeJSON(out, res)
	}
	return printQuery(out, setup, res)
}

// queryTablebase opens the tablebase and probes p and its moves into
// res. No tablebase (or none of this variant) is exit code 1, like stats
// and verify; a position beyond the built layers is exit code 3.
func queryTablebase(res *queryResult, flag string, v *position.Variant, p position.Position) error {
	dir := tbDir(flag)
	pr, err := tablebase.OpenProber(dir, v)
	if errors.Is(err, tablebase.ErrNoTablebase) {
		return fmt.Errorf("no tablebase in %s: %s", dir, buildHint(v, res.Seeds, flag, res.Position))
	}
	if err != nil {
		return err
	}
	defer pr.Close()
	if pr.MaxSeeds() < 0 {
		return fmt.Errorf("no %s layers in the tablebase in %s: %s", v.Name, dir, buildHint(v, res.Seeds, flag, res.Position))
	}
	maxSeeds := pr.MaxSeeds()
	res.MaxSeeds = &maxSeeds
	return fillQuery(res, pr, v, p, flag)
}

// buildHint says how to answer a position the tablebase lacks: the exact
// build command that covers it, or solve, which needs no tablebase.
func buildHint(v *position.Variant, seeds int, flag, pos string) string {
	tb := ""
	if flag != "" {
		tb = " --tb " + flag
	}
	if tablebase.NewIndex(v.Pits).Size(seeds) >= tablebase.MaxLayerPositions {
		return fmt.Sprintf("more seeds than a tablebase can hold; search instead with `mancala solve %s`", pos)
	}
	return fmt.Sprintf("build it with `mancala build %s --max-seeds %d%s`, or search instead with `mancala solve %s`", v.Name, seeds, tb, pos)
}

// fillQuery probes p, which has moves, and its moves into res.
func fillQuery(res *queryResult, pr *tablebase.Prober, v *position.Variant, p position.Position, flag string) error {
	value, ok := pr.Probe(p)
	if !ok {
		return notStored(pr, v, res, flag)
	}
	res.Value = value
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	for _, m := range buf[:n] {
		child, ok := pr.Probe(m.Next)
		if !ok {
			return notStored(pr, v, res, flag)
		}
		res.Moves = append(res.Moves, queryMove{Move: moveJSON(int(m.Pit)), Value: int(m.Captured) - child, Captured: int(m.Captured)})
	}
	sort.SliceStable(res.Moves, func(i, j int) bool { return res.Moves[i].Value > res.Moves[j].Value })
	for _, m := range res.Moves {
		if m.Value == value {
			res.BestMoves = append(res.BestMoves, m.Move)
		}
	}
	return nil
}

// notStored is the error for a position the prober could not answer: a
// damaged layer (exit 1, with the repair command), or exit 3 for one
// beyond the built layers.
func notStored(pr *tablebase.Prober, v *position.Variant, res *queryResult, flag string) error {
	if err := pr.Err(); err != nil {
		return err
	}
	return &ExitError{Code: exitNotInTablebase, Err: fmt.Errorf("%s: not in the tablebase (built up to %d seeds, this position has %d): %s",
		res.Position, pr.MaxSeeds(), res.Seeds, buildHint(v, res.Seeds, flag, res.Position))}
}

func printQuery(out io.Writer, setup position.Setup, res queryResult) error {
	fmt.Fprintln(out, res.Position)
	if res.Passed {
		fmt.Fprintln(out, passNote(3-setup.Position.Player()))
	}
	fmt.Fprint(out, position.Diagram(setup.Variant, setup.Position))
	player := setup.Position.Player()
	if res.GameOver {
		fmt.Fprintf(out, "game over: the seeds left give player %d a value of %+d\n", player, res.Value)
		return nil
	}
	fmt.Fprintf(out, "value %+d for player %d, exact (%d seeds; tablebase up to %d)\n", res.Value, player, res.Seeds, *res.MaxSeeds)
	fmt.Fprintf(out, "best:")
	for _, m := range res.BestMoves {
		fmt.Fprintf(out, " %v", m)
	}
	fmt.Fprintln(out)
	for _, m := range res.Moves {
		fmt.Fprintf(out, "  move %-4v %+3d", m.Move, m.Value)
		if m.Captured > 0 {
			fmt.Fprintf(out, "  (captures %d)", m.Captured)
		}
		fmt.Fprintln(out)
	}
	return nil
}
