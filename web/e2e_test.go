package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mancala-solver/mancala/position"
)

// The browser test: the pages in headless Chromium over the real backend.
// It needs Chromium (Debian's package `chromium`, installed by .ci/run) and
// skips without it. Screenshots go to $MANCALA_E2E_ARTIFACTS (default
// $TMPDIR/mancala-e2e), and with MANCALA_UPDATE_SCREENSHOTS=1 to docs/ too.

// e2eStart is a 10-seed awari endgame: every value on its board is exact
// (the backend's endgame tablebase holds it), so nothing below depends on
// how fast the machine is.
const e2eStart = "awari:0,1,0,2,0,3/1,0,2,0,1,0:1:20-18"

// e2eGame is a game from e2eStart with a blunder (ply 6) and a mistake
// (ply 10), as the analysis page's example.
const e2eGame = e2eStart + " 4 1 6 1 2 2 3 4 4 3 1 6 1 4"

// chromiumNames are the programs the browser test looks for, in order.
var chromiumNames = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}

// chromiumMissing is the line that says the browser test did not run.
const chromiumMissing = "chromium not found (install Debian's chromium, or set MANCALA_CHROMIUM): browser test skipped"

// skipNotes is where a skipped browser test says so besides t.Skip, whose
// line `go test ./...` hides for a passing package: the terminal, when
// there is one (nil: none).
var skipNotes = func() io.WriteCloser {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil
	}
	return tty
}

// noteOnce makes the terminal line appear once a run, not once a test.
var noteOnce sync.Once

func chromiumPath(t *testing.T) string {
	if p := os.Getenv("MANCALA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	noteOnce.Do(func() {
		if w := skipNotes(); w != nil {
			fmt.Fprintf(w, "web: %s\n", chromiumMissing)
			w.Close()
		}
	})
	t.Skip(chromiumMissing)
	return ""
}

// console collects what the pages write to the browser console.
type console struct {
	mu   sync.Mutex
	msgs []chromedp.ConsoleMessage
}

func (c *console) problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.msgs {
		if m.IsException() || m.Type == "error" || m.Type == "warning" {
			out = append(out, m.String())
		}
	}
	return out
}

// newBrowser starts headless Chromium with a fresh profile and nothing
// that reaches the network by itself.
func newBrowser(t *testing.T) (context.Context, *console) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 860),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(ctx)
	t.Cleanup(cancelCtx)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	c := &console{}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	}()
	return ctx, c
}

// pollUntil polls the JavaScript expression expr every 20 ms until it is
// true, and fails the test, naming what, if it is not within timeout.
// Right after a navigation a poll may still name the old page's
// JavaScript context, which Chromium has just destroyed; polling again
// finds the new page's.
func pollUntil(t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
		if err == nil {
			return
		}
		if attempt < 5 && strings.Contains(err.Error(), "Cannot find context with specified id") {
			continue
		}
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// waitFor waits until the element's data-state is final and fails the
// test, with the page's error message, unless it is "ready".
func waitFor(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	pollUntil(t, ctx, "#"+id, fmt.Sprintf(`["ready", "error"].includes(document.getElementById(%q).dataset.state)`, id), 3*time.Minute)
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%q).dataset.state`, id)))
	if err != nil || state != "ready" {
		msg, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#error")))
		t.Fatalf("#%s is %q (%v): page error %q", id, state, err, msg)
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("MANCALA_E2E_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "mancala-e2e")
	}
	dirs := []string{dir}
	if os.Getenv("MANCALA_UPDATE_SCREENSHOTS") == "1" {
		dirs = append(dirs, filepath.Join("..", "docs"))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(d, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
}

// decode turns an Oracle's JSON-ready answer into v.
func decode(t *testing.T, answer any, v any) {
	t.Helper()
	data, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}

// solved is the part of a solve answer the board shows.
type solved struct {
	Position  string `json:"position"`
	Value     int    `json:"value"`
	Exact     bool   `json:"exact"`
	BestMoves []any  `json:"best_moves"`
	Moves     []struct {
		Move     any  `json:"move"`
		Value    int  `json:"value"`
		Captured int  `json:"captured"`
		Exact    bool `json:"exact"`
	} `json:"moves"`
}

// shownPit is one pit with a value, as the board page draws it.
type shownPit struct {
	Pit      int  `json:"pit"`
	Value    int  `json:"value"`
	Captured int  `json:"captured"` // the "(x9)" under the value, 0 when none is shown
	Exact    bool `json:"exact"`
	Best     bool `json:"best"`
}

type shownBoard struct {
	Position string     `json:"position"`
	Pits     []shownPit `json:"pits"`
	Search   string     `json:"search"`
	Note     string     `json:"note"`
}

const readBoard = `(() => {
  const b = document.getElementById("board");
  return {
    position: b.dataset.position,
    pits: [...b.querySelectorAll("g.pit[data-value]")].map((g) => ({
      pit: Number(g.dataset.pit), value: Number(g.dataset.value),
      captured: g.querySelector("text.captures") ? Number(g.dataset.captured) : 0,
      exact: g.dataset.exact === "true", best: g.classList.contains("best"),
    })),
    search: location.search,
    note: document.getElementById("note").hidden ? "" : document.getElementById("note").textContent,
  };
})()`

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cons := newBrowser(t)
	o := testBackend(t)
	// Warm the backend up (it builds its endgame tablebases on first use,
	// slowly under the race detector) before the pages wait for it. Not
	// akon's: 53 of the 63 s under -race, and its one page (testLayout's
	// 5 seeds) is proven by the search the backend tries before waiting
	// for a tablebase.
	start := time.Now()
	for _, v := range position.Variants() {
		if v.Name == "akon" {
			continue
		}
		if err := o.o.Warm(context.Background(), v); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("backend ready in %v", time.Since(start).Round(time.Millisecond))
	// Searches of a minute at most: every position the pages check is
	// within the backend's tablebases or a quick search, so exact at
	// once, and what a page left was searching ends as it is left (the
	// pages abort their requests on pagehide, TestBrowserLeave). Before
	// they did, a page left in Chromium's back/forward cache (players'
	// strength level: awari after the engine's move valued) kept its
	// search to the server's limit: with a minute, the next subtest's
	// engine waited 57 s for the awari solver under -race.
	srv := httptest.NewServer(New(o, Config{Time: time.Minute, Searches: 2, LoopbackOnly: true}).Handler())
	defer srv.Close()
	t.Run("board", func(t *testing.T) { testBoardPage(t, ctx, srv.URL, o) })
	t.Run("forced pass", func(t *testing.T) { testForcedPass(t, ctx, srv.URL, o) })
	t.Run("layout", func(t *testing.T) { testLayout(t, ctx, srv.URL) })
	t.Run("kalah", func(t *testing.T) { testKalahGame(t, ctx, srv.URL, o) })
	t.Run("kalah engine undo", func(t *testing.T) { testKalahEngineUndo(t, ctx, srv.URL, o) })
	t.Run("analysis", func(t *testing.T) { testAnalysisPage(t, ctx, srv.URL, o) })
	t.Run("players", func(t *testing.T) { testPlayersBoard(t, ctx, srv.URL, o) })
	t.Run("engine", func(t *testing.T) { testEngineGame(t, ctx, srv.URL, o) })
	if p := cons.problems(); len(p) > 0 {
		t.Errorf("the browser console reported:\n%s", strings.Join(p, "\n"))
	}
}

// testBoardPage plays a line by clicking pits and checks, after each
// move, that the board shows the position the backend's play reaches and
// every move's value as the backend's solve gives it, all exact; then
// undo, redo and the link.
func testBoardPage(t *testing.T, ctx context.Context, base string, o Oracle) {
	bg := context.Background()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?position="+url.QueryEscape(e2eStart))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	line := []string{"4", "1", "6"}
	var positions []string
	for i := 0; i <= len(line); i++ {
		if i > 0 {
			sel := fmt.Sprintf(`#board g.pit.playable[data-pit="%s"]`, line[i-1])
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
				t.Fatalf("clicking %s: %v", sel, err)
			}
			waitFor(t, ctx, "board")
		}
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[shownBoard](readBoard))
		if err != nil {
			t.Fatal(err)
		}
		var played struct {
			Position string `json:"position"`
		}
		answer, err := o.Play(bg, e2eStart, strings.Join(line[:i], ","))
		if err != nil {
			t.Fatal(err)
		}
		decode(t, answer, &played)
		if shown.Position != played.Position {
			t.Fatalf("after %v the board shows %s, play gives %s", line[:i], shown.Position, played.Position)
		}
		positions = append(positions, shown.Position)
		checkValues(t, o, shown)
		if want := "moves=" + strings.Join(line[:i], ","); i > 0 && !strings.Contains(shown.Search, want) {
			t.Errorf("URL %q does not carry %q", shown.Search, want)
		}
	}
	screenshot(t, ctx, "serve-board.png")

	for _, step := range []struct {
		button string
		want   string
	}{{"undo", positions[2]}, {"undo", positions[1]}, {"redo", positions[2]}} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#"+step.button))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "board")
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`)); got != step.want {
			t.Errorf("after %s the board shows %s, want %s", step.button, got, step.want)
		}
	}
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("link").href`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`)); got != positions[2] {
		t.Errorf("the link %s shows %s, want %s", link, got, positions[2])
	}

	// "Play best" plays the first best move that solve gives.
	var want solved
	answer, err := o.Solve(bg, SolveQuery{Position: positions[2], Time: time.Minute, All: true})
	if err != nil {
		t.Fatal(err)
	}
	decode(t, answer, &want)
	checkDistance(t, ctx, answer)
	checkResult(t, ctx, answer)
	after, err := o.Play(bg, positions[2], fmt.Sprint(want.BestMoves[0]))
	if err != nil {
		t.Fatal(err)
	}
	var played struct {
		Position string `json:"position"`
	}
	decode(t, after, &played)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#best"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`)); got != played.Position {
		t.Errorf("Play best shows %s, want %s (move %v)", got, played.Position, want.BestMoves[0])
	}
}

// checkDistance checks the board's distance line against the tablebase's
// distance in answer, the backend's solve of the position shown.
func checkDistance(t *testing.T, ctx context.Context, answer any) {
	t.Helper()
	var a struct {
		Value    int  `json:"value"`
		Distance *int `json:"distance"`
	}
	decode(t, answer, &a)
	if a.Distance == nil {
		t.Fatalf("the backend's answer has no distance: %+v", answer)
	}
	want := ""
	if a.Value != 0 {
		want = fmt.Sprintf(" Distance: %d %s to the capture or game end that realises it.", *a.Distance,
			map[bool]string{true: "ply", false: "plies"}[*a.Distance == 1])
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#evaluation .distance") || {}).textContent || ""`))
	if got != want {
		t.Errorf("the board says %q, want %q", got, want)
	}
}

// checkResult checks the board's result line (the value told as the
// game's end) against the "result" of answer, the backend's solve of the
// position shown.
func checkResult(t *testing.T, ctx context.Context, answer any) {
	t.Helper()
	var a struct {
		Result *struct {
			FinalScore [2]int `json:"final_score"`
			Winner     int    `json:"winner"`
			Margin     int    `json:"margin"`
		} `json:"result"`
	}
	decode(t, answer, &a)
	if a.Result == nil {
		t.Fatalf("the backend's answer has no result: %+v", answer)
	}
	r := a.Result
	want := fmt.Sprintf("Final score %d-%d with best play: a draw.", r.FinalScore[0], r.FinalScore[1])
	if r.Winner != 0 {
		want = fmt.Sprintf("Final score %d-%d with best play: player %d wins by %d %s.", r.FinalScore[0], r.FinalScore[1],
			r.Winner, r.Margin, map[bool]string{true: "seed", false: "seeds"}[r.Margin == 1])
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#evaluation .result") || {}).textContent || ""`))
	if !strings.Contains(got, want) {
		t.Errorf("the board's result says %q, want it to hold %q", got, want)
	}
}

// testForcedPass plays a move after which the opponent cannot move
// (djenon-aboure: no pit with two seeds) and checks that the page says so
// and that the mover moves again.
func testForcedPass(t *testing.T, ctx context.Context, base string, o Oracle) {
	const start = "djenon-aboure:0,0,2,0,2,0/1,0,0,0,0,0:1"
	err := chromedp.Do(ctx, chromedp.Navigate(base+"/?position="+url.QueryEscape(start)))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#board g.pit.playable[data-pit="3"]`))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[shownBoard](readBoard))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown.Note, "Player 2 has no legal move and passes") || !strings.HasSuffix(shown.Position, ":1") {
		t.Errorf("after a move that leaves player 2 stuck: position %s, note %q", shown.Position, shown.Note)
	}
	checkValues(t, o, shown)
}

// drawnRows reads the pit numbers of each row from left to right, as the
// page draws them: top (player 2) and bottom (player 1).
const drawnRows = `[2, 1].map((player) =>
  [...document.querySelectorAll('#board g.pit[data-player="' + player + '"]')]
    .map((g) => ({ pit: Number(g.dataset.pit), x: Number(g.querySelector("circle").getAttribute("cx")) }))
    .sort((a, b) => a.x - b.x).map((p) => p.pit))`

// testLayout checks that the board page numbers the pits as
// position.Diagram does (counter-clockwise sowing, akon's clockwise, and
// a kalah board with its stores), its first and last lines.
func testLayout(t *testing.T, ctx context.Context, base string) {
	for _, pos := range []string{e2eStart, "akon:1,0,0,2,0,0,0/0,1,0,0,0,1,0:1", "kalah-4x3:2,0,3,1/1,0,0,2:2:7-8"} {
		s, err := position.Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(position.Diagram(s.Variant, s.Position), "\n"), "\n")
		want := [][]string{strings.Fields(lines[0]), strings.Fields(lines[len(lines)-1])}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?position="+url.QueryEscape(pos))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "board")
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]int](drawnRows))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Errorf("%s: the page draws the rows (top, bottom) as %v, position.Diagram as %v", s.Variant.Name, rows, want)
		}
	}
}

// checkValues compares the values a board shows with the backend's solve
// of that position.
func checkValues(t *testing.T, o Oracle, shown shownBoard) {
	t.Helper()
	answer, err := o.Solve(context.Background(), SolveQuery{Position: shown.Position, Time: time.Minute, All: true})
	if err != nil {
		t.Fatal(err)
	}
	var want solved
	decode(t, answer, &want)
	best := map[int]bool{}
	for _, m := range want.BestMoves {
		if pit, ok := m.(float64); ok {
			best[int(pit)] = true
		}
	}
	var wantPits []shownPit
	for _, m := range want.Moves {
		if !m.Exact {
			t.Fatalf("%s: move %v is not exact in the backend; the test needs exact values", shown.Position, m.Move)
		}
		pit := int(m.Move.(float64))
		wantPits = append(wantPits, shownPit{Pit: pit, Value: m.Value, Captured: m.Captured, Exact: true, Best: best[pit]})
	}
	sort.Slice(shown.Pits, func(i, j int) bool { return shown.Pits[i].Pit < shown.Pits[j].Pit })
	sort.Slice(wantPits, func(i, j int) bool { return wantPits[i].Pit < wantPits[j].Pit })
	if fmt.Sprint(shown.Pits) != fmt.Sprint(wantPits) || len(wantPits) == 0 {
		t.Errorf("%s: the board shows %+v, solve gives %+v", shown.Position, shown.Pits, wantPits)
	}
}

type analysedGame struct {
	Plies []struct {
		Ply      int    `json:"ply"`
		Position string `json:"position"`
		Class    string `json:"class"`
		Result   struct {
			FinalScore [2]int `json:"final_score"`
		} `json:"result"`
	} `json:"plies"`
}

// testAnalysisPage pastes a game, checks the graph has a point a ply and a
// mark a mistake or blunder, and that clicking a ply shows its board.
func testAnalysisPage(t *testing.T, ctx context.Context, base string, o Oracle) {
	answers, err := o.Analyze(context.Background(), AnalyzeQuery{Games: e2eGame, PlyTime: time.Minute})
	if err != nil || len(answers) != 1 {
		t.Fatalf("analyze: %d answers, %v", len(answers), err)
	}
	var want analysedGame
	decode(t, answers[0], &want)
	if len(want.Plies) != len(strings.Fields(e2eGame))-1 {
		t.Fatalf("the backend analysed %d plies of %s", len(want.Plies), e2eGame)
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/analyze"),
		chromedp.WaitVisible(chromedp.CSS("#games")),
		chromedp.SetValue(chromedp.CSS("#games"), e2eGame),
		chromedp.Click(chromedp.CSS("#run")))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "graph")
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#graph circle.point").length`))
	if err != nil || points != len(want.Plies) {
		t.Errorf("the graph has %d points (%v), want one a ply: %d", points, err, len(want.Plies))
	}
	// The page's own table gives each ply's class: the graph rings every
	// ply that is not "best" (the server's per-ply time may leave some
	// values estimates, so the classes are not compared with another run).
	shownMarks, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#graph circle.mark").length`))
	marks, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#plies tbody tr:not(.best)").length`))
	if shownMarks != marks || marks == 0 {
		t.Errorf("the graph rings %d plies, the table has %d plies that are not best", shownMarks, marks)
	}
	rows, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#plies tbody tr").length`))
	if rows != len(want.Plies) {
		t.Errorf("the table has %d rows, want %d", rows, len(want.Plies))
	}
	// The summary counts the plies the table shows proven and estimated.
	exact, _ := chromedp.Run(ctx, chromedp.Evaluate[int](
		`[...document.querySelectorAll("#plies tbody tr")].filter((r) => r.lastChild.textContent === "yes").length`))
	proven, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("proven").textContent`))
	estimates := map[bool]string{true: "estimate", false: "estimates"}[rows-exact == 1]
	if want := fmt.Sprintf("%d plies: %d proven, %d %s", rows, exact, rows-exact, estimates); !strings.HasPrefix(proven, want) {
		t.Errorf("the summary says %q, want it to start %q", proven, want)
	}
	const k = 6
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#graph circle.point[data-ply="%d"]`, k)))); err != nil {
		t.Fatal(err)
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("ply-board").dataset.position`))
	if got != want.Plies[k-1].Position {
		t.Errorf("clicking ply %d shows %s, want %s", k, got, want.Plies[k-1].Position)
	}
	// The table's result column: ply k's final score with best play, as
	// the backend has it (ply 1 starts the game: its value is exact).
	cell, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#plies tbody tr[data-ply='1'] td:nth-child(6)").textContent`))
	if r := want.Plies[0].Result.FinalScore; cell != fmt.Sprintf("%d-%d", r[0], r[1]) {
		t.Errorf("ply 1's result cell says %q, the backend %v", cell, r)
	}
	screenshot(t, ctx, "serve-analysis.png")
	// "Open this ply on the board": the board page at the position before
	// ply k.
	open, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("ply-open").href`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(open)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "board")
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").dataset.position`)); got != want.Plies[k-1].Position {
		t.Errorf("opening ply %d on the board shows %s, want %s", k, got, want.Plies[k-1].Position)
	}
}
