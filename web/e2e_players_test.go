package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The board for players (issue 43): the evaluation bar, the move list with
// each move's value and mark, clickable and walked with the arrow keys,
// the "hide values" switch, the engine's strength levels and the position
// editor, each driven in the browser and checked against the backend.

// waitList waits until the move list has valued every move it can.
func waitList(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, "board")
	pollUntil(t, ctx, "the move list", `document.getElementById("movelist").dataset.state === "ready"`, 3*time.Minute)
}

func shownPosition(t *testing.T, ctx context.Context) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// backendAnswer is the part of a solve answer the players' board uses.
type backendAnswer struct {
	Position string `json:"position"`
	Moves    []struct {
		Move  any    `json:"move"`
		Value int    `json:"value"`
		Class string `json:"class"`
	} `json:"moves"`
	Result struct {
		FinalScore [2]int `json:"final_score"`
	} `json:"result"`
}

func backendSolve(t *testing.T, o Oracle, pos string) backendAnswer {
	t.Helper()
	answer, err := o.Solve(context.Background(), SolveQuery{Position: pos, Time: time.Minute, All: true})
	if err != nil {
		t.Fatal(err)
	}
	var a backendAnswer
	decode(t, answer, &a)
	return a
}

func backendPlay(t *testing.T, o Oracle, start string, moves []string) string {
	t.Helper()
	answer, err := o.Play(context.Background(), start, strings.Join(moves, ","))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Position string `json:"position"`
	}
	decode(t, answer, &p)
	return p.Position
}

func testPlayersBoard(t *testing.T, ctx context.Context, base string, o Oracle) {
	line := strings.Fields(e2eGame)[1:6] // five moves of the analysis example, with its blunder
	positions := []string{}
	for k := 0; k <= len(line); k++ {
		positions = append(positions, backendPlay(t, o, e2eStart, line[:k]))
	}
	// A game from a link: the page values every move itself.
	target := base + "/?position=" + url.QueryEscape(e2eStart) + "&moves=" + strings.Join(line, ",")
	if err := chromedp.Do(ctx, chromedp.Navigate(target)); err != nil {
		t.Fatal(err)
	}
	waitList(t, ctx)

	// The evaluation bar: player 1's lead in the final score with best play.
	last := backendSolve(t, o, positions[len(line)])
	margin, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("evalbar").dataset.margin`))
	if want := fmt.Sprint(last.Result.FinalScore[0] - last.Result.FinalScore[1]); margin != want {
		t.Errorf("the evaluation bar's margin is %q, the backend's result %v", margin, last.Result.FinalScore)
	}

	// The move list: each move's value and class as the backend's solve of
	// the position it was played from gives them, and its mark.
	type entry struct {
		Value, Class, Text string
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]entry](`[...document.querySelectorAll("#movelist li[data-ply]:not([data-ply='0'])")]
	  .map((li) => ({value: li.dataset.value || "", class: li.dataset.class || "", text: li.textContent}))`))
	if err != nil || len(shown) != len(line) {
		t.Fatalf("the move list has %d moves (%v), want %d", len(shown), err, len(line))
	}
	marks := map[string]string{"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
	sawMark := false
	for i, move := range line {
		before := backendSolve(t, o, positions[i])
		var want entry
		for _, m := range before.Moves {
			if fmt.Sprint(m.Move) == move {
				want = entry{Value: fmt.Sprint(m.Value), Class: m.Class}
			}
		}
		if shown[i].Value != want.Value || shown[i].Class != want.Class {
			t.Errorf("move %d (%s): the list shows %+v, the backend %+v", i+1, move, shown[i], want)
		}
		if mark := marks[want.Class]; !strings.Contains(shown[i].Text, move+mark) {
			t.Errorf("move %d: %q lacks the mark %q", i+1, shown[i].Text, mark)
		}
		sawMark = sawMark || want.Class != "best"
	}
	if !sawMark {
		t.Errorf("the line %v has no inaccuracy, mistake or blunder to mark", line)
	}
	screenshot(t, ctx, "serve-players.png")

	// Clicking a move goes to the position after it; the arrow keys, Home
	// and End walk the line.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#movelist li[data-ply="2"]`))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if got := shownPosition(t, ctx); got != positions[2] {
		t.Errorf("clicking move 2 shows %s, want %s", got, positions[2])
	}
	for _, step := range []struct {
		key  string
		name string
		want int
	}{{kb.ArrowLeft, "ArrowLeft", 1}, {kb.ArrowLeft, "ArrowLeft", 0}, {kb.ArrowRight, "ArrowRight", 1},
		{kb.End, "End", len(line)}, {kb.Home, "Home", 0}, {kb.ArrowRight, "ArrowRight", 1}} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(step.key)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "board")
		if got := shownPosition(t, ctx); got != positions[step.want] {
			t.Errorf("%s: the board shows %s, want ply %d's %s", step.name, got, step.want, positions[step.want])
		}
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	waitList(t, ctx)

	// Hide values: no value on the board, in the list or the bar; back
	// when switched off.
	count := `[document.querySelectorAll("#board g.pit[data-value]").length,
	  document.querySelectorAll("#movelist li[data-value]").length,
	  document.getElementById("evalbar").hidden ? 0 : 1,
	  document.getElementById("best").disabled ? 0 : 1]`
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#hide-values"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[[]int](count)); fmt.Sprint(got) != "[0 0 0 0]" {
		t.Errorf("with values hidden: %v values on the board, in the list, the bar, Play best; want none", got)
	}
	if ev, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("evaluation").textContent`)); ev != "Values hidden." {
		t.Errorf("with values hidden the evaluation says %q", ev)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#hide-values"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[[]int](count)); len(got) != 4 || got[0] == 0 || got[1] != len(line) || got[2] != 1 {
		t.Errorf("values shown again: %v", got)
	}

	// A strength level: the engine, playing player 1 from awari's start,
	// stops its search at depth 2 (far short of its 5 s).
	target = base + "/?position=awari&engine=1&time=5s&strength=depth:2"
	if err := chromedp.Do(ctx, chromedp.Navigate(target)); err != nil {
		t.Fatal(err)
	}
	pollUntil(t, ctx, "the engine's move", `!!document.getElementById("board").dataset.engineStopped`, time.Minute)
	engine, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById("board").dataset.engineDepth, document.getElementById("board").dataset.engineStopped]`))
	if fmt.Sprint(engine) != "[2 depth limit]" {
		t.Errorf("the engine at depth 2 searched %v, want depth 2 and a depth limit", engine)
	}

	// The position editor: empty awari's board, set three pits by clicks
	// (a fourth seed added and taken away again by a shift-click) and
	// the side, and play from there. It starts from a small awari
	// position, not the start: the page values the start's moves by a
	// search to the server's time limit, a minute (76 of this test's 78 s
	// under -race).
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?position="+url.QueryEscape("awari:0,0,2,0,0,0/0,0,0,1,0,0:1"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	pit := func(player, pit int) string {
		return fmt.Sprintf(`#board g.pit[data-player="%d"][data-pit="%d"]`, player, pit)
	}
	actions := []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS("#edit")), chromedp.Click(chromedp.CSS("#edit-clear")),
		chromedp.Click(chromedp.CSS(pit(1, 6))), chromedp.Click(chromedp.CSS(pit(2, 1))), chromedp.Click(chromedp.CSS(pit(2, 2))),
		chromedp.Click(chromedp.CSS(pit(2, 4))),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new MouseEvent("click", {bubbles: true, shiftKey: true})), undefined`, pit(2, 4))),
		chromedp.Click(chromedp.CSS("#edit-side"))}
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
	editing, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.editing`))
	const edited = "awari:0,0,0,0,0,1/1,1,0,0,0,0:2"
	if editing != edited {
		t.Errorf("the editor holds %q, want %q", editing, edited)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#edit-done"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if got, want := shownPosition(t, ctx), backendPlay(t, o, edited, nil); got != want {
		t.Errorf("after editing the board shows %s, want %s", got, want)
	}
}
