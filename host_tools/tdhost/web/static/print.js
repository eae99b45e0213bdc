// The TD's printouts (docs/web.md §9): seat cards (one a player, to hand out or put on the
// table), table sheets (the draw, a page a table), the results and the league table, from
// the console's snapshot; each button prints its part (the browser's dialog saves a PDF).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;

  function ordinal(n) {
    const t = n % 100, u = n % 10;
    const suf = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
    return n + suf;
  }

  function render(s) {
    const tname = s.tournament.name || "";
    $("tname").textContent = (s.event ? s.event + " · " : "") + tname;
    // seat cards: every player with a seat, by table and seat
    const seated = [];
    for (const t of s.tables || []) {
      if (t.broken) continue;
      for (const [seat, p] of Object.entries(t.seats || {})) {
        seated.push({table: t.table, seat: Number(seat), name: p.name});
      }
    }
    seated.sort((a, b) => a.table - b.table || a.seat - b.seat);
    TC.fill($("card-list"), seated.length ? seated.map((p) => el("div", {class: "card-seat"},
      el("div", {class: "where", text: "Table " + p.table + " · Seat " + p.seat}),
      el("div", {class: "who", text: p.name}),
      el("div", {class: "what", text: tname}))) :
      [el("p", {class: "empty", text: "Nobody is seated yet: the cards come with the draw."})]);
    // table sheets: each table's seats 1..N, empty ones marked
    const perTable = Math.max(8, ...((s.tables || []).map((t) =>
      Math.max(0, ...Object.keys(t.seats || {}).map(Number)))));
    TC.fill($("sheet-list"), (s.tables || []).filter((t) => !t.broken).map((t) => {
      const rows = [];
      for (let n = 1; n <= perTable; n++) {
        const p = (t.seats || {})[String(n)];
        rows.push(el("tr", null, el("td", {class: "num", text: String(n)}),
          p ? el("td", {text: p.name}) : el("td", {class: "empty", text: "empty"})));
      }
      return el("div", {class: "sheet"}, el("h2", null, "Table " + t.table),
        el("div", {class: "what", text: tname}),
        el("table", {class: "pr-table"}, el("thead", null, el("tr", null,
          el("th", {class: "num", text: "Seat"}), el("th", {text: "Player"}))),
        el("tbody", null, ...rows)));
    }));
    // results, with the prizes when the tournament has money
    const money = !!s.money;
    TC.fill($("result-table").tHead, [el("tr", null, el("th", {text: "Place"}),
      el("th", {text: "Player"}), el("th", {class: "num", text: "Points"}),
      money ? el("th", {class: "num", text: "Prize"}) : null)]);
    TC.fill($("result-table").tBodies[0], (s.results || []).map((r) => el("tr", null,
      el("td", {text: r.place ? ordinal(r.place) + (r.tied ? "=" : "") : "in play"}),
      el("td", {text: r.name}),
      el("td", {class: "num", text: r.points === null ? "" : String(r.points)}),
      money ? el("td", {class: "num", text: r.prize || ""}) : null)));
    TC.fill($("league-table").tBodies[0], (s.leaderboard || []).map((r) => el("tr", null,
      el("td", {text: String(r.rank)}), el("td", {text: r.name}),
      el("td", {class: "num", text: String(r.played)}),
      el("td", {class: "num", text: String(r.points)}))));
  }

  for (const b of document.querySelectorAll("[data-part]")) {
    if (b.tagName !== "BUTTON") continue;
    b.addEventListener("click", () => {
      document.body.dataset.part = b.dataset.part;
      window.print();
    });
  }
  window.addEventListener("afterprint", () => { delete document.body.dataset.part; });
  TC.connect(render, () => {});
})();
