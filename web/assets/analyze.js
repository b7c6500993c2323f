// The analysis page: games in the analyze format go to /api/analyze; each
// answer is drawn as a value graph, a per-ply table and a per-player
// summary. Clicking a ply shows its board.
"use strict";

const $ = (id) => document.getElementById(id);
// running is the analysis under way ({abort, text}), resume one that
// leaving the page aborted.
const page = { variants: new Map(), games: [], game: null, ply: 0, running: null, resume: null };

const EXAMPLE = "awari:0,1,0,2,0,3/1,0,2,0,1,0:1:20-18 4 1 6 1 2 2 3 4 4 3 1 6 1 4";

async function init() {
  for (const v of await api("/api/variants")) page.variants.set(v.name, v);
  $("example").addEventListener("click", () => { $("games").value = EXAMPLE; });
  // Leaving the page aborts its analysis, which holds a server's search
  // slot: the browser's back/forward cache keeps a page it may show again
  // alive with its fetches in flight (TestBrowserLeave). Shown again from
  // that cache, the page runs the analysis again.
  window.addEventListener("pagehide", () => {
    if (!page.running) return;
    page.resume = page.running.text;
    page.running.abort.abort();
  });
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted || page.resume === null) return;
    const text = page.resume;
    page.resume = null;
    analyse(text);
  });
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    analyse($("games").value);
  });
  // The board page's "Analyse this game" link: ?game=START MOVES.
  const game = new URLSearchParams(location.search).get("game");
  if (game) {
    $("games").value = game;
    await analyse(game);
  }
}

async function analyse(text) {
  const abort = new AbortController();
  page.running = { abort, text };
  showError($("error"), null);
  $("busy").hidden = false;
  $("run").disabled = true;
  $("graph").setAttribute("data-state", "loading");
  try {
    const res = await api("/api/analyze", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text, signal: abort.signal });
    page.games = Array.isArray(res) ? res : [res];
    renderTabs();
    selectGame(0);
  } catch (err) {
    if (abort.signal.aborted) return; // the page was left; pageshow runs it again
    showError($("error"), err);
    $("graph").setAttribute("data-state", "error");
  } finally {
    if (page.running && page.running.abort === abort) page.running = null;
    $("busy").hidden = true;
    $("run").disabled = false;
  }
}

function renderTabs() {
  const tabs = $("game-tabs");
  tabs.replaceChildren();
  if (page.games.length < 2) return;
  page.games.forEach((g, i) => {
    const b = html("button", { type: "button", "data-game": i }, tabs, `Game ${i + 1}`);
    b.addEventListener("click", () => selectGame(i));
  });
}

function selectGame(i) {
  page.game = page.games[i];
  for (const b of $("game-tabs").querySelectorAll("button")) {
    b.classList.toggle("current", Number(b.getAttribute("data-game")) === i);
  }
  $("result").hidden = false;
  const g = page.game;
  const cut = g.complete === false ? " analysed before the server's time limit ran out" : "";
  $("game-title").textContent = `${page.games.length > 1 ? `Game ${i + 1}: ` : ""}${g.position}, ${count(g.plies.length, "ply", "plies")}${cut}`;
  renderGraph(g);
  renderSummary(g);
  renderPlies(g);
  selectPly(g.plies.length ? 1 : 0);
}

// whiteValue is a ply's value from player 1's side, so that one line
// shows the whole game.
function p1Value(ply) {
  return ply.player === 1 ? ply.value : -ply.value;
}

const GRAPH = { width: 860, height: 280, left: 46, right: 16, top: 16, bottom: 34 };

function renderGraph(g) {
  const svg = $("graph");
  svg.replaceChildren();
  const { width, height, left, right, top, bottom } = GRAPH;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const n = g.plies.length;
  const span = Math.max(4, ...g.plies.map((p) => Math.abs(p.value)));
  const x = (i) => left + (n <= 1 ? (width - left - right) / 2 : (i - 1) * (width - left - right) / (n - 1));
  const y = (v) => top + (span - v) * (height - top - bottom) / (2 * span);
  el("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, class: "plot" }, svg);
  for (const v of [span, span / 2, 0, -span / 2, -span]) {
    const yy = y(v);
    el("line", { x1: left, x2: width - right, y1: yy, y2: yy, class: v === 0 ? "zero" : "grid" }, svg);
    el("text", { x: left - 6, y: yy + 4, class: "tick y" }, svg, signed(Math.round(v)));
  }
  const step = Math.max(1, Math.ceil(n / 20));
  for (let i = 1; i <= n; i += step) {
    el("text", { x: x(i), y: height - bottom + 18, class: "tick x" }, svg, String(i));
  }
  el("text", { x: width - right, y: height - 4, class: "tick x end" }, svg, "ply");
  if (n > 1) {
    const points = g.plies.map((p, i) => `${x(i + 1)},${y(p1Value(p))}`).join(" ");
    el("polyline", { points: points, class: "value-line" }, svg);
  }
  g.plies.forEach((p, i) => {
    const cx = x(i + 1), cy = y(p1Value(p));
    if (p.class === "mistake" || p.class === "blunder" || p.class === "inaccuracy") {
      el("circle", { cx: cx, cy: cy, r: p.class === "blunder" ? 10 : 8, class: `mark ${p.class}` }, svg);
    }
    const c = el("circle", { cx: cx, cy: cy, r: 4.5, class: `point p${p.player}` + (p.exact ? "" : " estimate"),
      "data-ply": p.ply, tabindex: "0" }, svg);
    el("title", {}, c, `ply ${p.ply}: player ${p.player} plays ${playedText(p.move, p.captured, p.again)}; value ${signed(p.value)} ` +
      `for player ${p.player}, the move ${signed(p.move_value)} (${p.class})`);
    c.addEventListener("click", () => selectPly(p.ply));
  });
  el("line", { x1: 0, x2: 0, y1: top, y2: height - bottom, class: "cursor", id: "cursor", visibility: "hidden" }, svg);
  svg.setAttribute("data-plies", n);
  svg.setAttribute("data-state", "ready");
}

function renderSummary(g) {
  const t = $("summary");
  t.replaceChildren();
  const head = html("tr", {}, html("thead", {}, t));
  for (const h of ["player", "loss", "accuracy", "best", "inaccuracies", "mistakes", "blunders"]) html("th", {}, head, h);
  const body = html("tbody", {}, t);
  for (const p of g.players || []) {
    const tr = html("tr", { class: `p${p.player}` }, body);
    html("td", {}, tr, `player ${p.player}`);
    html("td", {}, tr, String(p.loss));
    html("td", {}, tr, `${Number(p.accuracy).toFixed(1)}%`);
    for (const k of ["best", "inaccuracy", "mistake", "blunder"]) html("td", {}, tr, String(p[k]));
  }
  const vary = g.estimated_plies > 0 ? " (estimates depend on the time each ply had)" : "";
  $("proven").textContent = `${count(g.plies.length, "ply", "plies")}: ${g.exact_plies} proven, ` +
    `${count(g.estimated_plies, "estimate", "estimates")}${vary}.`;
  const fin = $("final");
  fin.textContent = g.game_over
    ? `Game over (${g.end})${g.final_score ? `: ${g.final_score[0]}-${g.final_score[1]}` : ""}` +
      `${g.result ? `, ${winnerText(g.result.winner, g.result.margin)}` : ""}.`
    : "The game goes on after the last move.";
  if (g.known_result) fin.textContent += ` ${knownText(g.known_result)}`;
}

function renderPlies(g) {
  const t = $("plies");
  t.replaceChildren();
  const head = html("tr", {}, html("thead", {}, t));
  for (const h of ["ply", "player", "move", "captured", "value", "result", "move value", "loss", "class", "best moves", "exact"]) {
    html("th", {}, head, h);
  }
  const body = html("tbody", {}, t);
  for (const p of g.plies) {
    const tr = html("tr", { class: `p${p.player} ${p.class}`, "data-ply": p.ply, tabindex: "0" }, body);
    const cells = [p.ply, `player ${p.player}`, moveText(p.move) + (p.again ? " again" : ""), p.captured, signed(p.value),
      p.result ? `${p.result.final_score[0]}-${p.result.final_score[1]}` : "-", signed(p.move_value),
      p.loss, p.class, bestText(p), p.exact ? "yes" : "estimate"];
    for (const c of cells) html("td", {}, tr, String(c));
    tr.addEventListener("click", () => selectPly(p.ply));
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") selectPly(p.ply); });
  }
}

// bestText lists a ply's best moves; "?" at the end says that a proven
// ply's list may lack moves as good (the search proved the value, not
// every move).
function bestText(p) {
  const best = (p.best_moves || []).map(moveText);
  if (p.exact && !p.best_moves_complete) best.push("?");
  return best.join(", ");
}

// selectPly shows the board before ply k, the move played and the best
// moves.
function selectPly(k) {
  page.ply = k;
  const g = page.game;
  const p = g.plies[k - 1];
  for (const tr of $("plies").querySelectorAll("tbody tr")) {
    tr.classList.toggle("selected", Number(tr.getAttribute("data-ply")) === k);
  }
  for (const c of $("graph").querySelectorAll("circle.point")) {
    c.classList.toggle("selected", Number(c.getAttribute("data-ply")) === k);
  }
  const pos = parsePosition(p ? p.position : g.position);
  const variant = page.variants.get(pos.variant) || { clockwise: false, stores: false };
  const opts = { clockwise: variant.clockwise, stores: variant.stores, best: [] };
  if (p) {
    opts.played = p.move;
    opts.best = p.best_moves || [];
    opts.moves = new Map();
    opts.moves.set(p.move, { value: p.move_value, exact: p.exact });
    for (const b of opts.best) if (b !== p.move && b !== "pass") opts.moves.set(b, { value: p.value, exact: p.exact });
  }
  const board = $("ply-board");
  drawBoard(board, pos, opts);
  board.setAttribute("data-ply", k);
  board.setAttribute("data-position", p ? p.position : g.position);
  // The board page at this ply: the game's start and the moves before it.
  const moves = g.plies.slice(0, Math.max(k - 1, 0)).map((q) => moveText(q.move));
  const q = new URLSearchParams({ position: g.position });
  if (moves.length) q.set("moves", moves.join(","));
  $("ply-open").setAttribute("href", "/?" + q);
  const info = $("ply-info");
  info.textContent = p
    ? `Before ply ${p.ply}: player ${p.player} played ${playedText(p.move, p.captured, p.again)} (${signed(p.move_value)}); ` +
      `best ${bestText(p)} (${signed(p.value)}), loss ${p.loss}: ${p.class}. ${resultText(p.result)}`
    : "";
}

init().catch((err) => showError($("error"), err));
