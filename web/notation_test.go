package web

import (
	"context"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/oracle"
)

// The API reads the engine dialect (fen, move letters), PlayStrategy's
// squares and Aualé's files as the commands do: AfCb from the start is
// worked by hand in uci/notation_test.go.
func TestAnswersReadOtherNotations(t *testing.T) {
	a, err := NewAnswers(oracle.Config{Threads: 1, HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h := New(a, Config{}).Handler()
	var got struct {
		Position string `json:"position"`
	}
	for _, q := range []string{
		"position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&moves=AfCb",
		"position=oware-own&moves=A,f,C,b",
		"position=oware-own&moves=a1e1,a2d1,c1d2,e2a1",
	} {
		getJSON(t, h, "GET", "/api/play?"+q, "", &got)
		if got.Position != "oware-own:0,6,0,7,6,5/5,0,6,5,5,1:1:0-2" {
			t.Errorf("%s: %s", q, got.Position)
		}
	}
	ogn := "[Variant \"Oware Abapa\"]\n[Result \"*\"]\n\n1. A f 2. C+0 b+2\n"
	for _, games := range []string{ogn, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S AfCb\n"} {
		answers, err := a.Analyze(context.Background(), AnalyzeQuery{Games: games, PlyTime: 10 * time.Millisecond})
		if err != nil || len(answers) != 1 {
			t.Fatalf("%q: %d answers, %v", games, len(answers), err)
		}
		var an struct {
			Position string `json:"position"`
			Plies    []struct {
				Move any `json:"move"`
			} `json:"plies"`
		}
		decode(t, answers[0], &an)
		if an.Position != "oware-own:4,4,4,4,4,4/4,4,4,4,4,4:1:0-0" || len(an.Plies) != 4 || an.Plies[3].Move != 2.0 {
			t.Errorf("%q: %+v", games, an)
		}
	}
}
