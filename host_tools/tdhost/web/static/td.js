// The TD console (docs/web.md): every table with its seats and box link, the pending
// instructions, registration, standby, bust entry, the clock, results, league and the log
// with undo. Every button is one action of the host (POST /api/act/NAME with JSON); the
// page redraws from the snapshot the host sends after it (Server-Sent Events).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;
  let snap = null;
  let undoArmed = 0; // performance.now() until which a second `u` undoes

  // ---------------------------------------------------------------- actions

  function say(text, bad) {
    const m = $("msg");
    m.textContent = text;
    m.className = "msg " + (bad ? "bad" : "good");
  }

  async function act(name, args) {
    let r;
    try {
      r = await fetch("/api/act/" + name, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify(args || {}),
      });
    } catch (e) {
      say("The host does not answer (" + e.message + ").", true);
      return null;
    }
    let body = {};
    try { body = await r.json(); } catch (e) { /* not JSON */ }
    if (r.ok) { say(body.text || "Done.", false); return body; }
    say(body.error || "The host answered " + r.status + ".", true);
    return null;
  }

  const names = (text) => text.split(",").map((n) => n.trim()).filter((n) => n);

  function togglePause() {
    if (snap) act(snap.clock.paused ? "resume" : "pause", {});
  }
  function toggleH4H() {
    if (snap) act("hand_for_hand", {on: !snap.hand_for_hand});
  }
  function lastUndoable() {
    const log = snap ? snap.log || [] : [];
    for (let i = log.length - 1; i >= 0; i--) {
      if (!log[i].undone && log[i].action !== "undo") return log[i];
    }
    return null;
  }
  function undoKey() {
    if (performance.now() < undoArmed) {
      undoArmed = 0;
      act("undo", {});
      return;
    }
    const last = lastUndoable();
    undoArmed = performance.now() + 3000;
    say("Press u again to undo" + (last ? ": " + last.text : "."), false);
  }
  function addBust(name) {
    const box = $("bust-names");
    const have = names(box.value);
    if (!have.includes(name)) have.push(name);
    box.value = have.join(", ");
    box.focus();
  }

  // ----------------------------------------------------------------- render

  function linkPill(t) {
    return el("span", {class: "link " + t.link, text: t.link});
  }

  function tableCard(t) {
    if (t.broken) {
      return el("div", {class: "tcard broken", "data-table": t.table},
        el("div", {class: "thead"}, el("b", {text: "Table " + t.table}), " broken"));
    }
    const seats = t.seats || {};
    const seatNos = Object.keys(seats).map(Number).sort((a, b) => a - b);
    const rows = seatNos.map((n) => {
      const p = seats[String(n)];
      const badges = [];
      if (t.button === n) badges.push(el("i", {class: "b dealer", text: "D"}));
      if (t.sb === n) badges.push(el("i", {class: "b sb", text: "SB"}));
      if (t.bb === n) badges.push(el("i", {class: "b bb", text: "BB"}));
      if (p.away) badges.push(el("i", {class: "b away", text: "away"}));
      return el("li", {class: "seat" + (p.away ? " is-away" : ""), "data-name": p.name},
        el("span", {class: "no", text: n}),
        el("button", {type: "button", class: "name", title: "add to the bust entry",
          text: p.name, onclick: () => addBust(p.name)}),
        el("span", {class: "badges"}, ...badges),
        el("span", {class: "stack", text: p.stack === null ? "" : TC.chips(p.stack)}));
    });
    return el("div", {class: "tcard link-" + t.link, "data-table": t.table},
      el("div", {class: "thead"},
        el("b", {text: "Table " + t.table}),
        linkPill(t),
        el("span", {class: "ago", "data-contact": t.last_contact_ms === null ? "" : t.last_contact_ms}),
        el("span", {class: "box", text: t.box ? "box " + t.box : "no box"}),
        el("span", {class: "hand", text: t.hand === null ? "" : "hand " + t.hand})),
      el("ol", {class: "seats"}, ...rows),
      el("div", {class: "tfoot", text: seatNos.length + " players"}));
  }

  const place = (t, s) => (t === null || t === undefined ? "–" : s === null ? "T" + t : t + "." + s);
  const OPEN = ["queued", "sent", "acknowledged"];

  // The TD confirms an instruction carried out at the table. A move_out asks for the chips
  // the player left with: its receive (written once the move_out is done) takes them; blank:
  // the box's count, else the stack planned with the move (the host logs a notice then).
  function confirmRow(p) {
    if (p.action !== "move_out") {
      act("confirm", {id: p.id});
      return;
    }
    const v = window.prompt("Chips " + (p.player || "the player") + " left table " + p.table +
      " with (blank: the box's count)", "");
    if (v === null) return; // cancelled: nothing confirmed
    const given = v.replace(/[\s,]/g, "");
    if (given === "") {
      act("confirm", {id: p.id});
      return;
    }
    const n = Number(given);
    if (!/^[0-9]+$/.test(given) || n < 1) {
      say("Give the chips as a whole number from 1.", true);
      return;
    }
    act("confirm", {id: p.id, stack: n});
  }

  function pendingRows(list) {
    const open = list.filter((p) => OPEN.includes(p.state));
    const closed = list.filter((p) => !OPEN.includes(p.state)).slice(-5);
    return open.concat(closed).map((p) => el("tr", {class: "ins " + p.state, "data-id": p.id,
      title: p.text || ""},
      el("td", {text: p.action}),
      el("td", {text: p.player || ""}),
      // a receive's own seat is where the player goes (the table they leave is its move_out's);
      // a withdraw's, a deduct's and a take_out's is the seat concerned
      el("td", {text: p.action === "receive" ? "–" : place(p.table, p.seat)}),
      el("td", {text: p.action === "receive" ? place(p.table, p.seat) : place(p.to_table, p.to_seat)}),
      el("td", {}, el("span", {class: "pill st-" + p.state, text: p.state})),
      el("td", {class: "why", text: p.reason || ""}),
      el("td", {}, OPEN.includes(p.state)
        ? el("button", {type: "button", class: "small confirm", text: "Confirm",
          title: p.action === "move_out" ? "the player has left the table: give their chips"
            : "carried out at the table", onclick: () => confirmRow(p)})
        : null)));
  }

  function regRows(list) {
    return list.map((r) => el("tr", {"data-name": r.name},
      el("td", {}, r.name, r.member ? el("span", {class: "member", title: "league member", text: " ★"}) : null),
      el("td", {text: r.state}),
      el("td", {text: r.seat || ""}),
      el("td", {}, r.state === "absent" || r.state === "away"
        ? el("button", {type: "button", class: "small", text: "Arrived",
          onclick: () => act("arrive", {name: r.name})})
        : null)));
  }

  function standbyRows(list) {
    return list.map((r) => el("tr", {"data-name": r.name},
      el("td", {text: r.name}),
      el("td", {text: r.offered ? "offered " + r.offered : "waiting"}),
      el("td", {},
        el("button", {type: "button", class: "small", text: "Take seat",
          onclick: () => act("standby_take", {name: r.name})}), " ",
        el("button", {type: "button", class: "small", text: "Pass",
          onclick: () => act("standby_pass", {name: r.name})}))));
  }

  function render(s) {
    snap = s;
    const c = s.clock, t = s.tournament;
    document.title = "TD · " + (t.name || "Table Clock");
    $("tname").textContent = (s.event ? s.event + " · " : "") + (t.name || "");
    $("tstate").textContent = t.state;
    $("final").hidden = !s.final_table;
    $("level").textContent = c.is_break ? "Break" : "Level " + (c.level === null ? "–" : c.level);
    const shown = c.is_break ? c.next : c;
    $("blinds").textContent = !shown || shown.is_break ? "" : (c.is_break ? "next " : "") +
      TC.blinds(shown) + (shown.ante ? " ante " + TC.chips(shown.ante) : "");
    $("colour").hidden = !c.colour_up;
    $("colour").textContent = c.colour_up || "";
    $("players").textContent = s.players.left + " of " + s.players.entries + " left · avg " + TC.chips(s.players.average_stack);
    $("pause").textContent = c.paused ? "Resume" : "Pause";
    $("pause").classList.toggle("on", !!c.paused);
    $("h4h").textContent = "Hand-for-hand: " + (s.hand_for_hand ? "ON" : "off");
    $("h4h").classList.toggle("on", !!s.hand_for_hand);
    const last = lastUndoable();
    $("undo").disabled = !last;
    $("undo2").disabled = !last;
    $("undo").title = last ? "u u — undo: " + last.text : "nothing to undo";

    TC.fill($("tables"), (s.tables || []).map(tableCard));
    const pend = s.pending || [];
    TC.fill($("pending").tBodies[0], pendingRows(pend));
    $("pending").hidden = pend.length === 0;
    $("pending-none").hidden = pend.length !== 0;
    TC.fill($("moves"), (s.moves || []).slice().reverse().slice(0, 8).map((m) =>
      el("li", {}, el("b", {text: m.player}), " " + m.from + " → " + m.to + " ",
        el("span", {class: "age", "data-at": m.at_ms}))));
    $("moves-none").hidden = (s.moves || []).length !== 0;
    const out = (s.results || []).filter((r) => r.place !== null); // the players still in: no place
    $("results-none").hidden = out.length !== 0;
    $("results").hidden = out.length === 0;
    TC.fill($("reg").tBodies[0], regRows(s.registration || []));
    TC.fill($("standby").tBodies[0], standbyRows(s.standby || []));
    $("standby-none").hidden = (s.standby || []).length !== 0;
    TC.fill($("results").tBodies[0], out.map((r) => el("tr", {},
      el("td", {text: r.place}), el("td", {text: r.name}),
      el("td", {text: r.points === null ? "" : r.points}))));
    TC.fill($("league").tBodies[0], (s.leaderboard || []).slice(0, 12).map((r) => el("tr", {},
      el("td", {text: r.rank}), el("td", {text: r.name}), el("td", {text: r.points}),
      el("td", {text: r.played}))));
    TC.fill($("log"), (s.log || []).slice().reverse().map((e) =>
      el("li", {class: e.undone ? "undone" : "", value: e.seq},
        el("span", {class: "act", text: e.action}), " " + e.text)));
    find();
    tick();
  }

  function tick() {
    if (!snap) return;
    $("time").textContent = TC.hms(TC.left(snap));
    $("paused").hidden = !snap.clock.paused;
    const now = TC.nowMs(snap);
    for (const a of document.querySelectorAll(".ago")) {
      const at = a.dataset.contact;
      a.textContent = at === "" ? "never" : TC.age(now - Number(at));
    }
    for (const a of document.querySelectorAll("#moves .age")) {
      const t = TC.age(now - Number(a.dataset.at));
      a.textContent = t === "now" ? t : t + " ago";
    }
  }

  // ------------------------------------------------------------ find a player

  function find() {
    const q = $("search").value.trim().toLowerCase();
    let first = null;
    for (const n of document.querySelectorAll("[data-name]")) {
      const hit = q !== "" && n.dataset.name.toLowerCase().includes(q);
      n.classList.toggle("hit", hit);
      if (hit && !first && n.classList.contains("seat")) first = n;
    }
    return first;
  }

  $("search").addEventListener("input", () => {
    const first = find();
    if (first) first.scrollIntoView({block: "nearest"});
  });
  $("search").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const first = find();
    if (first) {
      addBust(first.dataset.name);
      $("search").value = "";
      find();
    }
  });

  // ------------------------------------------------------------------ forms

  function onSubmit(id, fn) {
    $(id).addEventListener("submit", async (e) => {
      e.preventDefault();
      await fn();
    });
  }

  onSubmit("bust-form", async () => {
    const who = names($("bust-names").value);
    if (!who.length) { say("Type the name of the player who is out.", true); return; }
    const args = {names: who};
    const chips = $("bust-chips").value.trim();
    if (chips) args.chips = chips.split(",").map((x) => parseInt(x.replace(/[^0-9]/g, ""), 10));
    if (await act("bust", args)) { $("bust-names").value = ""; $("bust-chips").value = ""; }
  });
  onSubmit("level-form", async () => {
    const n = parseInt($("level-no").value, 10);
    if (!(n >= 1)) { say("Type the level number to go to.", true); return; }
    if (await act("level", {level: n})) $("level-no").value = "";
  });
  onSubmit("reg-form", async () => {
    const who = names($("reg-names").value);
    if (!who.length) { say("Type the names to register.", true); return; }
    if (await act("register", {names: who, member: $("reg-member").checked})) $("reg-names").value = "";
  });
  onSubmit("late-form", async () => {
    const who = $("late-name").value.trim();
    if (!who) { say("Type the latecomer's name.", true); return; }
    if (await act("late", {name: who, member: $("late-member").checked})) $("late-name").value = "";
  });
  onSubmit("draw-form", async () => {
    const args = {ace8: $("draw-ace8").checked};
    const seed = $("draw-seed").value.trim();
    if (seed) args.seed = parseInt(seed, 10);
    await act("draw", args);
  });
  onSubmit("start-form", async () => {
    await act("start", {absent: names($("start-absent").value), away: names($("start-away").value)});
  });
  onSubmit("sb-form", async () => {
    const who = $("sb-name").value.trim();
    if (!who) { say("Type the name for the standby list.", true); return; }
    if (await act("standby_add", {name: who})) $("sb-name").value = "";
  });
  $("final-draw").addEventListener("click", () => {
    const seed = $("draw-seed").value.trim();
    act("final_draw", seed ? {seed: parseInt(seed, 10)} : {});
  });
  $("pause").addEventListener("click", togglePause);
  $("minus").addEventListener("click", () => act("adjust", {seconds: -60}));
  $("plus").addEventListener("click", () => act("adjust", {seconds: 60}));
  $("h4h").addEventListener("click", toggleH4H);
  $("undo").addEventListener("click", () => act("undo", {}));
  $("undo2").addEventListener("click", () => act("undo", {}));

  // --------------------------------------------------------------- keyboard

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" ||
      t.tagName === "SELECT" || t.isContentEditable);
    if (typing) {
      if (e.key === "Escape") t.blur();
      return;
    }
    switch (e.key) {
      case " ": e.preventDefault(); togglePause(); break;
      case "b": e.preventDefault(); $("bust-names").focus(); break;
      case "h": toggleH4H(); break;
      case "u": undoKey(); break;
      case "/": e.preventDefault(); $("search").focus(); break;
      case "+": case "=": act("adjust", {seconds: 60}); break;
      case "-": act("adjust", {seconds: -60}); break;
      default: return;
    }
  });

  function link(up) {
    $("conn").className = "conn " + (up ? "up" : "down");
    $("conn").textContent = up ? "live" : "reconnecting…";
  }

  TC.connect(render, link);
  setInterval(tick, 250);
})();
