package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
)

type convertOptions struct {
	to string
}

func newConvertCmd() *cobra.Command {
	opts := &convertOptions{}
	c := &cobra.Command{
		Use:   "convert POS [MOVE...] | FILE | -",
		Short: "Write a position or game in another notation: ours, the engine dialect, Aualé's file, PlayStrategy's moves",
		Long: `convert reads a position, or a game (a position and its moves), in any
notation the commands read, and writes it in the one --to names:

  mancala        the position string and pit numbers (play and analyze's own)
  dialect        the engine dialect of Aalina and Aualé: a fen such as
                 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S (12 pits, the two stores, the
                 side S or N; after VARIANT: unless the variant is oware-own)
                 and the moves as letters together, AfCb (A..F South's
                 pits, a..f North's)
  auale          an Aualé game file (.ogn): tags, then the numbered moves
  playstrategy   PlayStrategy's move list: d1e2 c2b1 ... (the square sown
                 from and the square of the last seed; oware from its start)

The input is what analyze takes: POS MOVE... on the command line (the
position in our notation or the dialect's fen; the moves as pit numbers,
letters or PlayStrategy's squares, or a PlayStrategy move list alone), or a
FILE (or - for stdin) of such games one a line, or an Aualé file. Every game
is replayed first, so an illegal move is an error naming it and nothing is
written. One game a line comes out (an Aualé file holds one game).

Notation: docs/notation.md.`,
		Example: `  mancala convert 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S AfCb
  mancala convert oware-own 1 6 3 2 --to dialect
  mancala convert game.ogn --to playstrategy
  mancala convert oware-own 4 2 6 5 --to auale > game.ogn`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runConvert(c.InOrStdin(), c.OutOrStdout(), args, opts)
		},
	}
	c.SetFlagErrorFunc(negativeMoves(func(args []string) error {
		_, _, err := readGames(nil, args)
		return err
	}))
	c.Flags().StringVar(&opts.to, "to", string(position.RecordOurs), "the notation to write: "+formatNames())
	return c
}

func formatNames() string {
	names := make([]string, len(position.RecordFormats))
	for i, f := range position.RecordFormats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

func runConvert(in io.Reader, out io.Writer, args []string, opts *convertOptions) error {
	format, err := position.ParseRecordFormat(opts.to)
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	games, _, err := readGames(in, args)
	if err != nil {
		return err
	}
	if format == position.RecordAuale && len(games) > 1 {
		return fmt.Errorf("an Aualé file holds one game, and the input has %d: convert them one at a time", len(games))
	}
	texts := make([]string, len(games))
	for i, g := range games {
		if texts[i], err = position.FormatRecord(g.Start, g.Moves, format, g.Tags); err != nil {
			return gameError(g, err)
		}
	}
	for _, t := range texts {
		fmt.Fprintln(out, strings.TrimSuffix(t, "\n"))
	}
	return nil
}
