package web

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mancala-solver/mancala/position"
)

// testEngineGame plays a short game against the engine on the board page:
// the engine plays player 2 from the 10-seed awari endgame (every value
// exact), answers each click with a move the backend's /api/move counts
// among the best moves of the game so far, and the page hands the game to
// the analysis page, which analyses every ply.
func testEngineGame(t *testing.T, ctx context.Context, base string, o *Answers) {
	bg := context.Background()
	target := base + "/?position=" + url.QueryEscape(e2eStart) + "&engine=2&time=200ms"
	if err := chromedp.Do(ctx, chromedp.Navigate(target)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	var moves []string
	for round := 0; round < 2; round++ {
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[shownBoard](readBoard))
		if err != nil {
			t.Fatal(err)
		}
		if s, err := position.Parse(shown.Position); err != nil || s.Position.Player() != 1 {
			t.Fatalf("round %d: %s is not player 1's turn (%v)", round, shown.Position, err)
		}
		var mine int
		for _, p := range shown.Pits {
			if p.Best {
				mine = p.Pit
				break
			}
		}
		sel := fmt.Sprintf(`#board g.pit.playable[data-pit="%d"]`, mine)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
		waitFor(t, ctx, "board")
		moves = append(moves, fmt.Sprint(mine))
		search, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`))
		q, _ := url.ParseQuery(strings.TrimPrefix(search, "?"))
		played := strings.Split(q.Get("moves"), ",")
		if len(played) != len(moves)+1 || !slices.Equal(played[:len(moves)], moves) {
			t.Fatalf("round %d: the URL's moves %v, want %v and the engine's", round, played, moves)
		}
		var reply struct {
			Exact     bool  `json:"exact"`
			BestMoves []int `json:"best_moves"` // pits: no pass arises here
		}
		answer, err := o.Move(bg, MoveQuery{Position: e2eStart, Moves: strings.Join(moves, ","), Time: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		decode(t, answer, &reply)
		engine := played[len(played)-1]
		if !reply.Exact || !slices.Contains(reply.BestMoves, atoi(t, engine)) {
			t.Errorf("round %d: the engine played %s; the backend's best moves %v (exact %v)", round, engine, reply.BestMoves, reply.Exact)
		}
		moves = append(moves, engine)
		var after struct {
			Position string `json:"position"`
			GameOver bool   `json:"game_over"`
		}
		res, err := o.Play(bg, e2eStart, strings.Join(moves, ","))
		if err != nil {
			t.Fatal(err)
		}
		decode(t, res, &after)
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`)); got != after.Position {
			t.Fatalf("round %d: the board shows %s, play gives %s", round, got, after.Position)
		}
		if after.GameOver {
			break
		}
	}
	screenshot(t, ctx, "serve-engine.png")
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("analyze-link").href`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "graph")
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#graph circle.point").length`))
	if err != nil || points != len(moves) {
		t.Errorf("the analysis of %v has %d points (%v), want one a ply", moves, points, err)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
