package position

import "fmt"

// PlayStrategy (playstrategy.org, whose rules library is strategygames)
// records an oware move as two squares written together: the pit it is
// sown from and the pit its last seed falls into, e.g. "d1e2". Files a..f
// run left to right on both rows; rank 1 is South's row (player 1, who
// moves first) and rank 2 North's (player 2). South sows a1..f1 and on
// round f2..a2, so South's pit n is file n of rank 1 and North's pit n is
// file 7-n of rank 2. Its game records are these moves separated by
// spaces, from the start position.

// checkSquares reports whether PlayStrategy's squares can write v's moves:
// two rows of six pits, and one lap a move, so that the last seed's pit is
// where the move ends (awari, oware, oware-own).
func checkSquares(v *Variant) error {
	if v.Pits != 6 || v.Sow != SowSkipOrigin {
		return fmt.Errorf("%s: PlayStrategy's squares (a1..f2) write only oware-like moves (six pits a row, one lap)", v.Name)
	}
	return nil
}

// square names pit (1..6) of player (1 or 2) as PlayStrategy does.
func square(player, pit int) string {
	if player == 1 {
		return string([]byte{byte('a' + pit - 1), '1'})
	}
	return string([]byte{byte('a' + 6 - pit), '2'})
}

// isSquare reports whether s[0:2] has the form of a square, a1..f2.
func isSquare(s string) bool {
	return len(s) >= 2 && s[0] >= 'a' && s[0] <= 'f' && (s[1] == '1' || s[1] == '2')
}

// IsSquareMove reports whether s has the form of a PlayStrategy move: one
// square (the pit sown) or two (and where the last seed falls).
func IsSquareMove(s string) bool { return isSquareMove(s) }

func isSquareMove(s string) bool {
	return (len(s) == 2 || len(s) == 4) && isSquare(s) && (len(s) == 2 || isSquare(s[2:]))
}

// SquareMove writes the move of pit (1..6) by the side to move of p as
// PlayStrategy does: the square sown from and the square of the last seed,
// "d1e2". A pass, an empty pit or a variant checkSquares refuses gives "".
func (v *Variant) SquareMove(p Position, pit int) string {
	if pit == PassPit || checkSquares(v) != nil {
		return ""
	}
	seeds := Pit(p.Own, pit-1)
	if seeds == 0 {
		return ""
	}
	mover := p.Player()
	last := int(v.laps[(pit-1)*v.stride+seeds].last) // a ring index from the mover's side
	lastPlayer, lastPit := mover, last+1
	if last >= v.Pits {
		lastPlayer, lastPit = Opponent(mover), last-v.Pits+1
	}
	return square(mover, pit) + square(lastPlayer, lastPit)
}

// squarePit reads a PlayStrategy move for the side to move of p and
// returns its pit. The first square must be on the mover's row; a second
// square, when given, must be where the move's last seed falls (a check
// that the record was read as written).
func (v *Variant) squarePit(p Position, s string) (int, error) {
	if err := checkSquares(v); err != nil {
		return 0, fmt.Errorf("move %q: %w", s, err)
	}
	player := int(s[1] - '0')
	pit := int(s[0]-'a') + 1
	if player == 2 {
		pit = 7 - pit
	}
	if player != p.Player() {
		return 0, fmt.Errorf("move %q: square %s is player %d's (rank %d), and player %d is to move", s, s[:2], player, player, p.Player())
	}
	if len(s) == 4 && Pit(p.Own, pit-1) > 0 {
		if want := v.SquareMove(p, pit); want != s {
			return 0, fmt.Errorf("move %q: the last seed of %s falls in %s, not %s", s, s[:2], want[2:], s[2:])
		}
	}
	return pit, nil
}

// LineSquares writes a game's line (Game.Line) as PlayStrategy's moves,
// one a string; a forced pass, which PlayStrategy's oware never has,
// leaves nothing.
func LineSquares(v *Variant, line []Ply) []string {
	var out []string
	for _, ply := range line {
		if sq := v.SquareMove(ply.Before.Position, int(ply.Move.Pit)); sq != "" {
			out = append(out, sq)
		}
	}
	return out
}
