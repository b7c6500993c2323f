package cmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/web"
)

// TestPlayJSONIsAPIPlay: `play --json` and /api/play answer one object for
// the same line (notation.md), forced passes included as moves of their
// own whether typed or not: a player who must pass at the start, passes in
// the middle of a principal variation (djenon-aboure's start position's), and
// a game that ends.
func TestPlayJSONIsAPIPlay(t *testing.T) {
	answers, err := web.NewAnswers(oracle.Config{Threads: 1, HashMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer answers.Close()
	srv := web.New(answers, web.Config{})
	pv := "5,3,6,5,5,3,4,1,3,3,2,5,1,pass,4,pass,2"
	for _, c := range []struct{ pos, moves string }{
		{"djenon-abe:0,0,0,0,0,0/0,0,0,0,1,3:1", ""},
		{"djenon-abe:0,0,0,0,0,0/0,0,0,0,1,3:1", "pass"},
		{"djenon-aboure", pv},
		{"djenon-aboure", strings.ReplaceAll(pv, "pass,", "")},
		{"awari:1,0,0,0,0,0/1,0,0,0,0,0:1:23-23", "1,1,2,2,3,3,4,4,5,5,6,6"},
	} {
		var cli bytes.Buffer
		if err := runPlay(&cli, c.pos, strings.Fields(c.moves), &playOptions{json: true}); err != nil {
			t.Fatalf("play %s %s: %v", c.pos, c.moves, err)
		}
		rec := httptest.NewRecorder()
		q := url.Values{"position": {c.pos}, "moves": {c.moves}}
		srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/play?"+q.Encode(), nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("/api/play %s %s: %d %s", c.pos, c.moves, rec.Code, rec.Body)
		}
		var fromCLI, fromAPI map[string]any
		if err := json.Unmarshal(cli.Bytes(), &fromCLI); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &fromAPI); err != nil {
			t.Fatal(err)
		}
		if c.moves == "" {
			// Worked by hand: player 1 has no seeds and passes; player 2 to move.
			want := map[string]any{"position": "djenon-abe:0,0,0,0,0,0/0,0,0,0,1,3:2", "game_over": false,
				"moves": []any{map[string]any{"player": 1.0, "move": "pass", "captured": 0.0}}}
			if !reflect.DeepEqual(fromAPI, want) {
				t.Errorf("/api/play %s: %s", c.pos, rec.Body)
			}
		}
		if !reflect.DeepEqual(fromCLI, fromAPI) {
			t.Errorf("%s %s:\nplay --json %s\n/api/play   %s", c.pos, c.moves, cli.Bytes(), rec.Body)
		}
	}
}
