package cmd

import (
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// maxPerftDepth bounds --depth: the deepest line the solver follows
// (solver.MaxPly). Perft recurses once a ply, so a bound keeps the stack
// small (8000 frames), and no count that deep could finish anyway: the
// tree grows about fivefold a ply and, as perft ignores repetition, its
// lines need not end.
const maxPerftDepth = solver.MaxPly

type perftOptions struct {
	depth      int
	divide     bool
	playLeaves bool
	json       bool
}

func newPerftCmd() *cobra.Command {
	opts := &perftOptions{}
	c := &cobra.Command{
		Use:   "perft POS|- --depth N [--divide] [--play-leaves]",
		Short: "Count the move sequences of N plies from a position",
		Long: `perft counts the leaves of the game tree cut at --depth plies, the standard
check of a move generator. Forced passes do not count as plies; lines that end
the game early are not counted; repetition is ignored. --divide gives the count
below each legal move, to find where two move generators disagree.

The last ply is counted from move generation without making its moves where
the rules allow it (bulk counting: oware and kalah count the playable pits;
awari must still play each move to rule out a grand slam). --play-leaves makes
every move of the last ply as well, as perft programs without bulk counting
do: the counts are exactly the same, only the time differs, so compare
nodes/s with such a program only with --play-leaves.

POS "-" reads positions from stdin, one a line (blank lines and # comments
skipped), all checked before any is counted; each answer starts with its
position, or with --json is one JSON object a line.

Notation: docs/notation.md.`,
		Example: `  mancala perft oware --depth 8
  mancala perft akon --depth 5 --divide --json
  mancala perft oware --depth 8 --play-leaves
  printf 'awari\noware\n' | mancala perft - --depth 6`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runPerft(c.InOrStdin(), c.OutOrStdout(), args[0], opts)
		},
	}
	c.Flags().IntVar(&opts.depth, "depth", 6, fmt.Sprintf("plies to count (1..%d)", maxPerftDepth))
	c.Flags().BoolVar(&opts.divide, "divide", false, "also count below each legal move")
	c.Flags().BoolVar(&opts.playLeaves, "play-leaves", false, "make every move of the last ply instead of bulk-counting it (same counts)")
	addJSONFlag(c, &opts.json)
	return c
}

type perftResult struct {
	Position       string            `json:"position"`
	Depth          int               `json:"depth"`
	PlayLeaves     bool              `json:"play_leaves"`
	Nodes          uint64            `json:"nodes"`
	Divide         map[string]uint64 `json:"divide,omitempty"`
	Seconds        float64           `json:"seconds"`
	NodesPerSecond float64           `json:"nodes_per_second"`
}

func runPerft(in io.Reader, out io.Writer, arg string, opts *perftOptions) error {
	if opts.depth < 1 || opts.depth > maxPerftDepth {
		return fmt.Errorf("--depth %d: want 1..%d (the deepest line the solver follows)", opts.depth, maxPerftDepth)
	}
	inputs, err := readPositions(in, arg)
	if err != nil {
		return err
	}
	stream := arg == StdinArg
	for i, input := range inputs {
		res := perftOne(input.Setup, opts)
		switch {
		case stream && opts.json:
			err = writeJSONLine(out, res)
		case opts.json:
			err = writeJSON(out, res)
		default:
			if i > 0 && opts.divide {
				fmt.Fprintln(out)
			}
			if stream {
				fmt.Fprintln(out, res.Position)
			}
			err = printPerft(out, res)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// perftOne counts the tree below one position.
func perftOne(setup position.Setup, opts *perftOptions) perftResult {
	v, p := setup.Variant, setup.Position
	res := perftResult{Position: setup.String(), Depth: opts.depth, PlayLeaves: opts.playLeaves}
	perft, divide := v.Perft, v.Divide
	if opts.playLeaves {
		perft, divide = v.PerftPlayed, v.DividePlayed
	}
	start := time.Now()
	if opts.divide {
		res.Divide = map[string]uint64{}
		for pit, n := range divide(p, opts.depth) {
			res.Divide[fmt.Sprint(moveJSON(pit))] = n
			res.Nodes += n
		}
	} else {
		res.Nodes = perft(p, opts.depth)
	}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.NodesPerSecond = float64(res.Nodes) / res.Seconds
	}
	return res
}

func printPerft(out io.Writer, res perftResult) error {
	keys := make([]string, 0, len(res.Divide))
	for k := range res.Divide {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "%s: %d\n", k, res.Divide[k])
	}
	leaves := ""
	if res.PlayLeaves {
		leaves = ", leaves played"
	}
	fmt.Fprintf(out, "perft %d: %s (%.3f s, %s%s)\n",
		res.Depth, plural(int64(res.Nodes), "node"), res.Seconds, rateOf(res.NodesPerSecond, "nodes"), leaves)
	return nil
}
