package cmd

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dustin/go-humanize/english"
	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
)

// writeJSON prints v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONLine prints v as one JSON object on one line (JSON Lines), the
// form for a stream of answers such as those of "-".
func writeJSONLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// parsePosition reads a position argument; the error names the bad part.
func parsePosition(arg string) (position.Setup, error) {
	return position.Parse(arg)
}

// addJSONFlag adds the common --json flag.
func addJSONFlag(c *cobra.Command, target *bool) {
	c.Flags().BoolVar(target, "json", false, "print one JSON document (field names as in docs/notation.md)")
}

// passNote is the line printed when the named player had to pass at once.
func passNote(player int) string {
	return fmt.Sprintf("player %d has no legal move and passes", player)
}

// plural writes n and a noun, in the plural unless n is 1, by English
// rules (english.PluralWord): "1 thread", "2 threads", "3 plies", "0
// inaccuracies".
// rateOf writes a rate of things a second in one form for every command:
// in millions from a million ("1.14 M nodes/s"), in thousands from a
// thousand ("4.6 k nodes/s"), else whole ("780 nodes/s"), so that a
// small search does not show "0.00 M".
func rateOf(perSecond float64, things string) string {
	switch {
	case perSecond >= 1e6:
		return fmt.Sprintf("%.2f M %s/s", perSecond/1e6, things)
	case perSecond >= 1e3:
		return fmt.Sprintf("%.1f k %s/s", perSecond/1e3, things)
	}
	return fmt.Sprintf("%.0f %s/s", perSecond, things)
}

func plural[N ~int | ~int64](n N, noun string) string {
	many := 2
	if n == 1 {
		many = 1
	}
	return fmt.Sprintf("%d %s", n, english.PluralWord(many, noun, ""))
}
