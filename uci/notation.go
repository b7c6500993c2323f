package uci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// The dialect names South's pits A..F and North's a..f, each row in its
// owner's sowing order; South is player 1 (the first to move from
// startpos), North player 2.
const (
	southLetters = "ABCDEF"
	northLetters = "abcdef"
	// NullMove is the bestmove of a position whose game is over.
	NullMove = "0000"
)

// Supported reports whether the dialect can carry v's positions and
// moves: a board of two rows of six pits (a letter a pit) and two stores.
// Akon's seven-pit rows have no letters.
func Supported(v *position.Variant) error {
	if v.Pits != len(southLetters) {
		return fmt.Errorf("%s has %d pits a row; the protocol's moves name %d (A..F, a..f)", v.Name, v.Pits, len(southLetters))
	}
	return nil
}

// ParseFEN reads the dialect's position string: the 12 pit counts (South's
// A..F, then North's a..f), South's store, North's store, and S or N for
// the side to move, joined by "-", e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.
// The stores are the seeds each player has captured, and board and stores
// must hold v's total (48). The error names the bad field.
func ParseFEN(v *position.Variant, fen string) (position.Setup, error) {
	fields := strings.Split(fen, "-")
	pits := 2 * v.Pits
	if len(fields) != pits+3 {
		return position.Setup{}, fmt.Errorf("fen %q has %d fields, want %d (%d pits, 2 stores, S or N)", fen, len(fields), pits+3, pits)
	}
	counts := make([]string, pits+2)
	for i, f := range fields[:pits+2] {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return position.Setup{}, fmt.Errorf("fen %q: field %d, %q, is not a seed count", fen, i+1, f)
		}
		counts[i] = strconv.Itoa(n)
	}
	player := 0
	switch fields[pits+2] {
	case "S":
		player = 1
	case "N":
		player = 2
	default:
		return position.Setup{}, fmt.Errorf("fen %q: side %q, want S or N", fen, fields[pits+2])
	}
	s := fmt.Sprintf("%s:%s/%s:%d:%s-%s", v.Name, strings.Join(counts[:v.Pits], ","),
		strings.Join(counts[v.Pits:pits], ","), player, counts[pits], counts[pits+1])
	setup, err := position.Parse(s)
	if err != nil {
		return position.Setup{}, fmt.Errorf("fen %q: %w", fen, err)
	}
	return setup, nil
}

// FormatFEN writes s in the dialect (ParseFEN's form); unknown captures are
// written as 0.
func FormatFEN(s position.Setup) string {
	row1, row2 := s.Position.Rows()
	var b strings.Builder
	for _, row := range []uint64{row1, row2} {
		for i := 0; i < s.Variant.Pits; i++ {
			fmt.Fprintf(&b, "%d-", position.Pit(row, i))
		}
	}
	side := "S"
	if s.Position.Player() == 2 {
		side = "N"
	}
	fmt.Fprintf(&b, "%d-%d-%s", s.Captured[0], s.Captured[1], side)
	return b.String()
}

// moveLetter writes the move of pit (1..6) by the side to move of p; a
// pass has no letter (the dialect leaves passes out: the next letter's
// case shows who moves).
func moveLetter(p position.Position, pit int) string {
	if pit == position.PassPit {
		return ""
	}
	if p.Side == 0 {
		return southLetters[pit-1 : pit]
	}
	return northLetters[pit-1 : pit]
}

// letterPit reads one move letter for the side to move of p and returns
// its pit number. A letter of the other side's row is an error that says
// who is to move.
func letterPit(p position.Position, letter byte) (int, error) {
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

// line is the game the GUI set up: where it started and the moves played
// (position.Game, whose Line holds the positions a move may repeat).
type line struct {
	game *position.Game
}

func newLine(s position.Setup) *line { return &line{game: position.NewGame(s)} }

// play applies moves written together ("AfCb"; spaces between letters are
// allowed). An illegal move is an error naming it and its place; the line
// is then left part-way, so callers build a new line for each position
// command.
func (l *line) play(moves string) error {
	n := 0
	for i := 0; i < len(moves); i++ {
		c := moves[i]
		if c == ' ' || c == '\t' {
			continue
		}
		n++
		pit, err := letterPit(l.game.Position, c)
		if err == nil {
			_, err = l.game.Play(pit)
		}
		if err != nil {
			return fmt.Errorf("the %s move: %w", position.Ordinal(n), err)
		}
	}
	return nil
}

// letters writes a sequence of moves (pits and passes) from p in the
// dialect, letters together; it stops at a move that is not legal.
func letters(v *position.Variant, p position.Position, pits []int) string {
	var b strings.Builder
	for _, pit := range pits {
		m, err := v.MakeMove(p, pit)
		if err != nil {
			break
		}
		b.WriteString(moveLetter(p, pit))
		p = m.Next
	}
	return b.String()
}

// MoveLetter is the dialect's letter for the move of pit (1..6) by p's
// side to move: A..F for South, a..f for North; "" for a pass, which the
// dialect leaves out.
func MoveLetter(p position.Position, pit int) string { return moveLetter(p, pit) }

// LetterPit reads one move letter for p's side to move and returns its pit
// number (1..6); a letter of the other side's row or no pit letter is an
// error that says which.
func LetterPit(p position.Position, letter byte) (int, error) { return letterPit(p, letter) }
