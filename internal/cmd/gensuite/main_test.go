package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// suitePath is the committed suite, from this directory.
const suitePath = "../../../bench/testdata/solve-suite.txt"

// TestMidgamesAsCommitted: the midgame lines the generator picks (which
// do not depend on the machine) are the committed suite's, variant by
// variant; and its header is the committed one.
func TestMidgamesAsCommitted(t *testing.T) {
	data, err := os.ReadFile(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, header) {
		t.Errorf("%s does not start with the generator's header", suitePath)
	}
	committed := map[string][]string{}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		if s, ok := strings.CutPrefix(line, "# section: "); ok {
			section = s
		}
		if section != "midgame" || line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		st, err := position.Parse(strings.TrimSpace(line[:strings.Index(line, "#")]))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		committed[st.Variant.Name] = append(committed[st.Variant.Name], line)
	}
	for _, v := range position.Variants() {
		if got, want := strings.Join(midgames(v), "\n"), strings.Join(committed[v.Name], "\n"); got != want {
			t.Errorf("%s midgames:\n%s\nwant (committed)\n%s", v.Name, got, want)
		}
	}
}
