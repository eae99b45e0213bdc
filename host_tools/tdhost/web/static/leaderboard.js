// The area leaderboard (docs/web.md §10): the standings of the venue's area as the last
// `tdhost season pull` left them in the league file (GET /api/leaderboard; offline, no
// network beyond this host). On the big screen a panel of its own, shown only while the
// clock is not running a level -- before the start, during a break and after the end -- and
// only when the TD's display settings keep "league" on: it takes the whole panel row, in
// turns of 15 s with the other panels (body.league-turn); on the players' page a card with
// the area's standings. Nothing shows before a first pull. Names are put in with
// textContent (TC.el), never as HTML. Follows the page's snapshots ("tc-snapshot").
"use strict";

(function () {
  const el = TC.el;
  const big = document.body.classList.contains("bs");
  const REFETCH_MS = big ? 60000 : 120000; // a pull made during the night shows by then
  let board = {shown: false, rows: []};
  // the page's last snapshot: the first may have come before this script ran (the
  // big screen then showed no leaderboard until something changed)
  let snap = TC.snapshot;

  function heading() {
    return [board.league, board.area ? "area " + board.area : ""].filter(Boolean).join(" · ");
  }

  function rows() {
    return board.rows.map((r) => el("li", {"data-rank": r.rank},
      el("span", {class: "rk", text: r.rank + "."}), " ",
      el("span", {class: "who", text: r.name}), r.member ? " " : null,
      r.member ? el("span", {class: "no", text: r.member}) : null, " ",
      el("span", {class: "pts", text: r.points})));
  }

  // ------------------------------------------------------------------ the big screen
  let panel = null;
  function bigPanel() {
    if (panel || !document.getElementById("panels")) return panel;
    panel = el("div", {class: "panel league", id: "p-league", hidden: true},
      el("h2", null, "Area leaderboard ", el("small", {class: "lb-what"})),
      el("ol", {class: "board"}),
      el("div", {class: "lb-asof"}));
    document.getElementById("panels").append(panel);
    return panel;
  }

  // Only while no level is being played: the clock and the blinds keep the screen then.
  function moment(s) {
    const state = s.tournament && s.tournament.state;
    if (state === "registration" || state === "drawn" || state === "finished") return true;
    return state === "running" && !!(s.clock && s.clock.is_break);
  }

  // The leaderboard takes the whole panel row in turns of TURN_MS with the other panels
  // (the schedule, the chip-ups, the QR code), starting with its own when its moment comes.
  const TURN_MS = 15000;
  let since = null; // performance.now() when the moment began, or null outside it
  let turnShown = null;
  function ourTurn() {
    const others = [...document.querySelectorAll("#panels > .panel:not(#p-league)")]
      .some((p) => !p.hidden);
    return !others || Math.floor((performance.now() - since) / TURN_MS) % 2 === 0;
  }

  function showBig() {
    const p = bigPanel();
    if (!p || !snap) return;
    const panels = (snap.display && snap.display.panels) || [];
    const on = board.shown && board.rows.length > 0 && panels.indexOf("league") >= 0 &&
      moment(snap);
    since = on ? (since === null ? performance.now() : since) : null;
    const turn = on && ourTurn();
    turnShown = turn;
    p.hidden = !turn;
    document.body.classList.toggle("league-turn", turn);
    if (!turn) return;
    document.getElementById("panels").hidden = false;
    p.querySelector(".lb-what").textContent = heading();
    p.querySelector(".lb-asof").textContent = "as of " + board.as_of;
    const ol = p.querySelector(".board");
    // column by column, as many columns as the width holds (a name and its points need
    // about 22 em), as many rows as the height holds: the best of the area that fit
    ol.style.gridTemplateRows = "";
    TC.fill(ol, rows().slice(0, 1));
    const li = ol.firstElementChild;
    const perCol = Math.max(3, Math.floor(ol.clientHeight / Math.max(1, li.offsetHeight)));
    const em = parseFloat(getComputedStyle(ol).fontSize) || 16;
    const cols = Math.max(1, Math.min(3, Math.floor(ol.clientWidth / (22 * em))));
    ol.style.gridTemplateRows = "repeat(" + perCol + ", auto)";
    TC.fill(ol, rows().slice(0, perCol * cols));
  }

  // the turns change without a snapshot; when the other panels come back, the big
  // screen fits them to their room again (big.js renders on "resize")
  setInterval(() => {
    if (!big || since === null || turnShown === ourTurn()) return;
    showBig();
    if (!turnShown) dispatchEvent(new Event("resize"));
  }, 1000);

  // ------------------------------------------------------------------ the players' page
  let card = null;
  function phoneCard() {
    if (card) return card;
    const foot = document.querySelector(".ph-foot");
    if (!foot) return null;
    card = el("section", {class: "card league", id: "league-card", hidden: true},
      el("h2", null, "League standings"),
      el("div", {class: "muted lb-what"}),
      el("ol", {class: "board"}),
      el("div", {class: "muted lb-asof"}));
    foot.before(card);
    return card;
  }

  function showPhone() {
    const c = phoneCard();
    if (!c) return;
    c.hidden = !(board.shown && board.rows.length > 0);
    if (c.hidden) return;
    c.querySelector(".lb-what").textContent = heading();
    c.querySelector(".lb-asof").textContent = "As of " + board.as_of +
      " (the league's standings as this venue last fetched them)";
    TC.fill(c.querySelector(".board"), rows());
  }

  function show() {
    if (big) showBig(); else showPhone();
  }

  let retry = null; // one pending retry after a refused or failed fetch
  async function load() {
    let ok = false;
    try {
      const r = await fetch("/api/leaderboard");
      if (r.ok) {
        board = await r.json();
        ok = true;
      }
    } catch (err) {
      // the host is away for a moment: keep what was shown
    }
    show();
    if (!ok && retry === null) {
      // refused (the room's rate limit at a page's first load) or away: again in 2 s,
      // not at the next refetch a minute later
      retry = setTimeout(() => {
        retry = null;
        load();
      }, 2000);
    }
  }

  document.addEventListener("tc-snapshot", (e) => {
    snap = e.detail;
    show();
  });
  addEventListener("resize", show);
  load();
  setInterval(load, REFETCH_MS);
})();
