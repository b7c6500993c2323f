package position

import (
	"slices"
	"testing"
)

// Harmless spaces and a trailing ":" do not change what a string means.
func TestParseAcceptsSpaces(t *testing.T) {
	want, err := Parse("awari:4,4,4,4,4,0/4,4,4,4,4,4:2:4-0")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		" awari : 4, 4,4,4,4 ,0 / 4,4,4,4,4,4 : 2 : 4 - 0 ",
		"AWARI:4,4,4,4,4,0/4,4,4,4,4,4:2:4-0:",
	} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if got, err := Parse("oware:"); err != nil || got.String() != "oware:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0" {
		t.Errorf(`Parse("oware:") = %v, %v`, got, err)
	}
}

// Each error names the bad part exactly.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"awari:4,4,4,4,4,4,/4,4,4,4,4,4", `awari: row 1 "4,4,4,4,4,4," ends with a comma`},
		{"awari:4,4,4,4,4,4/4,,4,4,4,4", `awari: row 2 "4,,4,4,4,4": pit 2 is empty`},
		{"awari:4,4,4,4,4/4,4,4,4,4,4", `awari: row 1 has 5 pits, want 6`},
		{"awari:4,4,4,4,4,4/", `awari: row 2 is empty`},
		{"awari::1", `awari: the rows are empty (want ROW1/ROW2 after the variant)`},
		{"awari:4,4,4,4,4,x4/4,4,4,4,4,4", `awari: "x4" is not a seed count (row 1, pit 6)`},
		{"akon:0,0,0,0,0,0,71/0,0,0,0,0,0,0", `akon: 71 seeds in row 1, pit 7: akon has 70 in all`},
		{"awari:4,4,4,4,4,4/4,4,4,4,4,4:0", `awari: side "0" is not 1 or 2`},
		{"awari:4,4,4,4,4,4/4,4,4,4,4,4:", `awari: the side is empty (want 1 or 2 after the rows)`},
		{"awari:4,4,4,4,4,4/4,4,4,4,4,4: :1-2", `awari: the side is empty (want 1 or 2 after the rows)`},
		{"awari:4,4,4,4,4,4/4,4,4,4,4,4:1:1-2", `awari: 48 seeds on the board and 1-2 captured make 51, want 48`},
		{"awarii", `"awarii" is not a variant (known: akon, awari, djenon-abe, djenon-aboure, kalah, kalah-std, oware, oware-own; kalah-MxN and kalah-std-MxN for M pits and N seeds, 1..6)`},
	} {
		if _, err := Parse(c.in); err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseMoves(t *testing.T) {
	v, _ := Lookup("awari")
	got, err := v.ParseMoves([]string{"3,4", " 5 6 ", "PASS", "1"})
	if want := []int{3, 4, 5, 6, PassPit, 1}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"3,,4"}, `the 2nd move is empty in "3,,4"`},
		{[]string{"3", "4,"}, `the 3rd move is empty in "4,"`},
		{[]string{""}, `the 1st move is empty in ""`},
		{[]string{"1", "x"}, `move "x" is not a pit number or "pass" (the 2nd move in the list)`},
		{[]string{"0"}, `move 0: no such pit, want 1..6 (the 1st move in the list)`},
		{[]string{"1", "2", "7"}, `move 7: no such pit, want 1..6 (the 3rd move in the list)`},
		{[]string{"-1"}, `move -1: no such pit, want 1..6 (the 1st move in the list)`},
	} {
		if _, err := v.ParseMoves(c.args); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th",
		13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
