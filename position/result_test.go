package position

import "testing"

// TestResultOfHandWorked tells hand-worked values as final scores, one
// case or more for each family of end rules (rules.md sections 0-6,
// docs/kalah.md). Each value is worked out in the comment from the rules;
// ResultOf's scores must be the captures so far plus the split of the
// board that value makes.
func TestResultOfHandWorked(t *testing.T) {
	cases := []struct {
		pos    string
		value  int // worked by hand, from the side to move
		final  [2]int
		winner int
		margin int
		nobody int
		known  bool
	}{
		// Awari, feeding: pit 6 captures player 2's pit 1 (2 seeds; pit 2
		// keeps 1, so no grand slam); player 2's only seed cannot reach
		// player 1's empty row, so the game ends and player 2 keeps it:
		// +2 - 1 = +1. 24+2 and 21+1.
		{"awari:0,0,0,0,0,1/1,1,0,0,0,0:1:24-21", 1, [2]int{26, 22}, 1, 4, 0, true},
		// Awari, grand slam forbidden: pit 6 would capture player 2's
		// every seed, so player 1 has no legal move and each takes their
		// row: 0. 23+1, 23+1.
		{"awari:0,0,0,0,0,1/1,0,0,0,0,0:1:23-23", 0, [2]int{24, 24}, 0, 0, 0, true},
		// Oware, grand slam captures nothing: pit 6 makes player 2's pit 1
		// hold 2 and captures nothing; player 2 cannot feed, keeps both:
		// -2. 23+0, 23+2.
		{"oware:0,0,0,0,0,1/1,0,0,0,0,0:1:23-23", -2, [2]int{23, 25}, 2, 2, 0, true},
		// The same from player 2's side once player 1 has sown: +2 for
		// player 2, the captures unknown (0-0): 0-2 of the board.
		{"oware:0,0,0,0,0,0/2,0,0,0,0,0:2", 2, [2]int{0, 2}, 2, 2, 0, false},
		// Akon, the other takes all: player 1's pit 7 sows into player
		// 2's pit 1 and takes that seed (+1); player 2's pit 6 sows pit 7
		// and player 1's pit 1, taking it (+1); player 1 has no seeds, so
		// player 2 takes the last one: 1 - 2 = -1. 30+1, 37+2.
		{"akon:0,0,0,0,0,0,1/0,0,0,0,0,2,0:1:30-37", -1, [2]int{31, 39}, 2, 8, 0, true},
		// Djenon-abe, the gift: player 1 has no seeds and player 2's only
		// move (pit 3 into pits 4-6) does not feed, so the game ends; only
		// player 2's row holds seeds and gives one to player 1: 1 - 2 = -1.
		{"djenon-abe:0,0,0,0,0,0/0,0,3,0,0,0:1:22-23", -1, [2]int{23, 25}, 2, 2, 0, true},
		// Djenon-aboure, no pit holds 2: the game is over, own rows: 2-2.
		{"djenon-aboure:1,0,1,0,0,0/0,1,0,0,0,1:2:22-22", 0, [2]int{24, 24}, 0, 0, 0, true},
		// Kalah(2,1), the start: pit 2 sows into the store (+1, move
		// again), pit 1 sows into the empty pit 2 and captures it with
		// the facing seed (+2); player 1's row is empty, so player 2 banks
		// their last seed: 3 - 1 = +2 (docs/kalah.md's table).
		{"kalah-2x1", 2, [2]int{3, 1}, 1, 2, 0, true},
		// A whole board: the captures are 0-0 though not written.
		{"djenon-abe:4,4,4,4,4,4/4,4,4,4,4,4:1", -2, [2]int{23, 25}, 2, 2, 0, true},
		// The arithmetic of parity: were 3 seeds worth +2 (only a
		// repetition, whose board counts for nobody, makes seeds and value
		// of odd sum), the split is 2-0 and one seed for nobody.
		{"awari:0,0,0,0,0,2/1,0,0,0,0,0:1:23-22", 2, [2]int{25, 22}, 1, 3, 1, true},
		// A value beyond the board's seeds is held to them.
		{"awari:0,0,0,0,0,2/1,0,0,0,0,0:1:23-22", 9, [2]int{26, 22}, 1, 4, 0, true},
	}
	for _, c := range cases {
		s, err := Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		r := s.ResultOf(c.value)
		want := Result{Final: c.final, Winner: c.winner, Margin: c.margin, Nobody: c.nobody, CapturesKnown: c.known}
		if r != want {
			t.Errorf("%s, value %+d: got %+v, want %+v", c.pos, c.value, r, want)
		}
	}
}

// TestGameResultHandWorked plays the lines of TestResultOfHandWorked out
// and reads each game's result: the same final scores, so that a value
// told as a result and the game played out agree; and a repetition's
// board counts for nobody.
func TestGameResultHandWorked(t *testing.T) {
	cases := []struct {
		pos    string
		moves  []int
		end    EndReason
		final  [2]int
		winner int
		nobody int
	}{
		{"awari:0,0,0,0,0,1/1,1,0,0,0,0:1:24-21", []int{6}, EndStopAt, [2]int{26, 22}, 1, 0},
		{"awari:0,0,0,0,0,1/1,0,0,0,0,0:1:23-23", nil, EndNoMove, [2]int{24, 24}, 0, 0},
		{"oware:0,0,0,0,0,1/1,0,0,0,0,0:1:23-23", []int{6}, EndCannotFeed, [2]int{23, 25}, 2, 0},
		{"akon:0,0,0,0,0,0,1/0,0,0,0,0,2,0:1:30-37", []int{7, 6}, EndNoSeeds, [2]int{31, 39}, 2, 0},
		{"djenon-abe:0,0,0,0,0,0/0,0,3,0,0,0:1:22-23", nil, EndNoSeeds, [2]int{23, 25}, 2, 0},
		{"kalah-2x1", []int{2, 1}, EndEmptyRow, [2]int{3, 1}, 1, 0},
		// rulecases_test.go's cycle: the two seeds chase each other round
		// the ring until the start recurs; both count for nobody.
		{"awari:1,0,0,0,0,0/1,0,0,0,0,0:1:23-23", []int{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}, EndRepetition, [2]int{23, 23}, 0, 2},
	}
	for _, c := range cases {
		s, err := Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGameNoStopAt(s)
		if c.end == EndStopAt {
			g = NewGame(s)
		}
		if r := g.Result(); len(c.moves) > 0 && r != (Result{}) {
			t.Errorf("%s: a result %+v before the end", c.pos, r)
		}
		for _, m := range c.moves {
			if _, err := g.Play(m); err != nil {
				t.Fatalf("%s: %v", c.pos, err)
			}
		}
		r := g.Result()
		if !g.Over || g.End != c.end || r.Final != c.final || r.Winner != c.winner || r.Nobody != c.nobody || !r.CapturesKnown {
			t.Errorf("%s: over %v (%s), result %+v; want %s, %v, winner %d, %d for nobody", c.pos, g.Over, g.End, r, c.end, c.final, c.winner, c.nobody)
		}
	}
}

// TestGameKnownCaptures: a start whose board holds every seed has 0-0
// captured though the string gives none, and so has the rest of the
// game; a start with seeds missing and no captures has unknown captures
// throughout. After pit 6 of the hand-worked endgame (it captures 2 and
// ends the game), the result says so too.
func TestGameKnownCaptures(t *testing.T) {
	for _, c := range []struct {
		pos   string
		moves []int
		want  bool
	}{
		{"awari:4,4,4,4,4,4/4,4,4,4,4,4:1", []int{6, 5, 1}, true},
		{"awari", []int{6, 5, 1}, true},
		{"awari:0,0,0,0,0,1/1,1,0,0,0,0:1", []int{6}, false},
		{"awari:0,0,0,0,0,1/1,1,0,0,0,0:1:24-21", []int{6}, true},
	} {
		s, err := Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGameNoStopAt(s)
		for _, m := range c.moves {
			if _, err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if g.KnownCaptures() != c.want || g.Over && g.Result().CapturesKnown != c.want {
			t.Errorf("%s: game %v, result %+v; want %v", c.pos, g.KnownCaptures(), g.Result(), c.want)
		}
	}
}
