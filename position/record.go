package position

import (
	"fmt"
	"strings"
)

// RecordFormat names a way of writing a game record (docs/notation.md).
type RecordFormat string

// The formats FormatRecord writes.
const (
	// RecordOurs: the start's position string, then the pit numbers (and
	// "pass" where one was typed), as play and analyze take them.
	RecordOurs RecordFormat = "mancala"
	// RecordDialect: the engine dialect's fen (after "VARIANT:" unless the
	// variant is DialectVariant), then the move letters together.
	RecordDialect RecordFormat = "dialect"
	// RecordAuale: an Aualé file (FormatOGN).
	RecordAuale RecordFormat = "auale"
	// RecordPlayStrategy: PlayStrategy's move list, squares separated by
	// spaces, from the usual start.
	RecordPlayStrategy RecordFormat = "playstrategy"
)

// RecordFormats lists the formats, for help texts and errors.
var RecordFormats = []RecordFormat{RecordOurs, RecordDialect, RecordAuale, RecordPlayStrategy}

// ParseRecordFormat reads a format name; the error lists the names.
func ParseRecordFormat(name string) (RecordFormat, error) {
	for _, f := range RecordFormats {
		if strings.EqualFold(name, string(f)) {
			return f, nil
		}
	}
	names := make([]string, len(RecordFormats))
	for i, f := range RecordFormats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("format %q: want one of %s", name, strings.Join(names, ", "))
}

// FormatRecord writes the game played from start with moves (as Game.Play
// takes them) in format f; tags are an Aualé file's (RecordAuale only).
// The game is replayed with every end rule first, so an illegal move is an
// error naming it. A format that cannot carry the game is an error that
// says why: the dialect has six pits a row, Aualé plays only oware, and
// PlayStrategy's lists start from oware's usual start.
func FormatRecord(start Setup, moves []int, f RecordFormat, tags []OGNTag) (string, error) {
	g := NewGame(start)
	for i, pit := range moves {
		if _, err := g.Play(pit); err != nil {
			return "", fmt.Errorf("move %d of the record: %w", i+1, err)
		}
	}
	switch f {
	case RecordOurs:
		words := []string{shortString(start)}
		for _, pit := range moves {
			words = append(words, MoveString(pit))
		}
		return strings.Join(words, " "), nil
	case RecordDialect:
		if err := CheckDialect(start.Variant); err != nil {
			return "", err
		}
		fen := FormatFEN(start)
		if start.Variant.Name != DialectVariant {
			fen = start.Variant.Name + ":" + fen
		}
		if letters := LineLetters(g.Line); letters != "" {
			fen += " " + letters
		}
		return fen, nil
	case RecordAuale:
		return FormatOGN(g, tags)
	case RecordPlayStrategy:
		if err := checkSquares(start.Variant); err != nil {
			return "", err
		}
		if start.Position != start.Variant.Start() || start.Captured != [2]int{} {
			return "", fmt.Errorf("%s: PlayStrategy's move lists start from the usual start, not %s", start.Variant.Name, start)
		}
		return strings.Join(LineSquares(start.Variant, g.Line), " "), nil
	}
	return "", fmt.Errorf("format %q is not one of %v", f, RecordFormats)
}

// shortString writes s as its variant's name alone when it is the start
// with nothing captured, else in full (Setup.String).
func shortString(s Setup) string {
	if s.Position == s.Variant.Start() && s.CapturesKnown && s.Captured == [2]int{} {
		return s.Variant.Name
	}
	return s.String()
}
