package position

import (
	"fmt"
	"strconv"
	"strings"
)

// Setup is a parsed position string (notation.md): the variant, the
// position, and the seeds each player has captured when the string gives
// them.
type Setup struct {
	Variant  *Variant
	Position Position
	// Captured holds player 1's and player 2's captures; meaningful only
	// when CapturesKnown.
	Captured      [2]int
	CapturesKnown bool
}

// Parse reads a position string `VARIANT[:ROW1/ROW2[:SIDE[:CAP1-CAP2]]]`
// (notation.md). A bare variant name is its start position with 0-0
// captured. The error names the offending part, prefixed by the variant
// name when it is known, e.g. `akon: row 2 has 6 pits, want 7`.
func Parse(s string) (Setup, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	v, err := Lookup(parts[0])
	if err != nil {
		return Setup{}, err
	}
	if len(parts) == 1 {
		return Setup{Variant: v, Position: v.Start(), CapturesKnown: true}, nil
	}
	if len(parts) > 4 {
		return Setup{}, fmt.Errorf("%s: %q has %d fields, at most 4 (variant:row1/row2:side:captures)", v.Name, s, len(parts))
	}
	st, err := parseFields(v, parts[1:])
	if err != nil {
		return Setup{}, fmt.Errorf("%s: %w", v.Name, err)
	}
	return st, nil
}

// parseFields reads the rows, side and captures that follow the variant.
func parseFields(v *Variant, fields []string) (Setup, error) {
	st := Setup{Variant: v}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 2 {
		return st, fmt.Errorf("%q is not two rows separated by \"/\"", fields[0])
	}
	var packed [2]uint64
	onBoard := 0
	for r, text := range rows {
		row, seeds, err := parseRow(v, r+1, text)
		if err != nil {
			return st, err
		}
		packed[r], onBoard = row, onBoard+seeds
	}
	if onBoard > v.Total() {
		return st, fmt.Errorf("%d seeds on the board, at most %d", onBoard, v.Total())
	}
	player := 1
	if len(fields) > 1 {
		switch fields[1] {
		case "1", "2":
			player = int(fields[1][0] - '0')
		default:
			return st, fmt.Errorf("side %q is not 1 or 2", fields[1])
		}
	}
	st.Position = FromRows(packed[0], packed[1], player)
	if len(fields) > 2 {
		caps, err := parseCaptures(fields[2])
		if err != nil {
			return st, err
		}
		if sum := onBoard + caps[0] + caps[1]; sum != v.Total() {
			return st, fmt.Errorf("%d seeds on the board and %d-%d captured make %d, want %d",
				onBoard, caps[0], caps[1], sum, v.Total())
		}
		st.Captured, st.CapturesKnown = caps, true
	}
	return st, nil
}

// parseRow reads one comma-separated row of seed counts.
func parseRow(v *Variant, number int, text string) (row uint64, seeds int, err error) {
	pits := strings.Split(text, ",")
	if len(pits) != v.Pits {
		return 0, 0, fmt.Errorf("row %d has %d pits, want %d", number, len(pits), v.Pits)
	}
	counts := make([]int, len(pits))
	for i, p := range pits {
		c, ok := seedCount(p)
		if !ok || c > v.Total() {
			return 0, 0, fmt.Errorf("%q is not a seed count", p)
		}
		counts[i], seeds = c, seeds+c
	}
	return PackRow(counts), seeds, nil
}

// parseCaptures reads `CAP1-CAP2`.
func parseCaptures(text string) ([2]int, error) {
	var caps [2]int
	a, b, found := strings.Cut(text, "-")
	if !found {
		return caps, fmt.Errorf("captures %q are not CAP1-CAP2", text)
	}
	for i, s := range []string{a, b} {
		c, ok := seedCount(s)
		if !ok {
			return caps, fmt.Errorf("capture %q is not a seed count", s)
		}
		caps[i] = c
	}
	return caps, nil
}

// String formats the setup as a normalised position string: lower-case
// variant, both rows, the side to move, and the captures when known.
// Parse(s.String()) gives back s.
func (s Setup) String() string {
	str := Format(s.Variant, s.Position)
	if s.CapturesKnown {
		str += fmt.Sprintf(":%d-%d", s.Captured[0], s.Captured[1])
	}
	return str
}

// Format writes a position as `variant:ROW1/ROW2:SIDE` (notation.md).
func Format(v *Variant, p Position) string {
	row1, row2 := p.Rows()
	return fmt.Sprintf("%s:%s/%s:%d", v.Name, formatRow(row1, v.Pits), formatRow(row2, v.Pits), p.Player())
}

func formatRow(row uint64, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(Pit(row, i)))
	}
	return b.String()
}

// ParseMoves reads a move list, space- or comma-separated (notation.md):
// pit numbers and "pass". It checks only the form; legality is MakeMove's.
func ParseMoves(args []string) ([]int, error) {
	var moves []int
	for _, arg := range args {
		for _, f := range strings.FieldsFunc(arg, func(r rune) bool { return r == ',' || r == ' ' }) {
			if strings.EqualFold(f, "pass") {
				moves = append(moves, PassPit)
				continue
			}
			pit, ok := seedCount(f)
			if !ok || pit < 1 {
				return nil, fmt.Errorf("move %q is not a pit number or \"pass\"", f)
			}
			moves = append(moves, pit)
		}
	}
	return moves, nil
}

// seedCount reads a small non-negative decimal number: digits only, at most
// three of them.
func seedCount(s string) (int, bool) {
	if len(s) == 0 || len(s) > 3 {
		return 0, false
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, true
}
