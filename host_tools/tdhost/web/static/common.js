// Shared by the big screen and the TD console (docs/web.md): DOM building without innerHTML
// (player names are typed by people), number and time formats, the live connection.
// Times are integer milliseconds. A snapshot gets `_at` = performance.now() on arrival, so
// the clock counts down locally between snapshots: left = ms_left - (now - _at).
"use strict";

const TC = {};

// el("li", {class: "seat", "data-name": n, onclick: f}, child, "text", ...)
TC.el = function (tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
};

TC.pad = (n) => (n < 10 ? "0" : "") + n;

// 12:34, or 1:02:03 past an hour; rounds up so 0:00 shows only when the time is over.
TC.hms = function (ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
  return h ? h + ":" + TC.pad(m) + ":" + TC.pad(x) : m + ":" + TC.pad(x);
};

TC.chips = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-GB"));

TC.blinds = (c) => TC.chips(c.sb) + " / " + TC.chips(c.bb);

// "now", "12 s", "4 min", "2 h" for an age in ms.
TC.age = function (ms) {
  if (ms === null || ms === undefined || !isFinite(ms)) return "–";
  if (ms < 1500) return "now";
  const s = Math.round(ms / 1000);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min";
  return Math.floor(s / 3600) + " h";
};

// The host's clock now (Unix ms), from the last snapshot.
TC.nowMs = (snap) => snap.now_ms + (performance.now() - snap._at);

// Milliseconds left in the level now; frozen while paused.
TC.left = function (snap) {
  const c = snap.clock;
  return c.paused ? c.ms_left : c.ms_left - (performance.now() - snap._at);
};

// Milliseconds to the next break now, or null.
TC.breakIn = function (snap) {
  const c = snap.clock;
  if (c.break_in_ms === null || c.break_in_ms === undefined) return null;
  return c.paused ? c.break_in_ms : c.break_in_ms - (performance.now() - snap._at);
};

// Opens the event stream: onSnapshot(snap) on every snapshot, onLink(true|false) when the
// connection comes and goes (EventSource reconnects by itself, after `retry:` = 1 s). Each
// snapshot is also a "tc-snapshot" event on the document (detail: the snapshot), after the
// page's own onSnapshot: parts of a page in files of their own (leaderboard.js) follow it,
// and start from TC.snapshot (the last one, or null): a snapshot can come before a later
// deferred script has run.
TC.snapshot = null;
TC.connect = function (onSnapshot, onLink) {
  const es = new EventSource("/api/events");
  es.addEventListener("snapshot", (e) => {
    const snap = JSON.parse(e.data);
    snap._at = performance.now();
    TC.snapshot = snap;
    onLink(true);
    onSnapshot(snap);
    document.dispatchEvent(new CustomEvent("tc-snapshot", {detail: snap}));
  });
  es.addEventListener("open", () => onLink(true));
  es.addEventListener("error", () => onLink(false));
  return es;
};

// Replaces the children of a node.
TC.fill = function (node, kids) {
  node.replaceChildren(...kids.filter((k) => k !== null && k !== undefined && k !== false));
};

// Shrinks a one-line element's font until its text fits its box (at most to `least` of the
// stylesheet's size): long blinds like "3,000 / 6,000" on a narrow projector.
TC.fit = function (node, least) {
  node.style.fontSize = "";
  const full = parseFloat(getComputedStyle(node).fontSize);
  let size = full;
  while (node.scrollWidth > node.clientWidth + 1 && size > full * (least || 0.5)) {
    size *= 0.92;
    node.style.fontSize = size.toFixed(1) + "px";
  }
};
