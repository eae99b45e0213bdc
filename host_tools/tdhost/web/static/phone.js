// The players' phone page (docs/web.md §7): the clock, blinds and schedule, "find my seat"
// (GET /api/seat?name=…: table and seat, and where a moving player goes), the payouts when
// the tournament has money and the results once it is over. Public and read-only: it gets
// the same part of the snapshot as the big screen.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;
  let snap = null;

  function ordinal(n) {
    const t = n % 100, u = n % 10;
    const suf = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
    return n + suf;
  }

  function render(s) {
    snap = s;
    const c = s.clock, m = s.money;
    $("event").textContent = s.event || "";
    $("tname").textContent = s.tournament.name || "";
    $("h4h").hidden = !s.hand_for_hand;
    document.body.classList.toggle("on-break", !!c.is_break);
    const state = s.tournament.state;
    // the night is over: the winner instead of the clock (the places below, in Results)
    const over = state === "finished";
    const win = (s.results || []).filter((r) => r.place === 1).map((r) => r.name);
    $("level").textContent = over ? (win.length ? win.join(" & ") +
      (win.length > 1 ? " win" : " wins") : "Finished") : c.is_break ? "Break"
      : "Level " + (c.level === null ? "–" : c.level);
    document.body.classList.toggle("is-over", over);
    for (const id of ["time", "blinds-row", "avg-row", "schedule-card"]) $(id).hidden = over;
    $("left-label").textContent = over ? "Entries" : "Players left";
    const shown = c.is_break ? c.next : c;
    $("blinds-label").textContent = c.is_break ? "Next blinds" : "Blinds";
    $("blinds").textContent = shown && !shown.is_break ? TC.blinds(shown) : "–";
    // no ante: the blinds have the line to themselves (as on the big screen)
    $("ante").textContent = shown && shown.ante ? TC.chips(shown.ante) : "";
    $("ante-cell").hidden = !(shown && !shown.is_break && shown.ante);
    $("left").textContent = over ? String(s.players.entries) : s.players.entries
      ? s.players.left + " of " + s.players.entries : String(s.players.left || 0);
    $("avg").textContent = TC.chips(s.players.average_stack);
    $("colour").hidden = !c.colour_up || over;
    $("colour").textContent = c.colour_up || "";
    const rows = (s.schedule && s.schedule.levels) || [];
    TC.fill($("schedule"), rows.map((r) => el("li", {class: (r.now ? "now " : "") +
        (r.is_break ? "brk" : "")},
      el("span", {class: "lv", text: r.is_break ? "Break" : "Level " + r.level}),
      el("span", {class: "bl", text: r.is_break ? r.minutes + " min"
        : TC.blinds(r) + (r.ante ? " ante " + TC.chips(r.ante) : "")}),
      el("span", {class: "muted", text: r.now ? "now" : r.minutes + " min"}))));
    TC.fill($("chipups"), ((s.schedule && s.schedule.chip_ups) || []).map(
      (u) => el("li", {class: u.done ? "done" : "", text: u.text})));
    $("money-card").hidden = !m;
    if (m) {
      $("pool").textContent = m.pool;
      const bits = [m.entries + " entries at " + m.buy_in];
      if (m.rebuys) bits.push(m.rebuys + " re-buys");
      if (m.addons) bits.push(m.addons + " add-ons");
      if (m.bounty) bits.push(m.bounty.amount + " " + m.bounty.kind + " bounty on every player");
      $("money-line").textContent = bits.join(" · ");
      TC.fill($("payouts"), m.payouts.map((p) => el("li", null,
        el("span", {class: "pl", text: ordinal(p.place) + (p.tied ? "=" : "")}),
        el("span", {text: p.name || ""}), el("span", {class: "amt", text: p.text}))));
    }
    const res = s.results || [];
    $("results-card").hidden = res.length === 0;
    TC.fill($("results"), res.map((r) => el("li", null,
      el("span", {class: "pl", text: r.place ? ordinal(r.place) + (r.tied ? "=" : "") : ""}),
      el("span", {text: r.name}),
      r.prize ? el("span", {class: "amt", text: r.prize}) : null)));
    tick();
  }

  function tick() {
    if (!snap) return;
    $("time").textContent = TC.hms(TC.left(snap));
    $("paused").hidden = !snap.clock.paused || snap.tournament.state === "finished";
  }

  async function findSeat(e) {
    e.preventDefault();
    const name = $("seat-name").value.trim();
    const out = $("seat-out");
    try {
      const r = await fetch("/api/seat?name=" + encodeURIComponent(name));
      const j = await r.json();
      if (!r.ok) {
        TC.fill(out, [el("li", {class: "bad", text: j.error || "The host did not answer."})]);
        return;
      }
      TC.fill(out, j.found.map((f) => el("li", {class: f.moving_to ? "moving" : "",
                                               text: f.text})));
    } catch (err) {
      TC.fill(out, [el("li", {class: "bad", text: "No connection to the host: try again."})]);
    }
  }
  $("seat-form").addEventListener("submit", findSeat);

  TC.connect(render, (up) => {
    $("conn").className = "conn " + (up ? "up" : "down");
    $("conn").textContent = up ? "live" : "reconnecting…";
  });
  setInterval(tick, 500);
})();
