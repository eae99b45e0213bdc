// The big screen (docs/web.md): level, blinds and ante, time left, next level, break
// countdown, colour-up notice, players left, average stack, recent seat moves and broken
// tables, the hand-for-hand banner. Read-only; it shows the public part of the snapshot.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;
  let snap = null;

  function levelLabel(s) {
    const c = s.clock, state = s.tournament.state;
    if (state === "finished") return "Finished";
    if (c.is_break) return "Break";
    const lv = c.level === null ? "–" : c.level;
    if (state === "registration" || state === "drawn") return "Level " + lv + " · starting soon";
    return "Level " + lv;
  }

  function nextNodes(n) {
    if (!n) return ["–"];
    if (n.is_break) return ["Break ", el("small", {text: n.minutes + " min"})];
    return [TC.blinds(n), n.ante ? el("small", {text: " ante " + TC.chips(n.ante)}) : null];
  }

  const NEWS_MS = 15 * 60000; // seat moves older than this are no news (ms)

  function fitAll() {
    for (const id of ["time", "blinds", "next", "breakin", "left", "avg", "colour"]) {
      TC.fit($(id), 0.45);
    }
  }

  // The footer: the last seat moves of the past NEWS_MS and the broken tables (not once the
  // final table plays: its pill says it), at most two lines of it (style.css).
  function news(s) {
    const items = [];
    const now = TC.nowMs(s);
    const recent = (s.moves || []).filter((m) => now - m.at_ms < NEWS_MS);
    for (const m of recent.slice(-4).reverse()) {
      items.push(el("span", {class: "move"},
        el("b", {text: m.player}), " " + m.from + " → " + m.to,
        el("span", {class: "age", "data-at": m.at_ms, text: ago(now - m.at_ms)})));
    }
    for (const t of s.final_table ? [] : (s.broken || []).slice(-2).reverse()) {
      items.push(el("span", {class: "broke", text: "Table " + t + " has broken"}));
    }
    if (s.tournament.state === "finished") {
      items.length = 0; // the night is over: the places, not the last moves
      for (const r of (s.results || []).slice(0, 3)) {
        items.push(el("span", {class: "move"}, el("b", {text: r.name}),
          " " + (r.place === null ? "" : ordinal(r.place))));
      }
    }
    return items;
  }

  function ordinal(n) {
    const t = n % 100, u = n % 10;
    const suf = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
    return n + suf;
  }

  function render(s) {
    snap = s;
    const c = s.clock;
    $("event").textContent = s.event || "";
    $("tname").textContent = s.tournament.name || "";
    $("final").hidden = !s.final_table;
    $("h4h").hidden = !s.hand_for_hand;
    document.body.classList.toggle("on-break", !!c.is_break);
    document.body.classList.toggle("is-paused", !!c.paused);
    $("level").textContent = levelLabel(s);
    if (c.is_break) {
      $("blinds").textContent = c.next && !c.next.is_break ? "Next " + TC.blinds(c.next) : "Break";
      $("ante").textContent = c.next && c.next.ante ? "Ante " + TC.chips(c.next.ante) : "";
    } else {
      $("blinds").textContent = TC.blinds(c);
      $("ante").textContent = c.ante ? "Ante " + TC.chips(c.ante) : "";
    }
    $("breakin-label").textContent = c.is_break ? "Next break in" : "Break in";
    $("next-label").textContent = c.next && c.next.is_break ? "Next" : "Next level";
    TC.fill($("next"), nextNodes(c.next));
    const p = s.players;
    $("left").textContent = p.entries ? p.left + " / " + p.entries : String(p.left || 0);
    $("avg").textContent = TC.chips(p.average_stack);
    $("colour").hidden = !c.colour_up;
    $("colour").textContent = c.colour_up || "";
    const items = news(s);
    $("news").hidden = items.length === 0;
    const label = s.tournament.state === "finished" ? "Places" : "Moves";
    TC.fill($("news"), items.length ? [el("span", {class: "label", text: label}), ...items] : []);
    tick();
    fitAll();
  }

  function tick() {
    if (!snap) return;
    $("time").textContent = TC.hms(TC.left(snap));
    $("paused").hidden = !snap.clock.paused;
    const b = TC.breakIn(snap);
    $("breakin").textContent = b === null ? "–" : TC.hms(b);
    const now = TC.nowMs(snap);
    for (const a of document.querySelectorAll("#news .age")) {
      a.textContent = ago(now - Number(a.dataset.at));
    }
  }

  function ago(ms) {
    const t = TC.age(ms);
    return t === "now" || t === "–" ? t : t + " ago";
  }

  function link(up) {
    $("conn").className = "conn " + (up ? "up" : "down");
    $("conn").textContent = up ? "" : "reconnecting…";
  }

  // A TV page: f (or a double click) for full screen; the mouse pointer hides when still;
  // the screen is kept awake where the browser allows it (localhost or https only).
  function fullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  }
  document.addEventListener("keydown", (e) => { if (e.key === "f") fullscreen(); });
  document.addEventListener("dblclick", fullscreen);
  let still = 0;
  document.addEventListener("mousemove", () => {
    document.body.classList.remove("no-pointer");
    clearTimeout(still);
    still = setTimeout(() => document.body.classList.add("no-pointer"), 3000);
  });
  async function stayAwake() {
    try {
      if (navigator.wakeLock && document.visibilityState === "visible") {
        await navigator.wakeLock.request("screen");
      }
    } catch (e) { /* not allowed here: the TV's own settings decide */ }
  }
  document.addEventListener("visibilitychange", stayAwake);
  stayAwake();

  TC.connect(render, link);
  setInterval(tick, 200);
  window.addEventListener("resize", () => { if (snap) fitAll(); });
})();
