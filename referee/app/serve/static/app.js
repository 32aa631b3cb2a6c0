// Gravekeeper pages: one script for the spectator, player and arbiter pages.
// The server sends full snapshots for this page's audience only; this script just draws them.
// No framework, no build step, no network access beyond this server.
"use strict";

const parts = location.pathname.split("/").filter(Boolean);
const TOKEN = parts.length === 2 ? parts[1] : "";
const KIND = (parts[0] || "").toLowerCase() === "p" ? "player" : parts[0] === "a" ? "arbiter" : "spectator";
const GLYPH = {K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F"};
const MARK = {tombstones: "\u271D", zombies: "Z", promoted: "\u2191", captured_this_life: "\u00D7",
              unmoved_zombies: "z", waiting_promotion: "?", my_burials: "\u26B0"};
const $ = (id) => document.getElementById(id);
let ws = null, role = "spectator", layout = null, cells = {}, last = null, clockAt = 0;
let backoff = 500, nextId = 1;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws${TOKEN ? "?token=" + encodeURIComponent(TOKEN) : ""}`);
  ws.onopen = () => { backoff = 500; setConn(true); };
  ws.onclose = () => { setConn(false); setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 3000); };
  ws.onerror = () => ws.close();
  ws.onmessage = (msg) => {
    let data;
    try { data = JSON.parse(msg.data); } catch (e) { return; }
    if (data.type === "hello") hello(data);
    else if (data.type === "state") draw(data);
    else if (data.type === "reply") reply(data);
    else if (data.type === "error") $("reply").textContent = data.error;
  };
}

function setConn(up) {
  const c = $("conn");
  c.textContent = up ? "live" : "reconnecting…";
  c.className = "badge " + (up ? "conn-up" : "conn-down");
  document.body.dataset.live = up ? "1" : "0";
}

function send(body) {
  if (!ws || ws.readyState !== 1) { $("reply").textContent = "not connected"; return; }
  body.id = nextId++;
  ws.send(JSON.stringify(body));
}

function reply(data) {
  $("reply").textContent = data.ok ? "" : (data.error || "refused");
}

// ---------------------------------------------------------------- layout

function bbox(list) {
  const xs = list.map((c) => c[2]), ys = list.map((c) => c[3]);
  return {x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys)};
}

function hello(data) {
  role = data.role;
  $("title").textContent = data.title;
  document.title = `${data.title} – Gravekeeper`;
  $("role").textContent = role;
  document.body.dataset.role = role;
  $("player").hidden = !(role === "white" || role === "black");
  $("arbiter").hidden = role !== "arbiter";
  if (layout && JSON.stringify(layout) === JSON.stringify(data.layout)) return;
  layout = data.layout;
  buildBoards();
}

function buildBoards() {
  const root = $("boards");
  root.textContent = "";
  cells = {};
  // Each region drawn as a grid per plane; a region that fits exactly into the empty middle
  // of another (the board inside the ghost ring) is drawn inside it.
  const groups = [];
  for (const region of layout) {
    const planes = {};
    for (const c of region.cells) (planes[c[1]] = planes[c[1]] || []).push(c);
    for (const [plane, list] of Object.entries(planes)) {
      groups.push({name: region.name, implicit: region.implicit, plane, list, box: bbox(list)});
    }
  }
  const nested = new Set();
  for (const outer of groups) {
    const w = outer.box.x1 - outer.box.x0 + 1, h = outer.box.y1 - outer.box.y0 + 1;
    const taken = new Set(outer.list.map((c) => `${c[2]},${c[3]}`));
    for (const inner of groups) {
      if (inner === outer || nested.has(inner)) continue;
      const iw = inner.box.x1 - inner.box.x0 + 1, ih = inner.box.y1 - inner.box.y0 + 1;
      if (iw !== w - 2 || ih !== h - 2 || inner.list.length !== iw * ih) continue;
      let empty = true;
      for (let x = outer.box.x0 + 1; x < outer.box.x1 && empty; x++)
        for (let y = outer.box.y0 + 1; y < outer.box.y1; y++) if (taken.has(`${x},${y}`)) { empty = false; break; }
      if (empty) { outer.inner = inner; nested.add(inner); break; }
    }
  }
  for (const group of groups) {
    if (nested.has(group)) continue;
    const fig = document.createElement("figure");
    fig.className = "region";
    fig.dataset.region = group.name;
    const cap = document.createElement("figcaption");
    cap.textContent = group.inner ? `${group.inner.name} + ${group.name}` : group.name;
    fig.append(cap, grid(group));
    root.append(fig);
  }
}

function grid(group) {
  const {x0, x1, y0, y1} = group.box;
  const el = document.createElement("div");
  el.className = "grid";
  el.style.gridTemplateColumns = `repeat(${x1 - x0 + 1}, var(--sq))`;
  el.style.gridTemplateRows = `repeat(${y1 - y0 + 1}, var(--sq))`;
  for (const [text, , x, y] of group.list) {
    const sq = document.createElement("div");
    sq.className = "sq " + ((x + y) % 2 === 1 ? "light" : "dark");
    sq.style.gridColumn = String(x - x0 + 1);
    sq.style.gridRow = String(y1 - y + 1);
    sq.dataset.sq = text;
    sq.title = text;
    const label = document.createElement("span");
    label.className = "name";
    label.textContent = text.replace(/^[a-z]+:/, "");
    sq.append(label);
    el.append(sq);
    cells[text] = sq;
  }
  if (group.inner) {
    const inner = grid(group.inner);
    inner.classList.add("inner");
    inner.style.gridColumn = `2 / ${x1 - x0 + 1}`;
    inner.style.gridRow = `2 / ${y1 - y0 + 1}`;
    el.append(inner);
  }
  return el;
}

// ---------------------------------------------------------------- state

function draw(s) {
  last = s;
  clockAt = performance.now();
  const v = s.view || {};
  for (const [name, el] of Object.entries(cells)) {
    el.querySelectorAll(".pc, .mk").forEach((n) => n.remove());
    el.classList.remove("last");
  }
  for (const [name, letter] of Object.entries(v.squares || {})) {
    const el = cells[name];
    if (!el) continue;
    const pc = document.createElement("span");
    const up = letter.toUpperCase();
    pc.className = "pc " + (letter === up ? "w" : "b");
    pc.textContent = GLYPH[up] || letter;
    pc.dataset.piece = letter;
    el.append(pc);
  }
  for (const [key, value] of Object.entries(v)) {
    if (key === "ring") continue;
    const names = Array.isArray(value) ? value : (value && typeof value === "object" && key.startsWith("my_") ? Object.keys(value) : []);
    for (const name of names) {
      if (typeof name !== "string" || !cells[name]) continue;
      mark(name, key, MARK[key] || key[0], key.startsWith("my_") ? `${value[name]}` : "");
    }
  }
  if (v.dice) for (const [colour, die] of Object.entries(v.dice)) {
    if (die && die.square && cells[die.square]) mark(die.square, `die ${colour}`, String(die.face), "");
  }
  const lastMove = /([a-z]+:)?([a-h]\d+)([a-z]+:)?([a-h]\d+)/.exec(s.last || "");
  if (lastMove) for (const n of [(lastMove[1] || "") + lastMove[2], (lastMove[3] || "") + lastMove[4]])
    if (cells[n]) cells[n].classList.add("last");
  $("to-act").textContent = s.result === "*" ? `${cap(s.to_act)} to act` : "Game over";
  $("result").textContent = s.result === "*" ? "" : `${s.result} — ${s.reason}`;
  $("last").textContent = s.last || "–";
  list($("events"), s.events || []);
  const st = s.status || {};
  $("status").textContent = st.kind === "action" ? "" : (st.text || "");
  $("status").className = "status-" + (st.kind || "none");
  const ol = $("moves");
  ol.textContent = "";
  for (const m of s.moves) {
    const li = document.createElement("li");
    li.className = m.actor;
    li.textContent = m.text;
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
  $("clocks").hidden = !s.clock;
  const names = s.players || {white: "White", black: "Black"};
  $("players").textContent = `${names.white} – ${names.black}`;
  $("clock-white").querySelector("span").textContent = names.white;
  $("clock-black").querySelector("span").textContent = names.black;
  secrets(v);
  if (role === "white" || role === "black") player(s);
  if (role === "arbiter") {
    list($("notes"), s.notes || []);
    $("takeback").disabled = !s.can_take_back;
  }
  tickClock();
}

function mark(name, key, glyph, extra) {
  const mk = document.createElement("span");
  mk.className = "mk mk-" + key.replace(/[^a-z_]/gi, "-");
  mk.textContent = glyph + (extra ? " " + extra : "");
  mk.title = key.replace(/_/g, " ");
  cells[name].append(mk);
}

function secrets(v) {
  const items = [];
  if (v.my_burials) for (const [sq, p] of Object.entries(v.my_burials)) items.push(`buried ${p} on ${sq}`);
  if (v.opponent_patterns) items.push(`opponent's patterns: ${v.opponent_patterns}`);
  $("secrets").hidden = items.length === 0;
  list($("secret-list"), items);
}

function player(s) {
  const box = $("choices");
  box.textContent = "";
  const choices = s.choices || [];
  $("choices-box").hidden = choices.length === 0;
  if (choices.length > 12) {
    const sel = document.createElement("select");
    sel.id = "choice-select";
    for (const c of choices) { const o = document.createElement("option"); o.textContent = c; o.value = c; o.dataset.action = c; sel.append(o); }
    const go = document.createElement("button");
    go.textContent = "Choose";
    go.onclick = () => send({op: "act", action: sel.value});
    box.append(sel, go);
  } else {
    for (const c of choices) {
      const b = document.createElement("button");
      b.className = "choice";
      b.textContent = c;
      b.dataset.action = c;
      b.onclick = () => send({op: "act", action: c});
      box.append(b);
    }
  }
  const promo = $("promotion");
  promo.textContent = "";
  const pieces = s.promotion || [];
  $("promotion-box").hidden = pieces.length === 0;
  for (const p of pieces) {
    const b = document.createElement("button");
    b.className = "choice";
    b.dataset.piece = p;
    b.textContent = p === "-" ? "no promotion" : (GLYPH[p.toUpperCase()] || "") + " " + p.toUpperCase();
    b.onclick = () => send({op: "promote", piece: p});
    promo.append(b);
  }
  const mine = s.to_act === role && s.result === "*";
  $("buttons-box").hidden = !(mine && s.status && s.status.kind === "prompt" && choices.length === 0);
  const offer = s.draw_offer;
  $("draw").textContent = offer && offer !== role ? "Accept draw" : "Offer draw";
  $("draw").disabled = !s.can_offer_draw;
  $("resign").disabled = !s.can_resign;
  $("draw-note").textContent = offer ? (offer === role ? "You offered a draw." : `${cap(offer)} offers a draw.`) : "";
}

function list(el, items) {
  el.textContent = "";
  for (const t of items) { const li = document.createElement("li"); li.textContent = t; el.append(li); }
}

function cap(t) { return t ? t[0].toUpperCase() + t.slice(1) : ""; }

function fmt(sec) {
  sec = Math.max(0, sec);
  const m = Math.floor(sec / 60), s = Math.floor(sec % 60);
  return sec < 10 ? `${m}:${String(s).padStart(2, "0")}.${Math.floor((sec * 10) % 10)}` : `${m}:${String(s).padStart(2, "0")}`;
}

function tickClock() {
  if (!last || !last.clock) return;
  const c = last.clock, gone = (performance.now() - clockAt) / 1000;
  for (const colour of ["white", "black"]) {
    const run = c.running === colour && c.paused.length === 0 && last.result === "*";
    const el = $("clock-" + colour);
    el.querySelector("b").textContent = fmt(c[colour] - (run ? gone : 0));
    el.classList.toggle("running", run);
  }
}

// ---------------------------------------------------------------- controls

document.querySelectorAll("[data-button]").forEach((b) => b.onclick = () => send({op: "button", name: b.dataset.button}));
document.querySelectorAll("[data-op]").forEach((b) => b.onclick = () => {
  if (b.dataset.op === "takeback" && !confirm("Take back the last action?")) return;
  send({op: b.dataset.op});
});
$("draw").onclick = () => send({op: "draw"});
$("resign").onclick = () => { if (confirm("Resign this game?")) send({op: "resign"}); };
$("add-time").onclick = () => send({op: "add_time", colour: $("time-colour").value, seconds: Number($("time-seconds").value)});
$("set-names").onclick = () => send({op: "names", white: $("name-white").value, black: $("name-black").value});
$("adjudicate").onclick = () => { if (confirm("End the game with " + $("adj-result").value + "?")) send({op: "adjudicate", result: $("adj-result").value}); };
setInterval(tickClock, 200);
connect();
