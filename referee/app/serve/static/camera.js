// The /camera page: the phone's back camera streams JPEG frames to the referee.
// Rate: a frame goes out only for a new camera frame, after the previous one was acknowledged,
// and at most MAX_FPS a second; when acknowledgements come slowly (or the server says frames
// are queued) the JPEG quality drops, then the picture shrinks; when they come fast again both
// recover. The corners are drawn over the picture and can be dragged; a drag or "Confirm"
// sends them (fractions of the picture) to the referee, which uses them from the next frame.
// Each frame carries the time its camera frame was taken (requestVideoFrameCallback's
// captureTime, else the time it was presented), in this page's clock (milliseconds), in a
// JPEG comment segment "gravekeeper {json}": the referee settles the board in seconds of the
// camera, so a page or link that stalls does not make two frames taken 0.1 s apart look like
// a board that stood still for 0.4 s.
"use strict";

const TOKEN = location.pathname.split("/").filter(Boolean)[1] || "";
const MAX_FPS = 12;
const MAX_WIDTH = 1280;           // frames wider than this are scaled down before sending
const SLOW_MS = 250, FAST_MS = 90; // acknowledgement times that lower / raise the quality
const NAMES = ["a8", "h8", "h1", "a1"];
const DEFAULT_CORNERS = [[0.25, 0.2], [0.75, 0.2], [0.75, 0.8], [0.25, 0.8]];

const video = document.getElementById("video");
const view = document.getElementById("view");
const ctx = view.getContext("2d");
const grab = document.createElement("canvas");
const $ = (id) => document.getElementById(id);

let ws = null, stream = null;
let waiting = false, sentAt = 0, lastSent = 0, frameReady = false;
let quality = 0.8, scale = 1.0, maxFrame = 512 * 1024;
let corners = null, confirmed = false, placed = false, dragging = -1;
// corner messages sent and not yet answered: until they are, an acknowledgement of an earlier
// frame carries the server's older corners and must not undo the player's drag
let edits = 0;
let sent = 0, acked = 0, lastAck = 0, rtt = 0, closedForGood = false, helloSize = "";
// the newest camera frame: when it was taken (page clock, ms); page clock minus media time
// (ms) where the browser says both; the media time of the last frame sent (never sent twice)
let frameTime = 0, mediaToTaken = null, lastMedia = -1;

// The camera picture's full size, told to the server on connecting and whenever it changes
// (the phone turned): the server then starts afresh at the new size.
function hello() {
  helloSize = `${video.videoWidth}x${video.videoHeight}`;
  ws.send(JSON.stringify({ type: "hello", width: video.videoWidth, height: video.videoHeight }));
}

function setConn(text, up) {
  const c = $("conn");
  c.textContent = text;
  c.className = "badge " + (up ? "conn-up" : "conn-down");
}

async function startCamera() {
  $("start").hidden = true;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (err) {
    setConn("no camera", false);
    $("reply").textContent = `The camera could not be opened: ${err.name || err}. ` +
      "Allow the camera for this page (HTTPS) and press Start camera.";
    $("start").hidden = false;
    return;
  }
  video.srcObject = stream;
  await video.play();
  watchFrames();
  connect();
  requestAnimationFrame(draw);
}

// A new camera frame is ready (requestVideoFrameCallback where there is one; else every
// animation frame counts as new).
function watchFrames() {
  const onFrame = (now, meta) => {
    // captureTime: when the camera took it (where the browser knows); else when it is shown.
    // mediaTime is the frame's own time stamp, which VideoFrame gives for the frame drawn.
    const taken = meta && (meta.captureTime || meta.expectedDisplayTime);
    frameTime = taken > 0 ? taken : performance.now();
    mediaToTaken = meta && meta.mediaTime >= 0 && taken > 0 ? taken - meta.mediaTime * 1000 : null;
    frameReady = true;
    pump();
    if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(onFrame);
  };
  if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(onFrame);
  else setInterval(onFrame, 1000 / MAX_FPS);
}

function connect() {
  if (closedForGood) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/camera/ws?token=${encodeURIComponent(TOKEN)}`);
  ws.binaryType = "arraybuffer";
  ws.onopen = () => {
    waiting = false;
    edits = 0;  // answers to a closed socket's messages never come
    hello();
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    document.body.dataset.live = "0";
    waiting = false;
    if (ev.code === 4409 || ev.code === 4403) {
      closedForGood = true;
      setConn(ev.code === 4409 ? "another camera page took over" : "wrong page", false);
      return;
    }
    setConn("reconnecting…", false);
    setTimeout(connect, 1500);
  };
}

function onMessage(msg) {
  if (msg.type === "error") {
    $("reply").textContent = msg.error;
    if (msg.code === 413) quality = Math.max(0.3, quality - 0.2); // too large: smaller frames
    waiting = false;
    pump();
    return;
  }
  if (msg.type === "hello") {
    maxFrame = msg.max_frame || maxFrame;
    document.body.dataset.live = "1";
    setConn("streaming", true);
  }
  if (msg.type === "ack") {
    waiting = false;
    acked += 1;
    lastAck = performance.now();
    rtt = lastAck - sentAt;
    adapt(rtt, msg.camera.queued);
  }
  if (msg.type === "corners") edits = Math.max(0, edits - 1);
  if (msg.camera) showCamera(msg.camera);
  if (msg.game) showGame(msg.game);
  pump();
}

function adapt(ms, queued) {
  if (ms > SLOW_MS || queued >= 3) {
    if (quality > 0.5) quality = Math.max(0.5, quality - 0.1);
    else scale = Math.max(0.5, scale * 0.85);
  } else if (ms < FAST_MS && queued <= 1) {  // (the frame just acknowledged counts)
    if (scale < 1.0) scale = Math.min(1.0, scale / 0.9);
    else quality = Math.min(0.8, quality + 0.05);
  }
}

function pump() {
  if (!ws || ws.readyState !== WebSocket.OPEN || waiting || !frameReady) return;
  if (document.body.dataset.live !== "1") return;
  const now = performance.now();
  const wait = lastSent + 1000 / MAX_FPS - now;
  if (wait > 0) { setTimeout(pump, wait); return; }
  frameReady = false;
  waiting = true;
  sendFrame().catch((err) => { waiting = false; $("reply").textContent = String(err); });
}

// The JPEG with a comment segment (FF FE, length, text) right after its start marker.
function stamped(jpeg, text) {
  const src = new Uint8Array(jpeg), note = new TextEncoder().encode(text);
  const out = new Uint8Array(src.length + 4 + note.length);
  out.set(src.subarray(0, 2), 0);
  out.set([0xff, 0xfe, (note.length + 2) >> 8, (note.length + 2) & 0xff], 2);
  out.set(note, 6);
  out.set(src.subarray(2), 6 + note.length);
  return out.buffer;
}

// The picture to send and when the camera took it (page clock, ms), or null for a picture
// already sent. The video element may already show a newer frame than the last
// requestVideoFrameCallback reported (a busy page): a VideoFrame of it carries its own time
// stamp, so the picture and its time always match and a stale picture is never sent again.
function grabFrame(width, height) {
  const g = grab.getContext("2d");
  if (typeof VideoFrame === "function" && mediaToTaken !== null) {
    let frame = null;
    try { frame = new VideoFrame(video); } catch (err) { frame = null; }
    if (frame) {
      const media = frame.timestamp;  // microseconds
      try {
        if (media === lastMedia) return null;
        g.drawImage(frame, 0, 0, width, height);
      } finally { frame.close(); }
      lastMedia = media;
      return media / 1000 + mediaToTaken;
    }
  }
  g.drawImage(video, 0, 0, width, height);
  return frameTime;
}

async function sendFrame() {
  const w = video.videoWidth, h = video.videoHeight;
  if (!w || !h) { waiting = false; return; }
  if (`${w}x${h}` !== helloSize) hello();
  const s = Math.min(scale, MAX_WIDTH / w);
  grab.width = Math.round(w * s);
  grab.height = Math.round(h * s);
  const taken = grabFrame(grab.width, grab.height);
  if (taken === null) { waiting = false; return; }  // the same picture: wait for a new one
  const blob = await new Promise((resolve) => grab.toBlob(resolve, "image/jpeg", quality));
  if (!blob) { waiting = false; return; }
  if (blob.size > maxFrame) { quality = Math.max(0.3, quality - 0.2); waiting = false; return; }
  const data = stamped(await blob.arrayBuffer(),
    "gravekeeper " + JSON.stringify({ t: Math.round(taken * 1000) / 1000 }));
  if (!ws || ws.readyState !== WebSocket.OPEN) { waiting = false; return; }
  lastSent = sentAt = performance.now();
  sent += 1;
  ws.send(data);
  $("stats").textContent = `${grab.width}x${grab.height} q${quality.toFixed(2)} ` +
    `${Math.round(blob.size / 1024)} KB, ack ${Math.round(rtt)} ms, sent ${sent}`;
}

function showCamera(cam) {
  confirmed = cam.confirmed;
  if (dragging < 0 && edits === 0 && cam.corners) { corners = cam.corners; placed = true; }
  const state = $("board-state");
  if (cam.found) {
    state.textContent = confirmed ? "board found" : "board found: check the corners and confirm";
    state.className = "found";
  } else {
    state.textContent = cam.corners ? "board placed: following from the next frame"
      : "board not found: drag the four corners onto the board's corners";
    state.className = cam.corners ? "" : "missing";
  }
  state.dataset.found = cam.found ? "1" : "0";
  $("help").textContent = cam.detail || "";
}

function showGame(game) {
  $("moves-count").textContent = String(game.moves ?? 0);
  $("last").textContent = game.last || "";
  $("result").textContent = game.result && game.result !== "*" ?
    `${game.result} ${game.reason || ""}` : "";
  const st = game.status || {};  // a problem or correction on the board; not the move again
  $("status").textContent = st.kind && st.kind !== "action" ? (st.text || "") : "";
  $("status").className = "status-" + (st.kind || "none");
}

// ---- drawing and dragging the corners ------------------------------------------------------

function shown() { return corners || DEFAULT_CORNERS; }

function draw() {
  const w = video.videoWidth || 640, h = video.videoHeight || 480;
  if (view.width !== w || view.height !== h) { view.width = w; view.height = h; }
  ctx.drawImage(video, 0, 0, w, h);
  const pts = shown().map(([x, y]) => [x * w, y * h]);
  const lerp = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  ctx.lineWidth = Math.max(1, w / 400);
  ctx.strokeStyle = corners ? (confirmed ? "#a3be8c" : "#f0b429") : "#ff8a80";
  ctx.setLineDash(corners ? [] : [8, 6]);
  ctx.beginPath();
  for (let i = 1; i < 8; i++) { // the inner lines of the 8x8 grid
    const t = i / 8;
    let a = lerp(pts[0], pts[3], t), b = lerp(pts[1], pts[2], t);
    ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
    a = lerp(pts[0], pts[1], t); b = lerp(pts[3], pts[2], t);
    ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
  }
  ctx.stroke();
  ctx.lineWidth *= 2;
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
  ctx.stroke();
  ctx.setLineDash([]);
  const r = Math.max(8, w / 40);
  ctx.font = `${Math.round(r)}px system-ui, sans-serif`;
  pts.forEach(([x, y], i) => {
    ctx.fillStyle = "#0009";
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.fillText(NAMES[i], x + r, y - r / 2);
  });
  requestAnimationFrame(draw);
}

function pointerAt(ev) {
  const box = view.getBoundingClientRect();
  return [(ev.clientX - box.left) / box.width, (ev.clientY - box.top) / box.height];
}

view.addEventListener("pointerdown", (ev) => {
  const [x, y] = pointerAt(ev);
  const box = view.getBoundingClientRect();
  let best = -1, bestD = Infinity;
  shown().forEach(([cx, cy], i) => {
    const d = Math.hypot((cx - x) * box.width, (cy - y) * box.height);
    if (d < bestD) { bestD = d; best = i; }
  });
  if (bestD > Math.max(40, box.width / 10)) return;
  corners = shown().map((p) => p.slice());
  dragging = best;
  view.setPointerCapture(ev.pointerId);
});

view.addEventListener("pointermove", (ev) => {
  if (dragging < 0) return;
  const [x, y] = pointerAt(ev);
  corners[dragging] = [Math.min(1.2, Math.max(-0.2, x)), Math.min(1.2, Math.max(-0.2, y))];
});

view.addEventListener("pointerup", () => {
  if (dragging < 0) return;
  dragging = -1;
  sendCorners();
});

function sendCorners() {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  edits += 1;
  ws.send(JSON.stringify({ type: "corners", corners: shown() }));
}

$("confirm").addEventListener("click", sendCorners);
$("find").addEventListener("click", () => {
  corners = null;
  if (ws && ws.readyState === WebSocket.OPEN) {
    edits += 1;
    ws.send(JSON.stringify({ type: "find" }));
  }
});
$("start").addEventListener("click", startCamera);

if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
  setConn("no camera", false);
  $("reply").textContent = "This browser gives no camera to this page: open it over HTTPS " +
    "(accept the certificate) in a current browser.";
} else {
  startCamera();
}
