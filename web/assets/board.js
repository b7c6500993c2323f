// The board page: a game from a start position and the moves played, both
// carried in the URL (?position=POS&moves=3,5,1).
"use strict";

const state = {
  variants: new Map(), // name -> {name, pits, seeds, clockwise, start}
  start: "awari",      // the start position as given
  moves: [],           // moves played, as strings
  redo: [],            // moves undone, last undone last
  seq: 0,              // the newest load; older answers are dropped
  abort: null,         // cancels the requests of the previous load
  play: null,          // the last /api/play answer
  solve: null,         // the last /api/solve answer for play.position
};

const $ = (id) => document.getElementById(id);

async function init() {
  const variants = await api("/api/variants");
  for (const v of variants) {
    state.variants.set(v.name, v);
    html("option", { value: v.name }, $("variant"), v.name);
  }
  const params = new URLSearchParams(location.search);
  state.start = params.get("position") || "awari";
  state.moves = (params.get("moves") || "").split(/[ ,]+/).filter((m) => m !== "");
  $("variant").addEventListener("change", () => newGame($("variant").value));
  $("new").addEventListener("click", () => newGame($("variant").value));
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

function undo() {
  if (state.moves.length === 0) return;
  state.redo.push(state.moves.pop());
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
    board.setAttribute("data-state", "error");
    return;
  }
  if (seq !== state.seq) return;
  state.play = play;
  state.solve = null;
  history.replaceState(null, "", boardURL());
  render();
  if (play.game_over) {
    board.setAttribute("data-state", "ready");
    return;
  }
  try {
    const q = new URLSearchParams({ position: play.position, all: "1" });
    const solve = await api("/api/solve?" + q, { signal: abort.signal });
    if (seq !== state.seq) return;
    state.solve = solve;
    render();
    board.setAttribute("data-state", "ready");
  } catch (err) {
    if (seq !== state.seq) return;
    showError($("error"), err);
    board.setAttribute("data-state", "error");
  }
}

function render() {
  const play = state.play;
  const pos = parsePosition(play.position);
  const variant = state.variants.get(pos.variant) || { clockwise: false };
  if ($("variant").value !== pos.variant) $("variant").value = pos.variant;
  const opts = { clockwise: variant.clockwise, over: play.game_over, onPlay: playMove };
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
  renderStatus(play, pos);
  renderNote(play, pos);
  renderEvaluation(s, pos);
  $("pos-out").value = play.position;
  $("link").setAttribute("href", boardURL());
  renderMoves(play);
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("best").disabled = !s || play.game_over;
}

function renderStatus(play, pos) {
  const status = $("status");
  status.replaceChildren();
  if (play.game_over) {
    const score = play.final_score ? ` Final score ${play.final_score[0]}-${play.final_score[1]}.` : "";
    status.textContent = `Game over (${play.end}).${score}`;
    return;
  }
  html("span", { class: `turn p${pos.side}` }, status, `Player ${pos.side} to move`);
  const seeds = pos.rows[0].concat(pos.rows[1]).reduce((a, b) => a + b, 0);
  status.append(`, ${seeds} seeds on the board`);
  if (pos.captures) status.append(`; captured: player 1 ${pos.captures[0]}, player 2 ${pos.captures[1]}`);
  status.append(".");
}

// renderNote says when a player had to pass: the line's last ply is a
// forced pass (notation.md: play lists each one as a move of its own).
function renderNote(play, pos) {
  const note = $("note");
  const last = play.moves && play.moves.length ? play.moves[play.moves.length - 1] : null;
  const passer = last && last.move === "pass" ? last.player : 0;
  note.hidden = passer === 0 || play.game_over;
  note.textContent = passer ? `Player ${passer} has no legal move and passes; player ${pos.side} moves again.` : "";
}

function renderEvaluation(s, pos) {
  const ev = $("evaluation");
  ev.replaceChildren();
  if (state.play.game_over) return;
  if (!s) {
    ev.textContent = "searching\u2026";
    return;
  }
  const how = s.exact ? "exact" : `estimate at depth ${s.depth}`;
  html("strong", {}, ev, `Value ${signed(s.value)} for player ${pos.side}`);
  ev.append(` (${how}). Best: ${(s.best_moves || []).map(moveText).join(", ") || "-"}.`);
  if (s.pv && s.pv.length) {
    const shown = s.pv.slice(0, 16).map(moveText).join(" ");
    ev.append(` Line: ${shown}${s.pv.length > 16 ? ` \u2026 (${s.pv.length} plies)` : ""}.`);
  }
  const stats = [];
  if (s.source === "tablebase") {
    stats.push(`from the tablebase (${s.tablebase_in_memory ? "built in memory, " : ""}up to ${s.tablebase_seeds} seeds)`);
  } else {
    if (s.depth !== undefined) stats.push(`depth ${s.depth}`);
    if (s.nodes !== undefined) stats.push(`${s.nodes.toLocaleString("en")} nodes`);
    if (s.tablebase) stats.push(`tablebase up to ${s.tablebase_seeds} seeds`);
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
    const cap = m.captured ? ` \u00d7${m.captured}` : "";
    html("span", { class: m.player ? `move p${m.player}` : "move" }, out, `${i + 1}. ${who}${moveText(m.move)}${cap}`);
  });
}

init().catch((err) => showError($("error"), err));
