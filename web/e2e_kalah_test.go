package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mancala-solver/mancala/position"
)

// kalahLine is a kalah-3x3 game from the start, 3,3,3/3,3,3: player 1's
// pit 1 sows pits 2 and 3 and the store, an extra move; pit 2, now 4
// seeds, sows pit 3, the store and two of player 2's pits, and player 2
// moves. The third move is player 2's first best move, whatever it is.
var kalahLine = []string{"1", "2"}

// testKalahGame picks kalah sizes and rule sets with the board page's
// pickers (whatever sizes and rule sets the backend lists), then plays a
// kalah-3x3 game with an extra move by clicking. After each move it checks
// the position, the stores, every move's value and captures, the extra
// move's note and the moves played against the backend; then the
// analysis page marks the extra move and draws the stores.
func testKalahGame(t *testing.T, ctx context.Context, base string, o *Answers) {
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?position=kalah-2x2")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	checkPicker(t, ctx, "kalah", 2, 2)
	starts := map[string]string{}
	for _, v := range o.Variants() {
		starts[fmt.Sprintf("%s %dx%d", v.Rules, v.Pits, v.PitSeeds)] = v.Start
	}
	choose(t, ctx, "seeds", "3")
	checkShown(t, ctx, starts["kalah 2x3"])
	checkPicker(t, ctx, "kalah", 2, 3)
	// Every other rule set with stores, in the size chosen, and back.
	for _, v := range o.Variants() {
		if v.Stores && v.Rules != "kalah" && v.Pits == 2 && v.PitSeeds == 3 {
			t.Logf("the picker's rule set %s: %s", v.Rules, v.Name)
			choose(t, ctx, "variant", v.Rules)
			checkShown(t, ctx, v.Start)
			checkPicker(t, ctx, v.Rules, 2, 3)
			choose(t, ctx, "variant", "kalah")
			checkShown(t, ctx, starts["kalah 2x3"])
		}
	}
	choose(t, ctx, "pits", "3")
	checkShown(t, ctx, starts["kalah 3x3"])

	var line []string
	for i := 0; i <= len(kalahLine)+1; i++ {
		if i > 0 {
			move := ""
			if i <= len(kalahLine) {
				move = kalahLine[i-1]
			} else {
				move = firstBest(t, ctx)
			}
			line = append(line, move)
			clickPit(t, ctx, move)
		}
		played := playLine(t, o, "kalah-3x3", strings.Join(line, ","))
		shown := checkShown(t, ctx, played.Position)
		checkValues(t, o, shown)
		checkStores(t, ctx, played.Position)
		var listed []string
		wantNote := ""
		for k, m := range played.Moves {
			again := ""
			if m.Again {
				again = " again"
			}
			listed = append(listed, fmt.Sprintf("%d. P%d %v(x%d)%s", k+1, m.Player, m.Move, m.Captured, again))
			wantNote = ""
			if m.Again {
				wantNote = fmt.Sprintf("player %d moves again", m.Player)
			}
		}
		if i == 1 && wantNote == "" {
			t.Fatalf("the backend gives no extra move for kalah-3x3's pit 1: %+v", played)
		}
		if wantNote == "" && shown.Note != "" || !strings.Contains(shown.Note, wantNote) {
			t.Errorf("after %v the note says %q, want it to say %q", line, shown.Note, wantNote)
		}
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#moves .move")].map((m) => m.textContent)`))
		if len(line) > 0 && fmt.Sprint(got) != fmt.Sprint(listed) {
			t.Errorf("after %v the moves played read %q, want %q", line, got, listed)
		}
		if i == 1 {
			screenshot(t, ctx, "serve-kalah.png")
		}
	}
	testKalahAnalysis(t, ctx, o, line)
}

// testKalahAnalysis opens the game on the analysis page (the board page's
// link) and checks that its table marks the plies after which the same
// player moves again, as the backend's analysis does, and that a ply's
// board shows the stores of its position.
func testKalahAnalysis(t *testing.T, ctx context.Context, o *Answers, line []string) {
	answers, err := o.Analyze(context.Background(), AnalyzeQuery{Games: "kalah-3x3 " + strings.Join(line, " "), PlyTime: time.Minute})
	if err != nil || len(answers) != 1 {
		t.Fatalf("analyze: %d answers, %v", len(answers), err)
	}
	var want struct {
		Plies []struct {
			Position string `json:"position"`
			Move     any    `json:"move"`
			Again    bool   `json:"again"`
		} `json:"plies"`
	}
	decode(t, answers[0], &want)
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("analyze-link").href`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "graph")
	cells, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("#plies tbody tr")].map((r) => r.children[2].textContent)`))
	var wantCells []string
	for _, p := range want.Plies {
		cell := fmt.Sprint(p.Move)
		if p.Again {
			cell += " again"
		}
		wantCells = append(wantCells, cell)
	}
	if fmt.Sprint(cells) != fmt.Sprint(wantCells) || !want.Plies[0].Again {
		t.Errorf("the table's moves read %q, the backend's analysis %q (ply 1 must be an extra move)", cells, wantCells)
	}
	const k = 2
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#plies tbody tr[data-ply="%d"]`, k)))); err != nil {
		t.Fatal(err)
	}
	checkStoresOf(t, ctx, "ply-board", want.Plies[k-1].Position)
}

// playedLine is the part of a play answer the kalah tests check.
type playedLine struct {
	Position string `json:"position"`
	Moves    []struct {
		Player   int  `json:"player"`
		Move     any  `json:"move"`
		Captured int  `json:"captured"`
		Again    bool `json:"again"`
	} `json:"moves"`
}

// playLine is the backend's play of moves from start.
func playLine(t *testing.T, o *Answers, start, moves string) playedLine {
	t.Helper()
	answer, err := o.Play(context.Background(), start, moves)
	if err != nil {
		t.Fatal(err)
	}
	var played playedLine
	decode(t, answer, &played)
	return played
}

// clickPit clicks the board page's playable pit and waits for the board.
func clickPit(t *testing.T, ctx context.Context, pit string) {
	t.Helper()
	sel := fmt.Sprintf(`#board g.pit.playable[data-pit="%s"]`, pit)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
	waitFor(t, ctx, "board")
}

// choose picks value in the board page's select id, as a user does, and
// waits for the board.
func choose(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q;
		s.dispatchEvent(new Event("change")); return s.value; })()`, id, value)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil || got != value {
		t.Fatalf("choosing %s in #%s: %q (%v)", value, id, got, err)
	}
	waitFor(t, ctx, "board")
}

// checkShown checks that the board page shows pos, and returns what it
// shows.
func checkShown(t *testing.T, ctx context.Context, pos string) shownBoard {
	t.Helper()
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[shownBoard](readBoard))
	if err != nil {
		t.Fatal(err)
	}
	if shown.Position != pos {
		t.Fatalf("the board shows %s, want %s", shown.Position, pos)
	}
	return shown
}

// checkPicker checks the rule set and the size the pickers show.
func checkPicker(t *testing.T, ctx context.Context, rules string, pits, seeds int) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`["variant", "pits", "seeds"].map((id) => document.getElementById(id).value).join(" ") +
		(document.getElementById("size").hidden ? " hidden" : "")`))
	if want := fmt.Sprintf("%s %d %d", rules, pits, seeds); err != nil || got != want {
		t.Errorf("the pickers show %q (%v), want %q", got, err, want)
	}
}

// checkStores checks the board page's stores against pos's captures.
func checkStores(t *testing.T, ctx context.Context, pos string) {
	t.Helper()
	checkStoresOf(t, ctx, "board", pos)
}

// checkStoresOf checks that the board svg id draws stores (not trays)
// holding pos's captures CAP1-CAP2.
func checkStoresOf(t *testing.T, ctx context.Context, id, pos string) {
	t.Helper()
	s, err := position.Parse(pos)
	if err != nil || !s.CapturesKnown {
		t.Fatalf("%s: %v (captures known %v)", pos, err, s.CapturesKnown)
	}
	js := fmt.Sprintf(`[1, 2].map((p) => { const g = document.querySelector('#%s g.store[data-player="' + p + '"]');
		return g.classList.contains("kalah") ? Number(g.dataset.seeds) : -1; })`, id)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](js))
	if err != nil || fmt.Sprint(got) != fmt.Sprint(s.Captured[:]) {
		t.Errorf("#%s draws the stores of %s as %v (%v), want %v", id, pos, got, err, s.Captured)
	}
}

// firstBest is the first pit the board marks best.
func firstBest(t *testing.T, ctx context.Context) string {
	t.Helper()
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[shownBoard](readBoard))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range shown.Pits {
		if p.Best {
			return fmt.Sprint(p.Pit)
		}
	}
	t.Fatalf("%s: no best move shown", shown.Position)
	return ""
}

// kalahEngineStart is a kalah-3x3 position (worked with position's moves)
// where player 1's pit 2 hands the turn over and player 2's only move,
// pit 1, is an extra move: the engine makes two moves or more in a row.
const kalahEngineStart = "kalah-3x3:0,1,1/3,0,0:1:6-7"

// testKalahEngineUndo plays against the engine as player 2 in kalah: after
// the player's click the engine's extra move and the moves after it are
// played, and one undo takes them all back with the player's move, to the
// player's turn in the position before the click.
func testKalahEngineUndo(t *testing.T, ctx context.Context, base string, o *Answers) {
	target := base + "/?position=" + kalahEngineStart + "&engine=2&time=200ms"
	if err := chromedp.Do(ctx, chromedp.Navigate(target)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	start := checkShown(t, ctx, "kalah-3x3:0,1,1/3,0,0:1:6-7")
	clickPit(t, ctx, "2")
	search, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("moves")`))
	moves := strings.Split(search, ",")
	played := playLine(t, o, kalahEngineStart, search)
	if len(moves) < 3 || moves[0] != "2" || len(played.Moves) < 3 || !played.Moves[1].Again || played.Moves[1].Player != 2 {
		t.Fatalf("the game went %v: %+v; want 2, then the engine's extra move and more", moves, played)
	}
	checkShown(t, ctx, played.Position)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#undo"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if back := checkShown(t, ctx, start.Position); len(back.Pits) == 0 {
		t.Errorf("after undo: no move of player 1 is playable: %+v", back)
	}
}
