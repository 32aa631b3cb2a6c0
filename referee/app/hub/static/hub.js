// Shared drawing for the hub's pages: a variant's regions from its layout, pieces from the
// public view. Nothing here knows a variant: the board sends its own layout.
"use strict";
const GLYPHS = {K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F"};

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// One SVG per plane; each cell a square at (x, y) (y up), its piece letter or glyph on it.
function drawRegions(layout, view, size) {
  const wrap = el("div", {class: "regions"});
  if (!layout) return wrap;
  const squares = (view && view.squares) || {};
  // Any list in the public view that names squares (tombstones, zombies...) marks them: the
  // page needs no variant's knowledge, the board says which squares are special.
  const names = new Set(layout.flatMap(r => r.cells.map(c => c[0])));
  const marks = new Map();
  for (const [key, value] of Object.entries(view || {})) {
    if (Array.isArray(value) && value.length && value.every(v => typeof v === "string" && names.has(v)))
      for (const square of value) marks.set(square, key);
  }
  const planes = new Map();
  for (const region of layout) {
    for (const [text, plane, x, y] of region.cells) {
      if (!planes.has(plane)) planes.set(plane, []);
      planes.get(plane).push({text, x, y, region: region.name});
    }
  }
  for (const [plane, cells] of planes) {
    const xs = cells.map(c => c.x), ys = cells.map(c => c.y);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const w = Math.max(...xs) - x0 + 1, h = Math.max(...ys) - y0 + 1;
    const svg = svgEl("svg", {viewBox: `0 0 ${w} ${h}`, width: w * size, height: h * size,
                              class: "plane", "data-plane": plane});
    for (const c of cells) {
      const cx = c.x - x0, cy = h - 1 - (c.y - y0);
      const dark = (c.x + c.y) % 2 === 0;
      svg.appendChild(svgEl("rect", {x: cx, y: cy, width: 1, height: 1,
                                     class: dark ? "dark" : "light", "data-square": c.text}));
      if (marks.has(c.text)) {
        svg.appendChild(svgEl("circle", {cx: cx + 0.82, cy: cy + 0.18, r: 0.13, class: "mark",
                                         "data-mark": marks.get(c.text)},));
        svg.lastChild.appendChild(svgEl("title", {}, `${marks.get(c.text)}: ${c.text}`));
      }
      const letter = squares[c.text];
      if (letter) {
        const glyph = GLYPHS[letter] || letter;
        svg.appendChild(svgEl("text", {x: cx + 0.5, y: cy + 0.78, "text-anchor": "middle",
          "font-size": 0.8, class: "piece " + (letter === letter.toUpperCase() ? "w" : "b"),
          "data-piece": c.text}, glyph));
      }
    }
    const box = el("figure", {class: "plane-box"});
    box.appendChild(svg);
    box.appendChild(el("figcaption", {}, plane));
    wrap.appendChild(box);
  }
  return wrap;
}

function clockText(clock, side) {
  if (!clock || clock[side] === undefined || clock[side] === null) return "";
  const s = Math.max(0, Math.round(clock[side]));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Runs an async page refresh one at a time. Without it, two refreshes started close together
// (a live update and the answer to a form) may finish out of order, and the page is left
// showing the older state with no update to come. A call while one runs asks for one more run.
function serially(load) {
  let running = null, again = false;
  return function run() {
    if (running) { again = true; return running; }
    running = (async () => {
      try { do { again = false; await load(); } while (again); }
      finally { running = null; }
    })();
    return running;
  };
}

function liveSocket(onMessage) {
  let delay = 500;
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${proto}//${location.host}/ws`);
    socket.onopen = () => { delay = 500; document.body.dataset.live = "yes"; };
    socket.onmessage = event => onMessage(JSON.parse(event.data));
    socket.onclose = () => {
      document.body.dataset.live = "no";
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  open();
}
