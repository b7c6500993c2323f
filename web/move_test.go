package web

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// /api/move plays as the engine: for the 10-seed awari endgame, which the
// in-memory tablebase holds, the move is one of the exact best moves, and
// the answer carries the position's value and the principal variation.
func TestAPIMove(t *testing.T) {
	a := testBackend(t)
	awari, _ := position.Lookup("awari")
	if err := a.o.Warm(context.Background(), awari); err != nil { // the in-memory tablebase, before the timed request
		t.Fatal(err)
	}
	h := New(a, Config{Time: 10 * time.Second}).Handler()
	var got struct {
		Position  string `json:"position"`
		Move      int    `json:"move"`
		Value     int    `json:"value"`
		Exact     bool   `json:"exact"`
		BestMoves []int  `json:"best_moves"`
		PV        []int  `json:"pv"`
	}
	getJSON(t, h, "GET", "/api/move?position="+url.QueryEscape("awari:0,1,0,2,0,3/1,0,2,0,1,0:1:20-18")+"&moves=4&time=5s", "", &got)
	var want struct {
		Value     int   `json:"value"`
		BestMoves []int `json:"best_moves"`
	}
	getJSON(t, h, "GET", "/api/solve?position="+url.QueryEscape(got.Position), "", &want)
	if got.Position != "awari:0,1,0,0,1,4/1,0,2,0,1,0:2:20-18" || !got.Exact || got.Value != want.Value ||
		!slices.Contains(want.BestMoves, got.Move) || len(got.PV) == 0 || got.PV[0] != got.Move {
		t.Errorf("move answer %+v; solve of the position %+v", got, want)
	}
}

func TestAPIMoveErrors(t *testing.T) {
	h := New(testBackend(t), Config{Time: 10 * time.Second}).Handler()
	for target, want := range map[string]string{
		"/api/move?position=awari&moves=7":   "no such pit",
		"/api/move?position=awari&time=soon": `time "soon"`,
		"/api/move?position=awari&depth=0":   `depth "0" is not a whole number from 1 to 100`,
		"/api/move?position=awari&nodes=1e3": `nodes "1e3" is not a whole number`,
		"/api/move":                          "position: missing",
		// One seed each at pit 1: twelve forced plies repeat the start.
		"/api/move?position=awari:1,0,0,0,0,0/1,0,0,0,0,0:1&moves=1,1,2,2,3,3,4,4,5,5,6,6": "the game is over (repetition)",
	} {
		resp, body := do(t, h, "GET", target, "")
		if resp.StatusCode != 400 || !strings.Contains(errorOf(t, body), want) {
			t.Errorf("%s: %d %s, want 400 with %q", target, resp.StatusCode, body, want)
		}
	}
	// An Oracle that does not play has no /api/move.
	resp, _ := do(t, New(newFake(), Config{}).Handler(), "GET", "/api/move?position=awari", "")
	if resp.StatusCode != 404 {
		t.Errorf("an oracle without Move: status %d, want 404", resp.StatusCode)
	}
}

// The strength levels: depth=N stops the engine's search at N plies and
// nodes=N at about N nodes, far short of the time allowed; the move is
// one of the answer's best moves either way.
func TestAPIMoveStrength(t *testing.T) {
	h := New(testBackend(t), Config{Time: 10 * time.Second}).Handler()
	type answer struct {
		Move      int    `json:"move"`
		Depth     int    `json:"depth"`
		Nodes     int64  `json:"nodes"`
		Stopped   string `json:"stopped"`
		BestMoves []int  `json:"best_moves"`
	}
	var got answer
	getJSON(t, h, "GET", "/api/move?position=awari&depth=3&time=10s", "", &got)
	if got.Depth != 3 || got.Stopped != "depth limit" || !slices.Contains(got.BestMoves, got.Move) {
		t.Errorf("depth=3: %+v, want a search stopped at depth 3", got)
	}
	got = answer{}
	getJSON(t, h, "GET", "/api/move?position=awari&nodes=2000&time=10s", "", &got)
	if got.Stopped != "node limit" || got.Nodes > 20000 || !slices.Contains(got.BestMoves, got.Move) {
		t.Errorf("nodes=2000: %+v, want a search stopped by its node limit", got)
	}
}
