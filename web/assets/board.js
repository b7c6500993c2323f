// The board page: a game from a start position and the moves played, both
// carried in the URL (?position=POS&moves=3,5,1).
"use strict";

const state = {
  variants: new Map(), // name -> {name, pits, seeds, pit_seeds, clockwise, start, stores, rules}
  groups: new Map(),   // rule set -> its variants (variantGroups)
  start: "awari",      // the start position as given
  moves: [],           // moves played, as strings
  redo: [],            // moves undone, last undone last
  seq: 0,              // the newest load; older answers are dropped
  abort: null,         // cancels the requests of the previous load
  play: null,          // the last /api/play answer
  solve: null,         // the last /api/solve answer for play.position
  engine: 0,           // the player the engine plays, 0 none
  engineTime: "500ms", // its time a move
  strength: "",        // its strength level: "" (the time), "depth:N" or "nodes:N"
  hideValues: false,   // show no values (a fair game)
  cache: new Map(),    // lineKey(k) -> {position, solve}: each ply's position and answer
  editing: null,       // the position editor's {variant, rows, side}, null when closed
};

const engineTimes = ["200ms", "500ms", "1s", "2s", "5s"];

const $ = (id) => document.getElementById(id);

async function init() {
  const variants = await api("/api/variants");
  for (const v of variants) state.variants.set(v.name, v);
  state.groups = variantGroups(variants);
  for (const [rules, sizes] of state.groups) {
    html("option", { value: rules }, $("variant"), sizes.length > 1 ? `${rules} (${sizes.length} sizes)` : rules);
  }
  const params = new URLSearchParams(location.search);
  state.start = params.get("position") || "awari";
  state.moves = (params.get("moves") || "").split(/[ ,]+/).filter((m) => m !== "");
  state.engine = ["1", "2"].includes(params.get("engine")) ? Number(params.get("engine")) : 0;
  if (engineTimes.includes(params.get("time"))) state.engineTime = params.get("time");
  const strengths = [...$("engine-strength").options].map((o) => o.value);
  if (strengths.includes(params.get("strength"))) state.strength = params.get("strength");
  state.hideValues = params.get("hide") === "1";
  $("engine-side").value = String(state.engine);
  $("engine-time").value = state.engineTime;
  $("engine-strength").value = state.strength;
  $("hide-values").checked = state.hideValues;
  $("engine-strength").addEventListener("change", () => {
    state.strength = $("engine-strength").value;
    history.replaceState(null, "", boardURL());
  });
  $("hide-values").addEventListener("change", () => {
    state.hideValues = $("hide-values").checked;
    history.replaceState(null, "", boardURL());
    if (state.play) render();
  });
  $("edit").addEventListener("click", startEditing);
  $("edit-side").addEventListener("click", () => {
    state.editing.side = 3 - state.editing.side;
    renderEditor();
  });
  $("edit-clear").addEventListener("click", () => {
    state.editing.rows = state.editing.rows.map((r) => r.map(() => 0));
    renderEditor();
  });
  $("edit-start").addEventListener("click", () => {
    const v = state.variants.get(state.editing.variant);
    state.editing.rows = state.editing.rows.map((r) => r.map(() => v.pit_seeds));
    renderEditor();
  });
  $("edit-done").addEventListener("click", finishEditing);
  $("edit-cancel").addEventListener("click", () => {
    state.editing = null;
    $("editor").hidden = true;
    render();
  });
  document.addEventListener("keydown", navigateKey);
  // Leaving the page aborts its requests: the browser's back/forward
  // cache keeps a page it may show again alive with its fetches in
  // flight, so a search asked for would hold a server's search slot to
  // the server's time limit (TestBrowserLeave). Shown again from that
  // cache, the page loads its position anew.
  window.addEventListener("pagehide", () => {
    state.seq++; // the aborted requests' handlers draw nothing
    if (state.abort) state.abort.abort();
  });
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) load();
  });
  $("engine-side").addEventListener("change", () => {
    state.engine = Number($("engine-side").value);
    load();
  });
  $("engine-time").addEventListener("change", () => {
    state.engineTime = $("engine-time").value;
    history.replaceState(null, "", boardURL());
  });
  $("variant").addEventListener("change", () => newGame(pickVariant()));
  $("pits").addEventListener("change", () => newGame(pickVariant()));
  $("seeds").addEventListener("change", () => newGame(pickVariant()));
  $("new").addEventListener("click", () => newGame(pickVariant()));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("best").addEventListener("click", playBest);
  $("copy").addEventListener("click", copyPosition);
  $("paste").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("pos-input").value.trim();
    if (text !== "") newGame(text);
  });
  await load();
}

// pickVariant is the variant the pickers name: the rule set chosen, in
// the size chosen when it has that size, else its own default size (the
// variant named as the rule set) or its first.
function pickVariant() {
  const sizes = state.groups.get($("variant").value) || [];
  const pits = Number($("pits").value), seeds = Number($("seeds").value);
  const v = sizes.find((x) => x.pits === pits && x.pit_seeds === seeds) ||
    sizes.find((x) => x.name === $("variant").value) || sizes[0];
  return v ? v.name : $("variant").value;
}

// showPicker sets the pickers to variant v: its rule set, and when that
// has several sizes, the pits and seeds of each size it has.
function showPicker(v) {
  const sizes = state.groups.get(v.rules) || [v];
  $("variant").value = v.rules;
  $("size").hidden = sizes.length < 2;
  const fill = (id, values, chosen) => {
    const sel = $(id);
    sel.replaceChildren();
    for (const n of [...new Set(values)].sort((a, b) => a - b)) html("option", { value: n }, sel, String(n));
    sel.value = String(chosen);
  };
  fill("pits", sizes.map((x) => x.pits), v.pits);
  fill("seeds", sizes.filter((x) => x.pits === v.pits).map((x) => x.pit_seeds), v.pit_seeds);
}

function newGame(start) {
  state.start = start;
  state.moves = [];
  state.redo = [];
  load();
}

function playMove(pit) {
  state.moves.push(String(pit));
  state.redo = [];
  load({ undoOnError: true });
}

// undo takes back the last move; against the engine, when that move was
// the engine's, every move the engine made since the player's last (more
// than one after an extra move) and the player's move before them too, so
// that it is the player's turn again.
function undo() {
  if (state.moves.length === 0) return;
  const played = (state.play && state.play.moves || []).filter((m) => m.move !== "pass");
  let engineMoves = 0;
  while (state.engine !== 0 && engineMoves < played.length && played[played.length - 1 - engineMoves].player === state.engine) {
    engineMoves++;
  }
  const back = engineMoves > 0 && engineMoves < state.moves.length ? engineMoves + 1 : Math.max(engineMoves, 1);
  for (let i = 0; i < back && state.moves.length > 0; i++) state.redo.push(state.moves.pop());
  load();
}

function redo() {
  if (state.redo.length === 0) return;
  state.moves.push(state.redo.pop());
  load();
}

function playBest() {
  const s = state.solve;
  if (!s || !s.best_moves || s.best_moves.length === 0 || s.best_moves[0] === "pass") return;
  playMove(s.best_moves[0]);
}

async function copyPosition() {
  const out = $("pos-out");
  out.select();
  try {
    await navigator.clipboard.writeText(out.value);
    $("copy").textContent = "Copied";
  } catch (e) {
    document.execCommand("copy");
  }
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1200);
}

function boardURL() {
  const params = new URLSearchParams({ position: state.start });
  if (state.moves.length) params.set("moves", state.moves.join(","));
  if (state.engine !== 0) {
    params.set("engine", String(state.engine));
    params.set("time", state.engineTime);
    if (state.strength) params.set("strength", state.strength);
  }
  if (state.hideValues) params.set("hide", "1");
  return "/?" + params.toString().replaceAll("%2C", ",").replaceAll("%3A", ":").replaceAll("%2F", "/");
}

// load replays the moves from the start (/api/play), draws the position,
// then asks for every move's value (/api/solve?all=1) and draws them.
async function load(opts) {
  const seq = ++state.seq;
  // A new load cancels the previous one's requests, so that a search for a
  // position already left does not hold a search slot on the server.
  if (state.abort) state.abort.abort();
  const abort = new AbortController();
  state.abort = abort;
  const board = $("board");
  board.setAttribute("data-state", "loading");
  showError($("error"), null);
  let play;
  try {
    const q = new URLSearchParams({ position: state.start, moves: state.moves.join(",") });
    play = await api("/api/play?" + q, { signal: abort.signal });
  } catch (err) {
    if (seq !== state.seq) return;
    if (opts && opts.undoOnError) state.moves.pop();
    showError($("error"), err);
    // With no position drawn (a bad one in the URL) there is no game to
    // step through: Undo, Redo and Best stay off beside the empty board.
    if (!state.play) for (const id of ["undo", "redo", "best"]) $(id).disabled = true;
    board.setAttribute("data-state", "error");
    return;
  }
  if (seq !== state.seq) return;
  state.play = play;
  const here = lineKey(state.moves.length);
  const known = state.cache.get(here);
  state.solve = known && known.position === play.position ? known.solve : null;
  state.cache.set(here, { position: play.position, solve: state.solve });
  history.replaceState(null, "", boardURL());
  render();
  if (play.game_over) {
    board.setAttribute("data-state", "ready");
    annotate(seq, abort);
    return;
  }
  // The engine moves only at the end of the line, not while the player
  // steps back through it.
  if (state.engine === parsePosition(play.position).side && state.redo.length === 0) {
    await engineMove(seq, abort);
    return;
  }
  try {
    if (!state.solve) {
      const q = new URLSearchParams({ position: play.position, all: "1" });
      const solve = await api("/api/solve?" + q, { signal: abort.signal });
      if (seq !== state.seq) return;
      state.solve = solve;
      state.cache.set(here, { position: play.position, solve: solve });
    }
    render();
    board.setAttribute("data-state", "ready");
    annotate(seq, abort);
  } catch (err) {
    if (seq !== state.seq) return;
    showError($("error"), err);
    board.setAttribute("data-state", "error");
  }
}

// engineMove asks /api/move for the engine's move in the game so far,
// shows its answer, and plays the move. The board stays "loading" until it
// is the player's turn again.
async function engineMove(seq, abort) {
  $("evaluation").textContent = `the engine is thinking (${state.engineTime})\u2026`;
  let answer;
  try {
    const q = new URLSearchParams({ position: state.start, moves: state.moves.join(","), time: state.engineTime });
    if (state.strength) q.set(...state.strength.split(":"));
    answer = await api("/api/move?" + q, { signal: abort.signal });
  } catch (err) {
    if (seq !== state.seq) return;
    showError($("error"), err);
    $("board").setAttribute("data-state", "error");
    return;
  }
  if (seq !== state.seq) return;
  const b = $("board");
  b.setAttribute("data-engine-depth", String(answer.depth));
  b.setAttribute("data-engine-nodes", String(answer.nodes));
  b.setAttribute("data-engine-stopped", answer.stopped);
  state.moves.push(String(answer.move));
  state.redo = [];
  load();
}

function render() {
  if (state.editing) {
    renderEditor();
    return;
  }
  const play = state.play;
  const pos = parsePosition(play.position);
  const variant = state.variants.get(pos.variant) || { clockwise: false, stores: false };
  if (state.variants.has(pos.variant)) showPicker(variant);
  // Nothing is playable while the engine is to move.
  const onPlay = state.engine === pos.side ? null : playMove;
  const opts = { clockwise: variant.clockwise, stores: variant.stores, over: play.game_over, onPlay, hideValues: state.hideValues };
  const s = state.solve;
  if (s) {
    opts.moves = new Map();
    for (const m of s.moves || []) if (m.move !== "pass") opts.moves.set(m.move, m);
    opts.best = s.best_moves || [];
    opts.depth = s.depth;
  }
  const board = $("board");
  drawBoard(board, pos, opts);
  board.setAttribute("data-position", play.position);
  renderStatus(play, pos, variant);
  renderNote(play, pos);
  renderEvaluation(s, pos);
  $("pos-out").value = play.position;
  $("link").setAttribute("href", boardURL());
  $("analyze-link").setAttribute("href", "/analyze?" + new URLSearchParams({ game: gameRecord() }));
  renderMoves(play);
  renderEvalBar(s, play);
  renderMoveList();
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("best").disabled = !s || play.game_over || state.engine === pos.side || state.hideValues;
}

// gameRecord is the game so far as analyze reads it: the start position,
// then the moves.
function gameRecord() {
  return [state.start].concat(state.moves).join(" ");
}

function renderStatus(play, pos, variant) {
  const status = $("status");
  status.replaceChildren();
  if (play.game_over) {
    const r = play.result;
    const score = play.final_score ? ` Final score ${play.final_score[0]}-${play.final_score[1]}${r ? `: ${winnerText(r.winner, r.margin)}` : ""}.` : "";
    status.textContent = `Game over (${play.end}).${score}`;
    return;
  }
  html("span", { class: `turn p${pos.side}` }, status, `Player ${pos.side} to move`);
  const seeds = pos.rows[0].concat(pos.rows[1]).reduce((a, b) => a + b, 0);
  status.append(`, ${count(seeds, "seed", "seeds")} on the board`);
  const held = variant.stores ? "in the stores" : "captured";
  if (pos.captures) status.append(`; ${held}: player 1 ${pos.captures[0]}, player 2 ${pos.captures[1]}`);
  status.append(".");
}

// renderNote says when the player to move moves again: the line's last
// ply is a forced pass (notation.md: play lists each one as a move of its
// own), or a move after which its player moves again (kalah's extra
// move: play marks it "again").
function renderNote(play, pos) {
  const note = $("note");
  const last = play.moves && play.moves.length ? play.moves[play.moves.length - 1] : null;
  let text = "";
  if (last && last.move === "pass") {
    text = `Player ${last.player} has no legal move and passes; player ${pos.side} moves again.`;
  } else if (last && last.again) {
    text = `Player ${last.player}'s move ${moveText(last.move)} ended in the store: an extra move, player ${pos.side} moves again.`;
  }
  note.hidden = text === "" || play.game_over;
  note.textContent = text;
}

function renderEvaluation(s, pos) {
  const ev = $("evaluation");
  ev.replaceChildren();
  if (state.play.game_over) return;
  if (state.hideValues) {
    ev.textContent = "Values hidden.";
    return;
  }
  if (!s) {
    ev.textContent = "searching\u2026";
    return;
  }
  const how = s.exact ? "exact" : `estimate at depth ${s.depth}`;
  html("strong", {}, ev, `Value ${signed(s.value)} for player ${pos.side}`);
  ev.append(` (${how}). Best: ${(s.best_moves || []).map(moveText).join(", ") || "-"}.`);
  if (s.result) html("span", { class: "result" }, ev, ` ${resultText(s.result)}`);
  if (s.known_result) html("span", { class: "known" }, ev, ` ${knownText(s.known_result)}`);
  // The tablebase's distance: plies to the capture or game end that
  // realises the value (none for a value of 0).
  if (s.distance !== undefined && s.value !== 0) {
    html("span", { class: "distance" }, ev, ` Distance: ${count(s.distance, "ply", "plies")} to the capture or game end that realises it.`);
  }
  if (s.pv && s.pv.length) {
    const shown = s.pv.slice(0, 16).map(moveText).join(" ");
    ev.append(` Line: ${shown}${s.pv.length > 16 ? ` \u2026 (${s.pv.length} plies)` : ""}.`);
  }
  const stats = [];
  if (s.source === "tablebase") {
    stats.push(`from the tablebase (${s.tablebase_in_memory ? "built in memory, " : ""}up to ${count(s.tablebase_seeds, "seed", "seeds")})`);
  } else {
    if (s.depth !== undefined) stats.push(`depth ${s.depth}`);
    if (s.nodes !== undefined) stats.push(`${s.nodes.toLocaleString("en")} ${s.nodes === 1 ? "node" : "nodes"}`);
    if (s.tablebase) stats.push(`tablebase up to ${count(s.tablebase_seeds, "seed", "seeds")}`);
  }
  if (s.seconds !== undefined) stats.push(s.seconds < 1 ? `${(1000 * s.seconds).toFixed(1)} ms` : `${s.seconds.toFixed(2)} s`);
  if (stats.length) html("span", { class: "stats" }, ev, ` ${stats.join(", ")}`);
}

function renderMoves(play) {
  const out = $("moves");
  out.replaceChildren();
  if (!play.moves || play.moves.length === 0) {
    out.textContent = "none";
    return;
  }
  play.moves.forEach((m, i) => {
    const who = m.player ? `P${m.player} ` : "";
    html("span", { class: m.player ? `move p${m.player}` : "move" }, out, `${i + 1}. ${who}${playedText(m.move, m.captured, m.again)}`);
  });
}

// lineKey names the position after the first k moves of the line (the
// moves played, then those undone): the key of state.cache.
function lineKey(k) {
  return state.start + "|" + fullLine().slice(0, k).join(",");
}

// fullLine is the game's whole line: the moves played, then the moves
// undone that redo would play again.
function fullLine() {
  return state.moves.concat(state.redo.slice().reverse());
}

// goTo shows the position after the first k moves of the line, keeping
// the rest to step forward through.
function goTo(k) {
  const line = fullLine();
  k = Math.max(0, Math.min(k, line.length));
  if (k === state.moves.length) return;
  state.moves = line.slice(0, k);
  state.redo = line.slice(k).reverse();
  load();
}

// navigateKey steps through the line with the arrow keys (a ply back or
// forward), Home (the start) and End (the last move).
function navigateKey(e) {
  const tag = (e.target && e.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag) || state.editing || e.altKey || e.ctrlKey || e.metaKey) return;
  const k = state.moves.length;
  const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: fullLine().length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
}

// renderEvalBar draws player 1's share of the final score with best play
// (the answer's "result"), or of the final score once the game is over.
function renderEvalBar(s, play) {
  const bar = $("evalbar");
  const r = play.game_over ? play.result : s && s.result;
  bar.hidden = state.hideValues;
  if (!r) {
    bar.setAttribute("data-margin", "");
    $("evalbar-label").textContent = play.game_over ? "" : "\u2026";
    return;
  }
  const [a, b] = r.final_score;
  const share = a + b > 0 ? a / (a + b) : 0.5;
  bar.setAttribute("data-margin", String(a - b));
  $("evalbar-fill").style.width = `${(100 * share).toFixed(1)}%`;
  const est = r.exact ? "" : "~";
  $("evalbar-label").textContent = `${est}${a}-${b}: ${r.winner ? `player ${r.winner} by ${r.margin}` : "a draw"}`;
}

// The marks of a move's class, as chess annotators write them.
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// renderMoveList lists the line's moves, each with its value and its
// mark (the class of the answer for the position it was played from),
// the current ply highlighted; clicking one goes to the position after it.
function renderMoveList() {
  const out = $("movelist");
  out.replaceChildren();
  const line = fullLine();
  const start = html("li", { class: "start" + (state.moves.length === 0 ? " current" : ""), "data-ply": "0" }, out, "start");
  start.addEventListener("click", () => goTo(0));
  line.forEach((move, i) => {
    const before = state.cache.get(lineKey(i));
    const player = before ? parsePosition(before.position).side : 0;
    const info = before && before.solve && (before.solve.moves || []).find((m) => String(m.move) === move);
    const cls = [player ? `p${player}` : ""];
    if (i + 1 === state.moves.length) cls.push("current");
    if (i + 1 > state.moves.length) cls.push("ahead");
    const attrs = { "data-ply": String(i + 1) };
    if (info && !state.hideValues) {
      cls.push(info.class || "");
      attrs["data-value"] = String(info.value);
      attrs["data-class"] = info.class || "";
    }
    attrs.class = cls.join(" ").trim();
    const li = html("li", attrs, out);
    html("span", { class: "mv" }, li, `${i + 1}. ${player ? `P${player} ` : ""}${moveText(move)}`);
    if (info && !state.hideValues) {
      html("span", { class: "mark" }, li, MARKS[info.class] || "");
      html("span", { class: "mval" }, li, (info.exact ? "" : "~") + signed(info.value));
    }
    li.addEventListener("click", () => goTo(i + 1));
  });
}

// annotate fills in, one at a time, the position and the answer of every
// ply of the line the page has not seen (moves from a link, the engine's
// and those after them), so that the move list can value and mark each
// move. #movelist's data-state is "ready" when it is done.
async function annotate(seq, abort) {
  const list = $("movelist");
  list.setAttribute("data-state", "filling");
  const line = fullLine();
  try {
    for (let i = 0; i < line.length; i++) {
      const key = lineKey(i);
      let entry = state.cache.get(key);
      if (!entry) {
        const q = new URLSearchParams({ position: state.start, moves: line.slice(0, i).join(",") });
        const play = await api("/api/play?" + q, { signal: abort.signal });
        if (seq !== state.seq) return;
        entry = { position: play.position, solve: null };
        state.cache.set(key, entry);
      }
      if (!entry.solve || !entry.solve.moves) {
        const q = new URLSearchParams({ position: entry.position, all: "1", time: "300ms" });
        entry.solve = await api("/api/solve?" + q, { signal: abort.signal });
        if (seq !== state.seq) return;
      }
      renderMoveList();
    }
  } catch (err) {
    if (seq !== state.seq) return;
    showError($("error"), err);
  }
  if (seq === state.seq) list.setAttribute("data-state", "ready");
}

// startEditing opens the position editor on the position shown.
function startEditing() {
  const pos = parsePosition(state.play ? state.play.position : state.start);
  state.editing = { variant: pos.variant, rows: pos.rows.map((r) => r.slice()), side: pos.side };
  $("editor").hidden = false;
  renderEditor();
}

// renderEditor draws the board being edited: every pit takes clicks.
function renderEditor() {
  const e = state.editing;
  const variant = state.variants.get(e.variant) || { clockwise: false, stores: false, seeds: 48 };
  const board = $("board");
  drawBoard(board, { variant: e.variant, rows: e.rows, side: e.side, captures: null },
    { clockwise: variant.clockwise, stores: variant.stores, onEdit: editPit });
  board.setAttribute("data-editing", editedPosition());
  $("edit-side").textContent = `Player ${e.side} to move`;
  const seeds = e.rows[0].concat(e.rows[1]).reduce((a, b) => a + b, 0);
  $("edit-count").textContent = `${seeds} of at most ${variant.seeds} seeds`;
}

// editPit adds delta seeds to a pit, within 0 and the variant's seeds.
function editPit(player, pit, delta) {
  const e = state.editing;
  const variant = state.variants.get(e.variant);
  const seeds = e.rows[0].concat(e.rows[1]).reduce((a, b) => a + b, 0);
  const row = e.rows[player - 1];
  if (delta > 0 && variant && seeds >= variant.seeds) return;
  row[pit - 1] = Math.max(0, row[pit - 1] + delta);
  renderEditor();
}

// editedPosition is the editor's position string; the captures are left
// out (unknown), as a board set up by hand does not say who took them.
function editedPosition() {
  const e = state.editing;
  return `${e.variant}:${e.rows[0].join(",")}/${e.rows[1].join(",")}:${e.side}`;
}

// finishEditing starts a game at the edited position; the server checks it.
function finishEditing() {
  const pos = editedPosition();
  state.editing = null;
  $("editor").hidden = true;
  $("board").removeAttribute("data-editing");
  newGame(pos);
}

init().catch((err) => showError($("error"), err));
