package match

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// balanced is the built-in opening set (openings.txt): three-ply openings
// from oware's start whose value, searched by our engine, is near 0.
//
//go:embed openings.txt
var balanced string

// Balanced returns the built-in balanced openings for v: oware's set for
// awari, oware and oware-own (whose opening rules agree), none otherwise.
func Balanced(v *position.Variant) [][]int {
	switch v.Name {
	case "awari", "oware", "oware-own":
	default:
		return nil
	}
	o, err := ParseOpenings(strings.NewReader(balanced), v)
	if err != nil {
		panic("match: openings.txt: " + err.Error()) // a test checks it
	}
	return o
}

// ParseOpenings reads openings one a line: the moves from v's start,
// either pit numbers (1..6 of the mover's row, space- or comma-separated)
// or the protocol's letters written together ("AfC"); "#" starts a
// comment and blank lines are skipped. Every opening is replayed: the
// error names the line and the bad move, or an opening after which the
// game is over.
func ParseOpenings(r io.Reader, v *position.Variant) ([][]int, error) {
	var out [][]int
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == ',' || c == '\t' })
		if len(fields) == 0 {
			continue
		}
		pits, err := openingPits(v, fields)
		if err == nil {
			_, err = replay(v, pits)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, pits)
	}
	return out, sc.Err()
}

func openingPits(v *position.Variant, fields []string) ([]int, error) {
	var pits []int
	if len(fields) == 1 && fields[0][0] >= 'A' {
		g, _ := replay(v, nil)
		for i := 0; i < len(fields[0]); i++ {
			pit, err := v.LetterPit(g.Position, fields[0][i])
			if err == nil {
				_, err = g.Play(pit)
			}
			if err != nil {
				return nil, fmt.Errorf("the %s move: %w", position.Ordinal(i+1), err)
			}
			pits = append(pits, pit)
		}
		return pits, nil
	}
	for _, f := range fields {
		pit, err := strconv.Atoi(f)
		if err != nil || pit < 1 || pit > v.Pits {
			return nil, fmt.Errorf("move %q is not a pit 1..%d", f, v.Pits)
		}
		pits = append(pits, pit)
	}
	return pits, nil
}
