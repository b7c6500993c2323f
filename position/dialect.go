package position

import (
	"fmt"
	"strconv"
	"strings"
)

// The engine dialect (docs/engine.md, docs/notation.md) is the notation of
// Aalina, the Aualé GUI and the samurai framework: South is player 1 (the
// first to move from the start) and North player 2; South's pits are the
// letters A..F and North's a..f, each row in its owner's sowing order; a
// position (a "fen") is the 12 pit counts, South's store, North's store and
// S or N, joined by "-". The dialect names six pits a row.
const (
	southLetters = "ABCDEF"
	northLetters = "abcdef"
	// DialectVariant is the variant of a dialect fen written without one:
	// the rules Aalina, Aualé and PlayStrategy play (oware with the seeds
	// of a repeated position going to each row's owner).
	DialectVariant = "oware-own"
)

// CheckDialect reports whether the dialect can carry v's positions and
// moves: two rows of six pits (a letter a pit). Akon's seven-pit rows have
// no letters; the error says so.
func CheckDialect(v *Variant) error {
	if v.Pits != len(southLetters) {
		return fmt.Errorf("%s has %d pits a row; the engine dialect names %d (A..F, a..f)", v.Name, v.Pits, len(southLetters))
	}
	return nil
}

// isFEN reports whether s has the form of a dialect fen rather than of
// this project's rows: no "/" between rows, "-" between fields. It decides
// which parser reads a position string; the parser then checks the rest.
func isFEN(s string) bool {
	return !strings.Contains(s, "/") && strings.Contains(s, "-")
}

// ParseFEN reads the dialect's position string for v: the 2×6 pit counts
// (South's A..F, then North's a..f), South's store, North's store, and S or
// N for the side to move, joined by "-", e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.
// The stores are the seeds each player has captured (kalah's stores), and
// board and stores must hold v's total. Spaces around the whole are
// ignored. The error names the bad field, e.g. `fen "4-4-...-X": side "X",
// want S or N`.
func ParseFEN(v *Variant, fen string) (Setup, error) {
	fen = strings.TrimSpace(fen)
	if err := CheckDialect(v); err != nil {
		return Setup{}, err
	}
	fields := strings.Split(fen, "-")
	pits := 2 * v.Pits
	if len(fields) != pits+3 {
		return Setup{}, fmt.Errorf("fen %q has %d fields, want %d (%d pits, 2 stores, S or N)", fen, len(fields), pits+3, pits)
	}
	for i, f := range fields[:pits+2] {
		if _, ok := seedCount(f); !ok {
			return Setup{}, fmt.Errorf("fen %q: field %d, %q, is not a seed count", fen, i+1, f)
		}
	}
	player := ""
	switch fields[pits+2] {
	case "S":
		player = "1"
	case "N":
		player = "2"
	default:
		return Setup{}, fmt.Errorf("fen %q: side %q, want S or N", fen, fields[pits+2])
	}
	rows := strings.Join(fields[:v.Pits], ",") + "/" + strings.Join(fields[v.Pits:pits], ",")
	st, err := parseFields(v, []string{rows, player, fields[pits] + "-" + fields[pits+1]})
	if err != nil {
		return Setup{}, fmt.Errorf("fen %q: %w", fen, err)
	}
	return st, nil
}

// FormatFEN writes s in the dialect (ParseFEN's form). Unknown captures
// are written as 0, so the seeds may then fall short of the total.
func FormatFEN(s Setup) string {
	row1, row2 := s.Position.Rows()
	var b strings.Builder
	for _, row := range []uint64{row1, row2} {
		for i := 0; i < s.Variant.Pits; i++ {
			b.WriteString(strconv.Itoa(Pit(row, i)))
			b.WriteByte('-')
		}
	}
	side := "S"
	if s.Position.Player() == 2 {
		side = "N"
	}
	fmt.Fprintf(&b, "%d-%d-%s", s.Captured[0], s.Captured[1], side)
	return b.String()
}

// MoveLetter writes the move of pit (1..6) by the side to move of p as the
// dialect's letter. A pass has no letter (the dialect leaves passes out:
// the next letter's case shows who moves), so it is "", and so is a pit
// beyond the sixth, which has none (CheckDialect).
func MoveLetter(p Position, pit int) string {
	if pit == PassPit || pit > len(southLetters) {
		return ""
	}
	if p.Side == 0 {
		return southLetters[pit-1 : pit]
	}
	return northLetters[pit-1 : pit]
}

// isLetter reports whether c is a move letter of either side.
func isLetter(c byte) bool { return c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f' }

// isLetterRun reports whether s is one or more move letters written
// together ("AfCb").
func isLetterRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}

// LetterPit reads one move letter for the side to move of p and returns
// its pit number, 1..6. A letter of the other side's row is an error that
// says who is to move; so is a letter on a board the dialect cannot carry.
func (v *Variant) LetterPit(p Position, letter byte) (int, error) {
	if err := CheckDialect(v); err != nil {
		return 0, fmt.Errorf("move %q: %w", string(letter), err)
	}
	own, other, name := southLetters, northLetters, "South (A..F)"
	if p.Side == 1 {
		own, other, name = northLetters, southLetters, "North (a..f)"
	}
	if i := strings.IndexByte(own, letter); i >= 0 {
		return i + 1, nil
	}
	if strings.IndexByte(other, letter) >= 0 {
		return 0, fmt.Errorf("move %q: %s is to move", string(letter), name)
	}
	return 0, fmt.Errorf("move %q is not a pit letter (A..F for South, a..f for North)", string(letter))
}

// Letters writes a sequence of moves (pits and passes) from p in the
// dialect, letters together ("AfCb"); passes leave no letter. It stops at
// the first move that is not legal.
func Letters(v *Variant, p Position, pits []int) string {
	var b strings.Builder
	for _, pit := range pits {
		m, err := v.MakeMove(p, pit)
		if err != nil {
			break
		}
		b.WriteString(MoveLetter(p, pit))
		p = m.Next
	}
	return b.String()
}

// LineLetters writes a game's line (Game.Line) in the dialect, letters
// together; forced passes leave no letter.
func LineLetters(line []Ply) string {
	var b strings.Builder
	for _, ply := range line {
		b.WriteString(MoveLetter(ply.Before.Position, int(ply.Move.Pit)))
	}
	return b.String()
}
