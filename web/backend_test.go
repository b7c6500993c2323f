package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/tablebase"
)

// testBackend is the Oracle the browser and load tests run over: the one
// `mancala serve` uses, with an in-memory endgame tablebase of 10 seeds
// (the tests' endgames have at most 10, so their values are probed, exact
// and quick to build even under the race detector).
func testBackend(t testing.TB) *Answers {
	a, err := NewAnswers(oracle.Config{Threads: 1, HashMiB: 16, MemTBSeeds: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// getJSON sends one request to h and decodes a 200 answer into v.
func getJSON(t *testing.T, h http.Handler, method, target, body string, v any) {
	t.Helper()
	resp, text := do(t, h, method, target, body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s %s: status %d: %s", method, target, resp.StatusCode, text)
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		t.Fatalf("%s %s: %v: %s", method, target, err, text)
	}
}

// The seed text's akon example (notation.md): 18 seeds from pit 2 go once
// round, then into the opponent's row, and capture 9.
func TestAnswersPlay(t *testing.T) {
	h := New(testBackend(t), Config{}).Handler()
	var got struct {
		Position string `json:"position"`
		Moves    []struct {
			Move     any `json:"move"`
			Captured int `json:"captured"`
		} `json:"moves"`
		GameOver bool `json:"game_over"`
	}
	getJSON(t, h, "GET", "/api/play?position=akon:2,18,3,0,1,0,2/0,1,1,1,5,0,2:1&moves=2", "", &got)
	if got.Position != "akon:3,1,4,1,2,1,3/2,0,0,0,6,1,3:2" || len(got.Moves) != 1 || got.Moves[0].Captured != 9 || got.GameOver {
		t.Errorf("got %+v", got)
	}
	resp, body := do(t, h, "GET", "/api/play?position=awari&moves=3,3,3", "")
	if resp.StatusCode != 400 || errorOf(t, body) != "move 3: pit 3 is empty (the 3rd move in the list)" {
		t.Errorf("an illegal move: status %d, %s", resp.StatusCode, body)
	}
}

// A forced pass keeps the value with the side to move as given (issue 8's
// example: player 1 must pass and is worth -5).
func TestAnswersSolveForcedPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an in-memory tablebase")
	}
	// No time limit: the value is proven however slow the machine.
	answer, err := testBackend(t).Solve(context.Background(), SolveQuery{Position: "djenon-abe:0,0,0,0,0,0/2,0,1,2,0,0:1", All: true})
	if err != nil {
		t.Fatal(err)
	}
	var got solved
	decode(t, answer, &got)
	if got.Value != -5 || !got.Exact || fmt.Sprint(got.BestMoves) != "[pass]" {
		t.Errorf("got %+v, want -5, exact, best [pass]", got)
	}
}

func TestAnswersQueryWithoutTablebase(t *testing.T) {
	a, err := NewAnswers(oracle.Config{NoTB: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h := New(a, Config{}).Handler()
	resp, body := do(t, h, "GET", "/api/query?position=awari:0,0,0,0,0,1/1,1,0,0,0,0:1", "")
	if resp.StatusCode != 404 || !strings.Contains(errorOf(t, body), "no tablebase") {
		t.Errorf("status %d, %s; want 404 naming the missing tablebase", resp.StatusCode, body)
	}
}

// Analysis agrees with itself across plies: where the turn passes over, a
// move's value is what it captured minus the next ply's value (two
// searches of different positions). No time limit: every value is proven
// however slow the machine.
func TestAnswersAnalyze(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an in-memory tablebase")
	}
	var got struct {
		Plies []struct {
			Player    int    `json:"player"`
			Captured  int    `json:"captured"`
			Value     int    `json:"value"`
			MoveValue int    `json:"move_value"`
			Loss      int    `json:"loss"`
			Exact     bool   `json:"exact"`
			Class     string `json:"class"`
		} `json:"plies"`
	}
	answers, err := testBackend(t).Analyze(context.Background(), AnalyzeQuery{Games: e2eGame})
	if err != nil || len(answers) != 1 {
		t.Fatalf("%d answers, %v", len(answers), err)
	}
	decode(t, answers[0], &got)
	if len(got.Plies) != 14 {
		t.Fatalf("%d plies, want 14", len(got.Plies))
	}
	for i, p := range got.Plies {
		if !p.Exact || p.Loss < 0 || p.Loss != p.Value-p.MoveValue {
			t.Errorf("ply %d: exact %v, loss %d, value %d, move value %d", i+1, p.Exact, p.Loss, p.Value, p.MoveValue)
		}
		if i+1 < len(got.Plies) && got.Plies[i+1].Player != p.Player {
			if want := p.Captured - got.Plies[i+1].Value; p.MoveValue != want {
				t.Errorf("ply %d: move value %d, want captured %d - next value %d", i+1, p.MoveValue, p.Captured, got.Plies[i+1].Value)
			}
		}
	}
	if got.Plies[5].Class != "blunder" {
		t.Errorf("ply 6 is %q, want a blunder (it loses 12 seeds)", got.Plies[5].Class)
	}
}

// A server given a tablebase directory (--tb) that holds only awari still
// solves the other variants (by search and the in-memory tablebase);
// query answers from the directory, and 404 for what it lacks.
func TestAnswersTablebaseDirWithoutTheVariant(t *testing.T) {
	dir := t.TempDir()
	awari, _ := position.Lookup("awari")
	if _, err := tablebase.Build(context.Background(), dir, awari, tablebase.BuildOptions{MaxSeeds: 4, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := NewAnswers(oracle.Config{TBDir: dir, Threads: 1, HashMiB: 16, MemTBSeeds: 6})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h := New(a, Config{Time: time.Minute}).Handler()
	var got solved
	getJSON(t, h, "GET", "/api/solve?position=oware:0,0,0,0,0,1/1,1,0,0,0,0:1", "", &got)
	if !got.Exact {
		t.Errorf("oware endgame: %+v, want an exact value", got)
	}
	getJSON(t, h, "GET", "/api/query?position=awari:0,0,0,0,0,1/1,1,0,0,0,0:1", "", &got)
	if !got.Exact || got.Value != 1 {
		t.Errorf("awari query: %+v, want +1 exact", got)
	}
	if resp, body := do(t, h, "GET", "/api/query?position=oware:0,0,0,0,0,1/1,1,0,0,0,0:1", ""); resp.StatusCode != 404 {
		t.Errorf("oware query: status %d %s, want 404", resp.StatusCode, body)
	}
	if err := a.Warm(context.Background()); err != nil {
		t.Errorf("Warm: %v", err)
	}
}

// /api/variants lists the games of rules.md and every kalah size under
// each rule set, once each, with what the board page draws and picks by:
// kalah-3x4 (worked by hand) has 3 pits of 4 seeds, 24 in all, stores, and
// kalah's rule set; every rule set's name is a variant of its own (its
// default size) of the same kind.
func TestAnswersVariants(t *testing.T) {
	a, err := NewAnswers(oracle.Config{NoTB: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var got []VariantInfo
	getJSON(t, New(a, Config{}).Handler(), "GET", "/api/variants", "", &got)
	names := map[string]VariantInfo{}
	for _, info := range got {
		if _, dup := names[info.Name]; dup {
			t.Errorf("%s is listed twice", info.Name)
		}
		names[info.Name] = info
		v, err := position.Lookup(info.Name)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		def, err := position.Lookup(info.Rules)
		if err != nil || def.Name != info.Rules || def.HasStores() != info.Stores || info.Stores != v.HasStores() {
			t.Errorf("%+v: its rule set %q is not a variant of the same kind (%v)", info, info.Rules, err)
		}
		if s, err := position.Parse(info.Start); err != nil || s.Variant != v || s.Position != v.Start() {
			t.Errorf("%s: start %q (%v)", info.Name, info.Start, err)
		}
	}
	for _, v := range append(position.Variants(), position.KalahVariants()...) {
		if _, ok := names[v.Name]; !ok {
			t.Errorf("%s is not listed", v.Name)
		}
	}
	want := VariantInfo{Name: "kalah-3x4", Pits: 3, Seeds: 24, PitSeeds: 4, Start: "kalah-3x4:4,4,4/4,4,4:1:0-0", Stores: true, Rules: "kalah"}
	if names["kalah-3x4"] != want {
		t.Errorf("kalah-3x4: %+v, want %+v", names["kalah-3x4"], want)
	}
	if awari := names["awari"]; awari.Stores || awari.Rules != "awari" || awari.PitSeeds != 4 {
		t.Errorf("awari: %+v", awari)
	}
}
