// The big screen (docs/web.md §4): level, BLINDS and ANTE, time left, time of day, the blind
// schedule (next levels and breaks), the chip-ups, players left / entries / average stack,
// the prize pool and payouts when the tournament has money, the QR code of the players'
// page (only when phones can reach this host), recent seat moves in words and where a broken
// table's players went, the hand-for-hand banner; once the tournament is over the winner
// and the places instead of the clock; chimes at a new level, one minute left
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
  let phones = false; // the players' page is reachable (/api/phone-link): the QR may show

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

  // "3.7" -> "table 3 seat 7"
  const seatWords = (ts) => String(ts || "").replace(/^(\d+)\.(\d+)$/, "table $1 seat $2");
  const tableOf = (ts) => String(ts || "").split(".")[0];
  const list = (xs) => xs.length <= 1 ? xs.join("") :
    xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];

  // "Table 3 has broken: its players went to tables 1 and 2" (from the seat moves)
  function brokeWords(s, t) {
    const to = [];
    for (const m of s.moves || []) {
      const dest = tableOf(m.to);
      if (tableOf(m.from) === String(t) && dest !== String(t) && to.indexOf(dest) < 0) {
        to.push(dest);
      }
    }
    to.sort((a, b) => a - b);
    return "Table " + t + " has broken" + (to.length ? ": its players went to " +
      (to.length === 1 ? "table " : "tables ") + list(to) : "");
  }

  // The footer: the broken tables and the last seat moves of the past NEWS_MS (not once the
  // final table plays: its pill says it); the places once the night is over.
  function news(s) {
    const items = [];
    const now = TC.nowMs(s);
    // a broken table first (the footer keeps what fits, from the start)
    const broke = s.final_table ? [] : (s.broken || []).slice(-2).reverse();
    for (const t of broke) items.push(el("span", {class: "broke", text: brokeWords(s, t)}));
    // (the moves out of a broken table are in its line)
    const recent = (s.moves || []).filter((m) => now - m.at_ms < NEWS_MS &&
      broke.indexOf(Number(tableOf(m.from))) < 0);
    for (const m of recent.slice(-4).reverse()) {
      items.push(el("span", {class: "move"},
        el("b", {text: m.player}), ": " + seatWords(m.from) + " → " + seatWords(m.to),
        el("span", {class: "age", "data-at": m.at_ms, text: ago(now - m.at_ms)})));
    }
    if (s.tournament.state === "finished") items.length = 0; // the places say it all
    return items;
  }

  // The night is over: the winner, then the places (with the prize or the points).
  function finish(s) {
    const res = (s.results || []).filter((r) => r.place !== null)
      .sort((a, b) => a.place - b.place);
    const win = res.filter((r) => r.place === 1);
    $("winner").textContent = win.map((r) => r.name).join(" & ") || "–";
    const w = win[0];
    $("winner-what").textContent = w ? (w.prize ? w.prize : w.points !== null &&
      w.points !== undefined ? w.points + " points" : "") : "";
    TC.fill($("places"), res.filter((r) => r.place !== 1).slice(0, 9).map((r) =>
      el("li", null, el("span", {class: "pl", text: ordinal(r.place) + (r.tied ? "=" : "")}),
        el("span", {class: "who", text: r.name}),
        el("span", {class: "amt", text: r.prize ? r.prize : r.points !== null &&
          r.points !== undefined ? r.points + " pts" : ""}))));
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

  // Nothing cut off: a panel that does not fit its box drops its last rows (the schedule's
  // later levels, the later chip-ups and payouts, the older moves), then shrinks its text.
  function fitBox(box, rows) {
    box.style.fontSize = "";
    const over = () => box.scrollHeight > box.clientHeight + 1 ||
      [...box.querySelectorAll("*")].some((e) => e.clientWidth > 0 &&
        e.scrollWidth > e.clientWidth + 1);
    const items = [...box.querySelectorAll(rows)];
    while (box.scrollHeight > box.clientHeight + 1 && items.length > 1) items.pop().remove();
    let size = parseFloat(getComputedStyle(box).fontSize);
    const least = size * 0.6;
    while (over() && size > least) {
      size *= 0.92;
      box.style.fontSize = size.toFixed(1) + "px";
    }
  }

  function fitPanels() {
    for (const id of ["p-schedule", "p-chipups", "p-payouts"]) {
      if (!$(id).hidden) fitBox($(id), "li");
    }
    if (!$("news").hidden) fitBox($("news"), ".move, .broke");
    if (!$("finish").hidden) fitBox($("finish"), "#places li");
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
    const over = s.tournament.state === "finished";
    document.body.classList.toggle("is-over", over);
    $("finish").hidden = !over;
    if (over) finish(s);
    document.body.classList.toggle("on-break", !!c.is_break);
    document.body.classList.toggle("is-paused", !!c.paused);
    $("level").textContent = levelLabel(s);
    // the BLINDS line: this level's, or during a break the next level's (shown once: the
    // schedule below starts after it)
    const shown = c.is_break ? c.next : c;
    $("blinds-label").textContent = c.is_break ? "Next level blinds" : "Blinds";
    $("blinds").textContent = shown && !shown.is_break ? TC.blinds(shown) : "–";
    const ante = shown && !shown.is_break ? shown.ante : 0;
    $("ante").textContent = ante ? TC.chips(ante) : "";
    $("ante-cell").hidden = !ante; // no ante: the blinds have the line to themselves
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
    $("stats").hidden = !shows("stats") || over;
    $("p-schedule").hidden = !shows("schedule") || over;
    $("p-chipups").hidden = !shows("chipups") || over ||
      !(s.schedule && s.schedule.chip_ups.some((u) => !u.done));
    $("p-payouts").hidden = !shows("payouts") || !m || !m.payouts.length || over;
    $("p-qr").hidden = !shows("qr") || !phones;
    TC.fill($("schedule"), scheduleRows(s));
    TC.fill($("chipups"), chipUpRows(s));
    TC.fill($("payouts"), m ? payoutRows(m) : []);
    const anyPanel = ["p-schedule", "p-chipups", "p-payouts", "p-qr"].some((id) => !$(id).hidden);
    $("panels").hidden = !anyPanel;
    $("colour").hidden = !c.colour_up;
    $("colour").textContent = c.colour_up || "";
    const items = shows("news") ? news(s) : [];
    $("news").hidden = items.length === 0;
    TC.fill($("news"), items.length ? [el("span", {class: "label", text: "Moves"}), ...items] : []);
    tick();
    fitAll();
    fitPanels();
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
    .then((j) => {
      // no address phones can reach (tdhost serve --listen 127.0.0.1): no QR code at all
      phones = !!j.url;
      $("qr-url").textContent = phones ? j.url.replace(/^https?:\/\//, "") : "";
      if (phones) $("qr").src = "/qr.svg";
      if (snap) render(snap);
    })
    .catch(() => {});
  TC.connect(render, link);
  setInterval(tick, 200);
  window.addEventListener("resize", () => { if (snap) render(snap); });
})();
