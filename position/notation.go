package position

import (
	"errors"
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
// captured. Spaces around any part are ignored, and so is one trailing
// ":" except after the rows, where the side is then empty, an error. The error names the offending part, prefixed by the variant name
// when it is known, e.g. `akon: row 2 has 6 pits, want 7` or
// `awari: "4x" is not a seed count (row 1, pit 1)`.
//
// The engine dialect's fen (ParseFEN) is read too: on its own it is a
// DialectVariant position (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`), and after a
// variant and ":" one of that variant (`oware:4-4-...-0-0-S`).
func Parse(s string) (Setup, error) {
	if t := strings.TrimSpace(s); t != "" && t[0] >= '0' && t[0] <= '9' && isFEN(t) {
		v, err := Lookup(DialectVariant)
		if err != nil {
			return Setup{}, err
		}
		return ParseFEN(v, t)
	}
	parts := strings.Split(s, ":")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if n := len(parts); n > 1 && n != 3 && parts[n-1] == "" {
		// A trailing ":" adds nothing, except after the rows, where it
		// leaves the side empty (an error, not player 1 to move).
		parts = parts[:n-1]
	}
	v, err := Lookup(parts[0])
	if err != nil {
		return Setup{}, err
	}
	if len(parts) == 1 {
		return Setup{Variant: v, Position: v.Start(), CapturesKnown: true}, nil
	}
	if len(parts) == 2 && isFEN(parts[1]) {
		return ParseFEN(v, parts[1])
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
	if fields[0] == "" {
		return st, errors.New("the rows are empty (want ROW1/ROW2 after the variant)")
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 2 {
		return st, fmt.Errorf("%q is not two rows separated by \"/\"", fields[0])
	}
	var packed [2]uint64
	onBoard := 0
	for r, text := range rows {
		row, seeds, err := parseRow(v, r+1, strings.TrimSpace(text))
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
		case "":
			return st, errors.New("the side is empty (want 1 or 2 after the rows)")
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

// parseRow reads one comma-separated row of seed counts; number is 1 or 2.
func parseRow(v *Variant, number int, text string) (row uint64, seeds int, err error) {
	if text == "" {
		return 0, 0, fmt.Errorf("row %d is empty", number)
	}
	pits := strings.Split(text, ",")
	for i := range pits {
		pits[i] = strings.TrimSpace(pits[i])
		if pits[i] != "" {
			continue
		}
		if i == len(pits)-1 {
			return 0, 0, fmt.Errorf("row %d %q ends with a comma", number, text)
		}
		return 0, 0, fmt.Errorf("row %d %q: pit %d is empty", number, text, i+1)
	}
	if len(pits) != v.Pits {
		return 0, 0, fmt.Errorf("row %d has %d pits, want %d", number, len(pits), v.Pits)
	}
	counts := make([]int, len(pits))
	for i, p := range pits {
		c, ok := seedCount(p)
		if !ok {
			return 0, 0, fmt.Errorf("%q is not a seed count (row %d, pit %d)", p, number, i+1)
		}
		if c > v.Total() {
			return 0, 0, fmt.Errorf("%d seeds in row %d, pit %d: %s has %d in all", c, number, i+1, v.Name, v.Total())
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
		s = strings.TrimSpace(s)
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

// SplitMoves splits a move list (notation.md: moves separated by spaces or
// commas, across any number of arguments) into one string a move. The
// engine dialect's letters written together ("AfCb") are one move a
// letter. An empty move, as in "3,,4" or a trailing comma, is an error
// naming its place in the list.
func SplitMoves(args []string) ([]string, error) {
	var moves []string
	for _, arg := range args {
		for _, field := range strings.Split(arg, ",") {
			words := strings.Fields(field)
			if len(words) == 0 {
				return nil, fmt.Errorf("the %s move is empty in %q", Ordinal(len(moves)+1), arg)
			}
			for _, w := range words {
				if isLetterRun(w) {
					for i := range w {
						moves = append(moves, w[i:i+1])
					}
					continue
				}
				moves = append(moves, w)
			}
		}
	}
	return moves, nil
}

// ParseMoves reads a move list of v (see SplitMoves): pit numbers 1..n and
// "pass". It checks only the form and the pit range; legality is
// MakeMove's. An error names the move and its place in the list, e.g.
// `move 7: no such pit, want 1..6 (the 2nd move in the list)`.
func (v *Variant) ParseMoves(args []string) ([]int, error) {
	words, err := SplitMoves(args)
	if err != nil {
		return nil, err
	}
	moves := make([]int, len(words))
	for i, w := range words {
		if moves[i], err = v.ParseMove(w); err != nil {
			return nil, fmt.Errorf("%w (the %s move in the list)", err, Ordinal(i+1))
		}
	}
	return moves, nil
}

// ParseMove reads one move of v: "pass" (any case) or a pit number 1..n.
// Letters with one that is no pit letter ("Az", where SplitMoves splits
// only runs of move letters) are named as the engine names them. A whole number out of range (0, -1, 7 on a 6-pit row) gets the words
// MakeMove uses for a pit that does not exist.
func (v *Variant) ParseMove(s string) (int, error) {
	if strings.EqualFold(s, "pass") {
		return PassPit, nil
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil && badLetter(s) > 0 && CheckDialect(v) == nil:
		// Letters written together with one that is no pit's ("Az"): the
		// engine's words, which reads letters one by one.
		return 0, fmt.Errorf("move %q: %q is not a pit letter (A..F for South, a..f for North)", s, s[badLetter(s):badLetter(s)+1])
	case err != nil:
		return 0, fmt.Errorf("move %q is not a pit number or \"pass\"", s)
	case n < 1 || n > v.Pits:
		return 0, fmt.Errorf("move %s: no such pit, want 1..%d", s, v.Pits)
	}
	return n, nil
}

// NamesSide reports whether move s, as SplitMoves gives it, names the
// side that makes it (a dialect letter or a PlayStrategy square), so that
// reading it needs the position: ParseMoveAt, not ParseMove.
func NamesSide(s string) bool {
	return len(s) == 1 && isLetter(s[0]) || isSquareMove(s)
}

// ParseMoveAt reads one move of v played from p: what ParseMove reads,
// the engine dialect's letter (A..F South's pits, a..f North's: LetterPit)
// or a PlayStrategy move ("d1" or "d1e2": squarePit). A letter or square
// of the side not to move is an error saying who is. Legality is
// MakeMove's.
func (v *Variant) ParseMoveAt(p Position, s string) (int, error) {
	switch {
	case len(s) == 1 && isLetter(s[0]):
		return v.LetterPit(p, s[0])
	case isSquareMove(s):
		return v.squarePit(p, s)
	}
	return v.ParseMove(s)
}

// badLetter is, for s made of ASCII letters that starts with a move
// letter, the index of its first letter that is not a move letter ("Az":
// 1); else -1.
func badLetter(s string) int {
	if s == "" || !isLetter(s[0]) {
		return -1
	}
	bad := -1
	for i := len(s) - 1; i >= 0; i-- {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return -1
		}
		if !isLetter(s[i]) {
			bad = i
		}
	}
	return bad
}

// Ordinal writes 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st, ...
func Ordinal(n int) string {
	suffix := "th"
	switch n % 10 {
	case 1:
		suffix = "st"
	case 2:
		suffix = "nd"
	case 3:
		suffix = "rd"
	}
	if n%100 >= 11 && n%100 <= 13 {
		suffix = "th"
	}
	return strconv.Itoa(n) + suffix
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
