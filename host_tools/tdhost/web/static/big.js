// The big screen (docs/web.md §4): level, BLINDS and ANTE, time left, time of day, the blind
// schedule (next levels and breaks), the chip-ups, players left / entries / average stack,
// the prize pool and payouts when the tournament has money, the QR code of the players'
// page, recent seat moves, the hand-for-hand banner; chimes at a new level, one minute left
// and the end of a break (sound.js). The TD chooses panels, layout, theme and sound on the
// console (snapshot `display`). Read-only: the public part of the snapshot.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;
  let snap = null;
  let display = {panels: ["schedule", "chipups", "stats", "payouts", "qr", "news"],
                 theme: "dark", layout: "auto", sound: true, speak: false};
  let lastIndex = null, lastWasBreak = false, lastLeft = null;

  const NEWS_MS = 15 * 60000; // seat moves older than this are no news (ms)
  const SCHEDULE_ROWS = 5; // levels and breaks listed in the schedule panel

  function levelLabel(s) {
    const c = s.clock, state = s.tournament.state;
    if (state === "finished") return "Finished";
    if (c.is_break) return "Break";
    const lv = c.level === null ? "–" : c.level;
    if (state === "registration" || state === "drawn") return "Level " + lv + " · starting soon";
    return "Level " + lv;
  }

  function ordinal(n) {
    const t = n % 100, u = n % 10;
    const suf = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
    return n + suf;
  }

  function ago(ms) {
    const t = TC.age(ms);
    return t === "now" || t === "–" ? t : t + " ago";
  }

  // Milliseconds from now until a schedule row starts (frozen while paused).
  function startsIn(ms) {
    return snap.clock.paused ? ms : ms - (performance.now() - snap._at);
  }

  // "in 20 min", "in 1 h 05" for a schedule row (rounded up to the minute)
  function soon(ms) {
    const m = Math.max(0, Math.ceil(ms / 60000));
    return m < 60 ? "in " + m + " min" : "in " + Math.floor(m / 60) + " h " + TC.pad(m % 60);
  }

  // ------------------------------------------------------------------ display settings
  function applyDisplay() {
    const b = document.body;
    let lay = display.layout;
    if (lay !== "16x9" && lay !== "4x3") lay = innerWidth / innerHeight >= 1.5 ? "16x9" : "4x3";
    b.classList.toggle("lay-16x9", lay === "16x9");
    b.classList.toggle("lay-4x3", lay === "4x3");
    b.classList.toggle("narrow", innerWidth < 700);
    b.classList.toggle("theme-contrast", display.theme === "contrast");
    b.classList.toggle("theme-dark", display.theme !== "contrast");
  }

  function shows(panel) {
    return display.panels.indexOf(panel) >= 0;
  }

  // ------------------------------------------------------------------ panels
  function scheduleRows(s) {
    const rows = (s.schedule && s.schedule.levels) || [];
    const c = s.clock;
    // during a break the next level is the big BLINDS line: the list starts after it
    const skip = c.is_break ? 2 : 1;
    return rows.slice(skip, skip + SCHEDULE_ROWS).map((r) => {
      const at = el("span", {class: "at", "data-ms": r.starts_in_ms});
      if (r.is_break) {
        return el("li", {class: "brk"}, el("span", {class: "lv", text: "Break"}),
          el("span", {class: "bl", text: r.minutes + " min"}), at);
      }
      return el("li", null, el("span", {class: "lv", text: "Level " + r.level}),
        el("span", {class: "bl"}, TC.blinds(r),
          r.ante ? el("small", {text: " · " + TC.chips(r.ante)}) : null),
        at);
    });
  }

  function chipUpRows(s) {
    // the chip-ups to come (and the one of this break); past ones are no news
    const ups = ((s.schedule && s.schedule.chip_ups) || []).filter((u) => !u.done);
    let nextMarked = false;
    return ups.map((u) => {
      const cls = u.done ? "done" : u.now ? "now" : nextMarked ? "" : "next";
      if (!u.done) nextMarked = true;
      return el("li", {class: cls, text: u.text});
    });
  }

  function payoutRows(m) {
    return (m.payouts || []).map((p) => el("li", null,
      el("span", {class: "pl", text: ordinal(p.place) + (p.tied ? "=" : "")}),
      el("span", {class: "amt", text: p.text}),
      p.name ? el("span", {class: "who", text: p.name}) : null));
  }

  // The footer: the last seat moves of the past NEWS_MS and the broken tables (not once the
  // final table plays: its pill says it); the places once the night is over.
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
          " " + (r.place === null ? "" : ordinal(r.place) + (r.tied ? "=" : "")),
          r.prize ? el("span", {class: "age", text: r.prize}) : null));
      }
    }
    return items;
  }

  // ------------------------------------------------------------------ sound
  function sounds(s) {
    const c = s.clock;
    const running = s.tournament.state === "running";
    if (lastIndex !== null && c.level_index !== lastIndex && running && display.sound) {
      TCsound.chime(lastWasBreak && !c.is_break ? "break_end" : "level");
      if (display.speak) {
        TCsound.speak(c.is_break ? "Break. Then blinds " + c.sb + " and " + c.bb + "."
          : "Level " + c.level + ". Blinds " + c.sb + " and " + c.bb +
            (c.ante ? ", ante " + c.ante : "") + ".");
      }
    }
    if (c.level_index !== lastIndex) lastLeft = null;
    lastIndex = c.level_index;
    lastWasBreak = !!c.is_break;
  }

  function minuteChime() {
    const c = snap.clock;
    const left = TC.left(snap);
    if (lastLeft !== null && !c.paused && lastLeft > 60000 && left <= 60000 && left > 0 &&
        snap.tournament.state === "running" && display.sound) {
      TCsound.chime("minute");
    }
    lastLeft = left;
  }

  // ------------------------------------------------------------------ render
  function fitAll() {
    for (const id of ["time", "blinds", "ante", "left", "entries", "avg", "breakin", "pool",
                      "colour", "next"]) {
      TC.fit($(id), 0.4);
    }
  }

  function render(s) {
    snap = s;
    if (s.display) display = s.display;
    applyDisplay();
    sounds(s);
    const c = s.clock;
    const m = s.money;
    $("event").textContent = s.event || "";
    $("tname").textContent = s.tournament.name || "";
    $("final").hidden = !s.final_table;
    $("h4h").hidden = !s.hand_for_hand;
    document.body.classList.toggle("on-break", !!c.is_break);
    document.body.classList.toggle("is-paused", !!c.paused);
    $("level").textContent = levelLabel(s);
    // the BLINDS line: this level's, or during a break the next level's (shown once: the
    // schedule below starts after it)
    const shown = c.is_break ? c.next : c;
    $("blinds-label").textContent = c.is_break ? "Next level blinds" : "Blinds";
    $("blinds").textContent = shown && !shown.is_break ? TC.blinds(shown) : "–";
    const ante = shown && !shown.is_break ? shown.ante : 0;
    $("ante").textContent = ante ? TC.chips(ante) : "none";
    $("ante-cell").classList.toggle("none", !ante);
    // without the schedule panel, the next level has a line of its own
    const n = c.next;
    $("next-line").hidden = shows("schedule") || c.is_break || !n;
    TC.fill($("next"), !n ? ["–"] : n.is_break ? ["Break " + n.minutes + " min"]
      : [TC.blinds(n), n.ante ? el("small", {text: " ante " + TC.chips(n.ante)}) : null]);
    $("breakin-label").textContent = c.is_break ? "Next break in" : "Break in";
    const p = s.players;
    $("left").textContent = String(p.left || 0);
    $("entries").textContent = String(p.entries || 0);
    $("avg").textContent = TC.chips(p.average_stack);
    $("pool-stat").hidden = !m;
    $("pool").textContent = m ? m.pool : "";
    $("stats").hidden = !shows("stats");
    $("p-schedule").hidden = !shows("schedule");
    $("p-chipups").hidden = !shows("chipups") ||
      !(s.schedule && s.schedule.chip_ups.some((u) => !u.done));
    $("p-payouts").hidden = !shows("payouts") || !m || !m.payouts.length;
    $("p-qr").hidden = !shows("qr");
    TC.fill($("schedule"), scheduleRows(s));
    TC.fill($("chipups"), chipUpRows(s));
    TC.fill($("payouts"), m ? payoutRows(m) : []);
    const anyPanel = ["p-schedule", "p-chipups", "p-payouts", "p-qr"].some((id) => !$(id).hidden);
    $("panels").hidden = !anyPanel;
    $("colour").hidden = !c.colour_up;
    $("colour").textContent = c.colour_up || "";
    const items = shows("news") ? news(s) : [];
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
    const d = new Date(now);
    $("tod").textContent = TC.pad(d.getHours()) + ":" + TC.pad(d.getMinutes());
    for (const a of document.querySelectorAll("#news .age[data-at]")) {
      a.textContent = ago(now - Number(a.dataset.at));
    }
    for (const a of document.querySelectorAll("#schedule .at")) {
      a.textContent = soon(startsIn(Number(a.dataset.ms)));
    }
    $("sound-hint").hidden = !(display.sound && TCsound.blocked());
    minuteChime();
  }

  // The link dot and its legend: green "live" while the host's stream is up.
  function link(up) {
    $("conn").className = "conn " + (up ? "up" : "down");
    $("conn").textContent = up ? "live" : "reconnecting…";
  }

  // A TV page: f (or a double click) for full screen; the mouse pointer hides when still;
  // the screen is kept awake where the browser allows it (localhost or https only). Any
  // click or key also lets the browser play the chimes.
  function fullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  }
  document.addEventListener("keydown", (e) => {
    TCsound.unlock();
    if (e.key === "f") fullscreen();
  });
  document.addEventListener("click", () => TCsound.unlock());
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

  fetch("/api/phone-link").then((r) => r.json())
    .then((j) => { $("qr-url").textContent = j.url.replace(/^https?:\/\//, ""); })
    .catch(() => {});
  TC.connect(render, link);
  setInterval(tick, 200);
  window.addEventListener("resize", () => { if (snap) { applyDisplay(); fitAll(); } });
})();
