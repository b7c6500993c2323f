// Shared by the board and analysis pages: API calls, position strings and
// the SVG board.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// api fetches a JSON answer; a non-2xx answer throws its "error" message.
async function api(path, init) {
  const resp = await fetch(path, init);
  const text = await resp.text();
  let data = null;
  try {
    data = text.trim().split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  } catch (e) {
    throw new Error(`${resp.status} ${resp.statusText}: ${text.slice(0, 200)}`);
  }
  if (!resp.ok) {
    const msg = data.length && data[0].error ? data[0].error : resp.statusText;
    throw new Error(msg);
  }
  return data.length === 1 ? data[0] : data;
}

// parsePosition reads a normalised position string
// (variant:ROW1/ROW2:SIDE[:CAP1-CAP2]) into rows of seed counts.
function parsePosition(str) {
  const parts = str.split(":");
  const rows = parts[1].split("/").map((r) => r.split(",").map(Number));
  const caps = parts.length > 3 ? parts[3].split("-").map(Number) : null;
  return { variant: parts[0], rows: rows, side: Number(parts[2] || 1), captures: caps };
}

// moveText writes a move as notation.md does.
function moveText(m) {
  return m === "pass" ? "pass" : String(m);
}

// playedText writes a played move as show lists moves, "3(x9)" for a
// move that captures 9, and says when its player moves again.
function playedText(move, captured, again) {
  return moveText(move) + (captured ? `(x${captured})` : "") + (again ? " again" : "");
}

// count writes n and a noun, singular for 1: count(1, "ply", "plies").
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// winnerText is "player 2 wins by 4" or "a draw".
function winnerText(winner, margin) {
  return winner ? `player ${winner} wins by ${count(margin, "seed", "seeds")}` : "a draw";
}

// resultText tells a value as the game's end: the "result" object of the
// API's answers (notation.md "Results"), in one sentence.
function resultText(r) {
  if (!r) return "";
  const est = r.exact ? "" : " (from the estimate)";
  let t = r.captures_known
    ? `Final score ${r.final_score[0]}-${r.final_score[1]} with best play${est}: ${winnerText(r.winner, r.margin)}.`
    : `The board's seeds go ${r.final_score[0]}-${r.final_score[1]} with best play${est}` +
      ` (the captures before are unknown): ${r.winner ? `player ${r.winner} takes ${r.margin} more` : "an even split"}.`;
  if (r.nobody) t += ` ${count(r.nobody, "seed counts", "seeds count")} for nobody (repetition).`;
  if (r.end && r.plies) t += ` The line ends the game at ply ${r.plies} (${r.end}).`;
  if (r.stop_ply === 0) {
    t += ` The captures already reach the 25-seed stop: a game played out ends here at ${r.stop_score[0]}-${r.stop_score[1]}.`;
  } else if (r.stop_ply) {
    t += ` The 25-seed stop ends it at ply ${r.stop_ply}, at ${r.stop_score[0]}-${r.stop_score[1]}.`;
  }
  return t;
}

// knownText names a start position's known result ("known_result").
function knownText(k) {
  if (!k) return "";
  return `Known result: ${k.game} from the start is ${signed(k.value)} for player 1, ` +
    `${k.final_score[0]}-${k.final_score[1]}: ${winnerText(k.winner, k.margin)} (${k.source}).`;
}

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

function el(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// drawOrder gives the 0-based pits of player 2's row (top) and player 1's
// row (bottom) from left to right, as position.Diagram draws them: with
// counter-clockwise sowing player 1's pit 1 is bottom left and player 2's
// pit 1 top right; with clockwise sowing both are on the other side.
function drawOrder(pits, clockwise) {
  const top = [], bottom = [];
  for (let i = 0; i < pits; i++) {
    top.push(clockwise ? i : pits - 1 - i);
    bottom.push(clockwise ? pits - 1 - i : i);
  }
  return { top, bottom };
}

const GEOM = { pitGap: 84, radius: 33, store: 92, pad: 14, height: 312 };

// variantGroups groups /api/variants' answer by rule set ("rules"), in
// the order given: a map from rule set to its variants, smallest board
// first.
function variantGroups(variants) {
  const groups = new Map();
  for (const v of variants) {
    if (!groups.has(v.rules)) groups.set(v.rules, []);
    groups.get(v.rules).push(v);
  }
  for (const g of groups.values()) g.sort((a, b) => a.pits - b.pits || a.pit_seeds - b.pit_seeds);
  return groups;
}

// drawBoard draws pos (from parsePosition) into svg. opts:
//   clockwise  sowing direction of the variant
//   stores     the variant has stores that the sowing passes through
//              (kalah): the captures are drawn as the seeds in them
//   moves      map from pit number to {value, exact, captured} for the mover
//   best       array of the best moves
//   depth      search depth of estimates
//   played     the pit played from this position (analysis), or null
//   onPlay     called with a pit number when a playable pit is clicked
//   over       the game is over: nothing is playable
//   hideValues draw no values and mark no best moves (a fair game)
//   onEdit     the position editor: every pit takes clicks, called with
//              (player, pit, +1) for a click, -1 for a shift- or right-click
function drawBoard(svg, pos, opts) {
  opts = opts || {};
  const pits = pos.rows[0].length;
  const order = drawOrder(pits, !!opts.clockwise);
  const width = 2 * GEOM.store + pits * GEOM.pitGap + 2 * GEOM.pad;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${GEOM.height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", GEOM.height);
  el("rect", { x: 2, y: 40, width: width - 4, height: 232, rx: 40, class: "wood" }, svg);
  const caps = pos.captures;
  const stores = !!opts.stores;
  drawStore(svg, GEOM.pad + 6, 2, caps ? caps[1] : null, pos.side === 2, stores);
  drawStore(svg, width - GEOM.pad - GEOM.store + 6, 1, caps ? caps[0] : null, pos.side === 1, stores);
  const x0 = GEOM.pad + GEOM.store + GEOM.pitGap / 2;
  const rowsY = { 2: 112, 1: 200 };
  for (const player of [2, 1]) {
    const drawn = player === 2 ? order.top : order.bottom;
    drawn.forEach((i, col) => {
      drawPit(svg, pos, opts, player, i + 1, x0 + col * GEOM.pitGap, rowsY[player]);
    });
  }
}

// drawStore draws a player's captured seeds: a store of the board, which
// the player's sowing passes through, when the variant has them (stores),
// else a tray beside the board.
function drawStore(svg, x, player, seeds, toMove, stores) {
  const cls = `store p${player}` + (stores ? " kalah" : " tray") + (toMove ? " to-move" : "");
  const g = el("g", { class: cls, "data-player": player, "data-seeds": seeds === null ? "" : seeds }, svg);
  el("rect", { x: x, y: 70, width: GEOM.store - 12, height: 172, rx: stores ? 38 : 30, class: "store-well" }, g);
  el("text", { x: x + (GEOM.store - 12) / 2, y: 98, class: "store-label" }, g, `player ${player}`);
  el("text", { x: x + (GEOM.store - 12) / 2, y: 170, class: "store-count" }, g, seeds === null ? "?" : String(seeds));
  el("text", { x: x + (GEOM.store - 12) / 2, y: 226, class: "store-label" }, g, stores ? "store" : "captured");
}

function drawPit(svg, pos, opts, player, pit, cx, cy) {
  const seeds = pos.rows[player - 1][pit - 1];
  const mover = player === pos.side;
  const info = mover && opts.moves ? opts.moves.get(pit) : undefined;
  const playable = mover && !opts.over && opts.onPlay && (info !== undefined || (!opts.moves && seeds > 0));
  const best = info !== undefined && !opts.hideValues && (opts.best || []).includes(pit);
  const cls = ["pit", `p${player}`];
  if (mover) cls.push("mover");
  if (playable) cls.push("playable");
  if (best) cls.push("best");
  if (opts.played === pit && mover) cls.push("played");
  if (opts.onEdit) cls.push("editable");
  const g = el("g", { class: cls.join(" "), "data-player": player, "data-pit": pit, "data-seeds": seeds }, svg);
  // The pit's whole column, from its value to the pit, takes the click.
  const hitTop = player === 2 ? 0 : cy - GEOM.radius - 4;
  const hitBottom = player === 2 ? cy + GEOM.radius + 4 : GEOM.height;
  el("rect", { x: cx - GEOM.pitGap / 2 + 2, y: hitTop, width: GEOM.pitGap - 4, height: hitBottom - hitTop, class: "hit" }, g);
  el("circle", { cx: cx, cy: cy, r: GEOM.radius, class: "well" }, g);
  el("text", { x: cx, y: cy + 9, class: "count" }, g, String(seeds));
  const numberY = player === 2 ? cy - GEOM.radius - 9 : cy + GEOM.radius + 20;
  el("text", { x: cx, y: numberY, class: "number" }, g, String(pit));
  if (info !== undefined && info.value !== undefined && !opts.hideValues) {
    g.setAttribute("data-value", info.value);
    g.setAttribute("data-exact", info.exact ? "true" : "false");
    const valueY = player === 2 ? 21 : GEOM.height - 7;
    const label = (info.exact ? "" : "~") + signed(info.value);
    const t = el("text", { x: cx, y: valueY, class: "value" + (info.exact ? "" : " estimate") }, g, label);
    const how = info.exact ? "exact" : `estimate, depth ${opts.depth}`;
    el("title", {}, t, `move ${pit}: ${signed(info.value)} (${how})` +
      (info.captured ? `, captures ${info.captured}` : ""));
    // What the move captures (in kalah, banks), written as show writes it.
    if (info.captured) {
      g.setAttribute("data-captured", info.captured);
      el("text", { x: cx, y: player === 2 ? 36 : GEOM.height - 25, class: "captures" }, g, `(x${info.captured})`);
    }
  }
  if (opts.onEdit) {
    g.addEventListener("click", (e) => opts.onEdit(player, pit, e.shiftKey ? -1 : 1));
    g.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      opts.onEdit(player, pit, -1);
    });
  } else if (playable) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `play pit ${pit}`);
    g.addEventListener("click", () => opts.onPlay(pit));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") opts.onPlay(pit);
    });
  }
}

function showError(node, err) {
  if (!err) {
    node.hidden = true;
    node.textContent = "";
    return;
  }
  node.hidden = false;
  node.textContent = String(err.message || err);
}
