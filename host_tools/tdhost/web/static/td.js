// The TD console (docs/web.md): every table with its seats and box link, the instructions
// in words, the Wi-Fi notes (refused logins, boxes to pair again), registration, standby,
// bust entry, the clock, results, league and the log with the TD's own undo and redo.
// Every button is one action of the host (POST /api/act/NAME with JSON); the page redraws
// from the snapshot the host sends after it (Server-Sent Events). Nothing acts on a key
// alone: no keyboard shortcuts, and a button clicked with the mouse gives the focus back,
// so typing afterwards presses nothing. Room-wide and destructive actions ask first in a
// dialog that says what will happen (docs/web.md §4).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = TC.el;
  let snap = null;

  // ---------------------------------------------------------------- actions

  function say(text, bad) {
    const m = $("msg");
    m.textContent = text;
    m.className = "msg " + (bad ? "bad" : "good");
  }

  // The host's look before the question (POST /api/check/NAME: bust, level, register,
  // reenter, final_draw): the answer ({ok, names?, doubts?}) when it would take the action, else null
  // with its sentence said: the console asks "Are you sure?" only for what the host will
  // accept.
  function check(name, args) {
    return act(name, args, "/api/check/");
  }

  async function act(name, args, path) {
    let r;
    try {
      r = await fetch((path || "/api/act/") + name, {
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
    if (r.ok) { if (!path) say(body.text || "Done.", false); return body; }
    say(body.error ? body.error[0].toUpperCase() + body.error.slice(1) +
      (/[.!?]$/.test(body.error) ? "" : ".") : "The host answered " + r.status + ".", true);
    return null;
  }

  // ask({title, text, yes, note, field: {label, value}}) -> Promise of null (cancelled) or
  // {value}: the dialog says exactly what will happen; Cancel has the focus, Esc cancels.
  function ask(o) {
    const d = $("ask");
    $("ask-title").textContent = o.title;
    $("ask-text").textContent = o.text;
    $("ask-note").textContent = o.note || "";
    $("ask-note").hidden = !o.note;
    $("ask-yes").textContent = o.yes || "Do it";
    $("ask-field").hidden = !o.field;
    $("ask-label").textContent = o.field ? o.field.label : "";
    $("ask-input").value = o.field ? o.field.value || "" : "";
    d.returnValue = "";
    return new Promise((resolve) => {
      if (answerTo) answerTo(null); // (a question left open: no)
      answerTo = resolve;
      // the browser gives the focus back, on closing, to what had it before: nothing, so
      // that typing afterwards presses no button
      if (document.activeElement && document.activeElement !== document.body) {
        document.activeElement.blur();
      }
      d.showModal();
      (o.field ? $("ask-input") : $("ask-no")).focus();
    });
  }
  // A "close" event comes after the closing: the one of a question answered just now may
  // arrive while the next is open; it is not that one's answer.
  let answerTo = null;
  $("ask").addEventListener("close", () => {
    const d = $("ask");
    if (d.open || !answerTo) return;
    const r = answerTo;
    answerTo = null;
    r(d.returnValue === "yes" ? {value: $("ask-input").value} : null);
  });
  $("ask-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); $("ask").close("yes"); }
  });

  const names = (text) => text.split(",").map((n) => n.trim()).filter((n) => n);
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  const list = (xs) => xs.length <= 1 ? xs.join("") :
    xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
  const ordinal = (n) => {
    const s = (n % 100 >= 11 && n % 100 <= 13) ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th");
    return n + s;
  };
  const tablesText = (ts) => (ts.length === 1 ? "table " : "tables ") + ts.join(", ");

  function playing() {
    return (snap.tables || []).filter((t) => !t.broken && Object.keys(t.seats || {}).length);
  }

  // where a player sits now: {table, seat, stack, inHand} or null
  function seatOf(name) {
    const key = name.toLowerCase();
    for (const t of snap.tables || []) {
      for (const [n, p] of Object.entries(t.seats || {})) {
        if (p.name.toLowerCase() === key) {
          return {name: p.name, table: t.table, seat: Number(n), stack: p.stack, inHand: !!t.in_hand};
        }
      }
    }
    return null;
  }

  function leftText(c) {
    return TC.hms(TC.left(snap)) + " of " + (c.is_break ? "the break" : "level " + c.level);
  }

  async function togglePause() {
    if (snap) await act(snap.clock.paused ? "resume" : "pause", {});
  }

  async function toggleH4H() {
    if (!snap) return;
    const on = !snap.hand_for_hand;
    const ts = playing().map((t) => t.table);
    const ok = await ask(on ? {
      title: "Hand for hand",
      text: "Hand for hand at " + tablesText(ts) + ": each table finishes the hand it is " +
        "playing and waits; all deal the next hand together. Every box shows it.",
      yes: "Start hand for hand",
    } : {
      title: "End hand for hand",
      text: "Hand for hand ends: every table plays on at its own pace. Every box shows it.",
      yes: "End hand for hand",
    });
    if (ok) await act("hand_for_hand", {on: on});
  }

  async function undo() {
    if (!snap || !snap.undo) return;
    const u = snap.undo;
    const ok = await ask({title: "Undo", text: u.text, yes: "Undo",
      note: "You can redo it afterwards."});
    if (ok) await act("undo", {n: u.n});
  }

  async function redo() {
    if (!snap || !snap.redo) return;
    const r = snap.redo;
    const ok = await ask({title: "Redo", text: r.text, yes: "Do it again"});
    if (ok) await act("redo", {n: r.n});
  }

  function addBust(name) {
    const box = $("bust-names");
    const have = names(box.value);
    if (!have.includes(name)) have.push(name);
    box.value = have.join(", ");
    box.focus();
  }

  // ----------------------------------------------------------------- render

  function linkWord(t) {
    return {live: "box live", configured: "box linked", offline: "box offline",
      unknown: "box unknown", none: "no box"}[t.link] || t.link;
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
        el("button", {type: "button", class: "name", title: "put in the bust box",
          text: p.name, onclick: () => addBust(p.name)}),
        el("span", {class: "badges"}, ...badges),
        el("span", {class: "stack", text: p.stack === null ? "–" : TC.chips(p.stack)}));
    });
    return el("div", {class: "tcard link-" + t.link, "data-table": t.table},
      el("div", {class: "thead"},
        el("b", {text: "Table " + t.table}),
        el("span", {class: "link " + t.link, text: linkWord(t)}),
        el("span", {class: "ago", "data-contact": t.last_contact_ms === null ? "" : t.last_contact_ms}),
        el("span", {class: "hand", text: t.hand === null || t.hand === undefined ? "" :
          t.hand === 0 && !t.in_hand ? "no hand yet" :
          "hand " + t.hand + (t.in_hand ? " (playing)" : "")})),
      el("ol", {class: "seats"}, ...rows),
      el("div", {class: "tfoot"}, el("span", {class: "who", text:
        plural(seatNos.length, "player", "players") + (t.box ? " · " + t.box : "")}), " ",
        el("button", {type: "button", class: "small", text: "Move box…",
          title: "give this table another box", onclick: () => moveBox(t)})));
  }

  // Another box serves this table (a spare for a broken box): the host then refuses the
  // box's hello for any other table (docs/live.md "Which box serves which table").
  async function moveBox(t) {
    const ok = await ask({title: "Move a box to table " + t.table,
      text: "The box you name serves table " + t.table + " from now on: it gets this " +
        "table's set-up, and the host refuses it for any other table.",
      yes: "Move box", field: {label: "Box id (on its screen, e.g. tc-09)", value: ""}});
    if (!ok || !ok.value.trim()) return;
    await act("move_box", {box: ok.value.trim(), table: t.table});
  }

  // The TD confirms an instruction carried out at the table; a player's move out of a table
  // asks for the chips they left with, and is not confirmed without them.
  async function confirmRow(p) {
    const words = p.words || p.text || "this instruction";
    const leaving = p.action === "move_out";
    const o = {title: "Done at the table?", text: "Confirm: " + words + ".",
      yes: "Confirm", note: p.action === "break_table"
        ? "Its players must have left table " + p.table + " for their new seats." : ""};
    if (leaving) {
      o.field = {label: "Chips " + (p.player || "the player") + " left table " + p.table +
        " with (count them: needed)", value: ""};
    }
    let ok = await ask(o);
    if (!ok) return;
    if (!leaving) { await act("confirm", {id: p.id}); return; }
    // a move needs the chips counted: asked again until given (Cancel: nothing happens)
    let given = ok.value.replace(/[\s,]/g, "");
    while (!/^[0-9]+$/.test(given) || Number(given) < 1) {
      o.note = "Count the chips " + (p.player || "the player") + " takes along: a whole " +
        "number from 1. Without it nothing is recorded.";
      ok = await ask(o);
      if (!ok) return;
      given = ok.value.replace(/[\s,]/g, "");
    }
    await act("confirm", {id: p.id, stack: Number(given)});
  }

  const OPEN = ["queued", "sent", "acknowledged", "refused"];

  function pendingRows(list) {
    // finished and called-off instructions leave the list (a move's first half once done:
    // its second half's line carries the move on)
    return list.filter((p) => OPEN.includes(p.state))
      .map((p) => el("li", {class: "ins st-" + p.state, "data-id": p.id},
        el("span", {class: "words", text: p.words || p.text || ""}),
        p.why ? el("span", {class: "why", text: p.why}) : null,
        el("button", {type: "button", class: "small confirm",
          text: "Confirm…", title: "carried out at the table", onclick: () => confirmRow(p)})));
  }

  // The seat check (docs/live.md): the box shows a player in a seat where the league seats
  // nobody. After asking the dealer, the TD clears the seat at the box (asked first: the
  // chips leave play).
  function boxOnlyRows(list) {
    return list.map((x) => el("li", {class: "ins st-box-only", "data-seat": x.table + "." + x.seat},
      el("span", {class: "words", text: "Table " + x.table + " seat " + x.seat +
        ": the box shows a player" + (x.chips ? " with " + TC.chips(x.chips) +
        " chips" : "") + " the league does not seat there"}),
      el("span", {class: "why", text: "ask the dealer who sits there"}),
      el("button", {type: "button", class: "small danger", text: "Clear seat…",
        onclick: () => clearSeat(x)})));
  }

  async function clearSeat(x) {
    const chips = x.chips ? " with their " + TC.chips(x.chips) + " chips" : "";
    const ok = await ask({title: "Clear table " + x.table + " seat " + x.seat + " at the box",
      text: "The box at table " + x.table + " takes the player in seat " + x.seat + " out" +
        chips + ", once the dealer confirms: those chips leave play. The league seats nobody " +
        "there.",
      note: "Ask the dealer who sits there first: a player the league knows elsewhere is " +
        "moved there by hand instead.",
      yes: "Clear seat " + x.seat});
    if (ok) await act("clear_seat", {seat: x.table + "." + x.seat});
  }

  function regRows(list) {
    return list.map((r) => el("tr", {"data-name": r.name, class: r.not_at_box ? "not-at-box" : ""},
      el("td", {}, r.name, r.member ? el("span", {class: "member", title: "league member", text: " ★"}) : null),
      el("td", {text: r.state === "in" ? (snap.tournament.state === "finished" ? "winner"
        : r.not_at_box ? "not on the box" : "playing") : r.state}),
      el("td", {text: seatWords(r.seat)}),
      el("td", {class: "record", text: r.record_text || ""}),
      el("td", {}, ...regButtons(r))));
  }

  // What the TD may do about a player of the list: the arrival of one not seated at the
  // start, the seat check's "seat at the box", taking back a registration made in error
  // (a player not yet out: registered, or never seated), a re-entry where the file allows it.
  function regButtons(r) {
    const out = [];
    const button = (text, onclick) => el("button", {type: "button", class: "small", text, onclick});
    if (r.state === "absent" || r.state === "away" || (r.state === "in" && r.absent)) {
      out.push(button("Arrived", () => act("arrive", {name: r.name})));
    } else if (r.not_at_box) {
      out.push(button("Seat at the box…", () => seatAtBox(r)));
    }
    if (r.state === "registered" || ((r.state === "in" || r.state === "absent" ||
        r.state === "away") && r.absent)) {
      out.push(button("Unregister…", () => unregister(r)));
    }
    const re = snap && snap.reentry;
    if (r.state === "out" && re && re.max > (r.reentries || 0) && snap.tournament.state === "running") {
      out.push(button("Re-enter…", () => reenter(r)));
    }
    return out.flatMap((b, i) => i ? [" ", b] : [b]);
  }

  async function unregister(r) {
    const ok = await ask({title: "Unregister " + r.name,
      text: r.name + " is taken off the tournament" + (r.seat ? "; " + seatWords(r.seat) +
        " is free" : "") + ".", note: "Undo takes it back.", yes: "Unregister " + r.name});
    if (ok) await act("unregister", {name: r.name});
  }

  async function reenter(r) {
    const re = snap.reentry;
    // the file's rule decides (how many, until which level): asked only when it allows it
    if (!await check("reenter", {name: r.name})) return;
    say("", false);
    const ok = await ask({title: "Re-enter " + r.name,
      text: r.name + " buys a new entry: a new seat and the starting stack. It counts as an " +
        "entry of its own.", note: "Up to " + re.max + " a player, until the end of level " +
        re.until_level + ". Undo takes it back.", yes: "Re-enter " + r.name});
    if (ok) await act("reenter", {name: r.name});
  }

  // The seat check (docs/live.md): the league seats r.name where the box shows nobody. The
  // TD has counted their chips at the table; the box seats them again when the dealer confirms.
  async function seatAtBox(r) {
    const ok = await ask({title: "Seat at the box",
      text: "The box at " + seatWords(r.seat) + " seats " + r.name + " again with the chips " +
        "you counted at the table, once the dealer confirms.",
      note: "If " + r.name + " is out, bust them instead.",
      yes: "Seat " + r.name,
      field: {label: "Chips " + r.name + " has at the table", value: ""}});
    if (!ok) return;
    const given = ok.value.replace(/[\s,]/g, "");
    if (!/^[0-9]+$/.test(given) || Number(given) < 1) {
      say("Give the chips as a whole number from 1.", true);
      return;
    }
    await act("seat_at_box", {name: r.name, stack: Number(given)});
  }

  function standbyRows(list) {
    return list.map((r) => el("tr", {"data-name": r.name},
      el("td", {text: r.name}),
      el("td", {text: r.offered ? "offered " + seatWords(r.offered) : "waiting"}),
      el("td", {},
        el("button", {type: "button", class: "small", text: "Take seat",
          onclick: () => act("standby_take", {name: r.name})}), " ",
        el("button", {type: "button", class: "small", text: "Pass",
          onclick: () => act("standby_pass", {name: r.name})}))));
  }

  // "2.4" -> "table 2 seat 4"
  const seatWords = (ts) => (ts || "").replace(/^(\d+)\.(\d+)$/, "table $1 seat $2");

  const STATE = {registration: "registration", drawn: "seats drawn", running: "in play",
    finished: "finished"};

  function render(s) {
    snap = s;
    const c = s.clock, t = s.tournament;
    const setup = t.state === "registration" || t.state === "drawn";
    document.title = "TD · " + (t.name || "Table Clock");
    document.body.dataset.phase = t.state;
    $("tname").textContent = (s.event ? s.event + " · " : "") + (t.name || "");
    $("tstate").textContent = STATE[t.state] || t.state;
    $("final").hidden = !s.final_table || t.state === "finished";
    $("level").textContent = c.is_break ? "Break" : "Level " + (c.level === null ? "–" : c.level);
    const shown = c.is_break ? c.next : c;
    $("blinds").textContent = !shown || shown.is_break ? "" : (c.is_break ? "next " : "") +
      TC.blinds(shown) + (shown.ante ? " ante " + TC.chips(shown.ante) : "");
    $("colour").hidden = !c.colour_up;
    $("colour").textContent = c.colour_up || "";
    $("players").textContent = s.players.left + " of " + s.players.entries + " left" +
      (s.players.average_stack ? " · avg " + TC.chips(s.players.average_stack) : "");
    // the night is over: the winner where the level was, no clock and no clock controls
    // (a night finished at the command line and served afterwards too; issue #31)
    const over = t.state === "finished";
    document.body.classList.toggle("is-over", over);
    if (over) {
      const win = (s.results || []).filter((x) => x.place === 1).map((x) => x.name);
      $("level").textContent = win.length ? win.join(" & ") + (win.length > 1 ? " win" : " wins")
        : "Finished";
      $("blinds").textContent = "";
      $("colour").hidden = true;
      $("players").textContent = s.players.entries + " entries";
    }
    $("time").hidden = over;
    for (const id of ["pause", "minus", "plus", "h4h", "level-form"]) $(id).hidden = over;
    const stopped = c.paused && t.state === "running"; // before the start: not "paused"
    $("pause").textContent = stopped ? "Resume" : "Pause";
    $("pause").classList.toggle("on", stopped);
    $("h4h").textContent = "Hand for hand: " + (s.hand_for_hand ? "on" : "off");
    $("h4h").classList.toggle("on", !!s.hand_for_hand);
    $("h4h-line").hidden = !s.hand_for_hand;
    $("h4h-line").textContent = s.hand_for_hand_text || (s.hand_for_hand ? "Hand for hand" : "");
    for (const id of ["pause", "minus", "plus", "h4h"]) $(id).disabled = t.state !== "running";
    $("level-form").querySelector("button").disabled = t.state !== "running";
    const u = s.undo || null, r = s.redo || null;
    $("undo").disabled = !u;
    $("undo").dataset.n = u ? u.n : "";
    $("undo").textContent = u ? u.text.split(" — ")[0] : "Undo";
    $("undo").title = u ? u.text : "nothing of yours to undo";
    $("redo").hidden = !r;
    $("redo").textContent = r ? "Redo" : "Redo";
    $("redo").title = r ? r.text : "";

    // the night's phases: setup before the start, bust and late entries once in play
    $("setup").hidden = !setup;
    $("draw-form").querySelector("button").textContent = t.state === "drawn" ? "Draw again" : "Draw seats";
    $("start-form").hidden = t.state !== "drawn";
    $("bust-card").hidden = t.state !== "running";
    $("late-form").hidden = t.state !== "running";
    $("sb-form").hidden = t.state === "finished";
    $("more").hidden = t.state !== "running" || s.final_table;

    // once the night is over, only the winner's table: the empty ones are done with
    TC.fill($("tables"), (s.tables || []).filter((x) => !over ||
      Object.keys(x.seats || {}).length).map(tableCard));
    // once the night is over nothing waits at the tables: no seat to clear or to take
    const pend = over ? [] : boxOnlyRows(s.box_only || []).concat(pendingRows(s.pending || []));
    TC.fill($("pending"), pend);
    $("pending-none").hidden = pend.length !== 0;
    $("pending-none").textContent = over ? "Nothing waits at the tables: the tournament is over."
      : "No instructions waiting.";
    TC.fill($("moves"), (over ? [] : s.moves || []).slice().reverse().slice(0, 6).map((m) =>
      el("li", {}, el("b", {text: m.player}), ": " + seatWords(m.from) + " → " +
        seatWords(m.to) + " ", el("span", {class: "age", "data-at": m.at_ms}))));
    $("moves-none").hidden = !over && (s.moves || []).length !== 0;
    $("moves-none").textContent = over ? "The tournament is over." : "No seat moves yet.";
    // refused broker logins and boxes to pair again (docs/web.md §4), newest first
    const wifi = s.wifi || [];
    $("wifi-card").hidden = wifi.length === 0;
    TC.fill($("wifi"), wifi.map((w) => el("li", {},
      w.text + (w.times > 1 ? " (" + w.times + " times)" : "") + " ",
      el("span", {class: "age", "data-at": w.at_ms}))));
    // the pushes to the league server (docs/league.md "Pushing during the night")
    const lp = s.league;
    $("league-card").hidden = !lp;
    if (lp) {
      const waits = lp.waiting === null ? "" : lp.waiting === 0 ? " Nothing waits." :
        " " + lp.waiting + (lp.waiting === 1 ? " event waits" : " events wait") + " for the next push.";
      TC.fill($("league-push"), [(lp.ok ? "" : "Not pushed: ") + lp.text + waits + " ",
        lp.at_ms === null ? "" : el("span", {class: "age", "data-at": lp.at_ms})]);
    }
    // what the league tells this venue after a push or a pull (docs/league.md "Clashes")
    const notices = s.league_notices || [];
    $("notices-card").hidden = notices.length === 0;
    TC.fill($("notices"), notices.map((n) => el("li", {class: "warn", text: n})));
    TC.fill($("rulings"), (s.rulings || []).map((r) => el("li", {text: r})));
    const out = (s.results || []).filter((x) => x.place !== null); // the players still in: no place
    $("results-none").hidden = out.length !== 0;
    $("results").hidden = out.length === 0;
    TC.fill($("reg").tBodies[0], regRows(s.registration || []));
    TC.fill($("standby").tBodies[0], standbyRows(s.standby || []));
    const money = !!s.money; // a free tournament: no prize column
    $("results-prize").hidden = !money;
    TC.fill($("results").tBodies[0], out.map((x) => el("tr", {},
      el("td", {text: x.place + (x.tied ? "=" : "")}), el("td", {text: x.name}),
      el("td", {text: x.points === null ? "" : x.points}),
      money ? el("td", {text: x.prize || ""}) : null)));
    TC.fill($("league").tBodies[0], (s.leaderboard || []).slice(0, 12).map((x) => el("tr", {},
      el("td", {text: x.rank}), el("td", {text: x.name}), el("td", {text: x.points}),
      el("td", {text: x.played}))));
    TC.fill($("log"), (s.log || []).slice().reverse().map((e) =>
      el("li", {class: e.undone ? "undone" : "", "data-seq": e.seq},
        e.time ? el("span", {class: "when", text: e.time}) : null,
        e.who ? el("span", {class: "who", text: e.who}) : null,
        " " + e.text)));
    find();
    tick();
  }

  function tick() {
    if (!snap) return;
    $("time").textContent = TC.hms(TC.left(snap));
    $("paused").hidden = !snap.clock.paused || snap.tournament.state !== "running";
    const now = TC.nowMs(snap);
    for (const a of document.querySelectorAll(".ago")) {
      const at = a.dataset.contact;
      a.textContent = at === "" ? "never heard" : "heard " + TC.age(now - Number(at)) + (TC.age(now - Number(at)) === "now" ? "" : " ago");
    }
    for (const a of document.querySelectorAll("#moves .age, #wifi .age, #league-push .age")) {
      const x = TC.age(now - Number(a.dataset.at));
      a.textContent = x === "now" ? x : x + " ago";
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
    const typed = names($("bust-names").value);
    if (!typed.length) { say("Type the name of the player who is out.", true); return; }
    const args = {names: typed};
    const chips = $("bust-chips").value.trim();
    if (chips) args.chips = chips.split(",").map((x) => parseInt(x.replace(/[^0-9]/g, ""), 10));
    // each name resolved to one player by the host, and the bust checked, before asking
    const checked = await check("bust", args);
    if (!checked) return;
    const who = checked.names || typed;
    args.names = who;
    say("", false);
    const at = who.map(seatOf);
    const left = snap.players.left;
    const parts = who.map((n, i) => {
      const p = at[i];
      const where = p ? " (table " + p.table + " seat " + p.seat +
        (p.stack !== null && p.stack !== undefined ? ", " + TC.chips(p.stack) + " chips" : "") + ")" : "";
      return (p ? p.name : n) + where;
    });
    const place = who.length === 1 ? " in " + ordinal(left) + " place of " + snap.players.entries
      : " in the same hand, places " + (left - who.length + 1) + " to " + left +
        (args.chips ? " by their chips at the hand's start" : "");
    const live = at.filter((p) => p && p.inHand).map((p) => p.table);
    const ok = await ask({
      title: "Bust",
      text: list(parts) + (who.length === 1 ? " is" : " are") + " out" + place + ". " +
        (at.some((p) => p) ? "Their box takes the seat out." : ""),
      note: live.length ? "Table " + live.join(", ") + " is playing a hand: enter a bust once " +
        "the player has lost their last chip; the box takes the seat out when the hand ends." : "",
      yes: who.length === 1 ? "Out" : "All out",
    });
    if (!ok) return;
    if (await act("bust", args)) { $("bust-names").value = ""; $("bust-chips").value = ""; }
  });
  onSubmit("level-form", async () => {
    const n = parseInt($("level-no").value, 10);
    if (!(n >= 1)) { say("Type the level number to go to.", true); return; }
    if (!await check("level", {level: n})) return; // no such level, or not now: said
    say("", false);
    const c = snap.clock;
    const ok = await ask({title: "Go to level " + n,
      text: "Level " + n + " starts now, at its full time, on every box and the big screen; " +
        "the " + leftText(c) + " left " + (c.paused ? "stays paused" : "is dropped") + ".",
      yes: "Go to level " + n});
    if (ok && await act("level", {level: n})) $("level-no").value = "";
  });
  // Register: a name that may be a player already in (accents, a close spelling) is asked
  // about before anything is written; a member number goes with one name (the CLI's
  // --member-no), checked by the host as the CSV import checks it.
  onSubmit("reg-form", async () => {
    const who = names($("reg-names").value);
    if (!who.length) { say("Type the names to register.", true); return; }
    const args = {names: who, member: $("reg-member").checked};
    const no = $("reg-no").value.trim();
    if (no) args.member_no = no;
    const checked = await check("register", args);
    if (!checked) return;
    say("", false);
    const doubts = checked.doubts || [];
    if (doubts.length) {
      const ok = await ask({title: doubts.length === 1 ? "Another player?" : "Other players?",
        text: doubts.map((d) => d.why + ".").join(" "),
        note: "Register " + doubts.map((d) => d.name).join(" and ") +
          " as another player only if they are; Cancel registers nobody.",
        yes: "Register " + (who.length === 1 ? who[0] : who.length + " players")});
      if (!ok) return;
      args.allow_duplicate = doubts.map((d) => d.name);
    }
    if (await act("register", args)) { $("reg-names").value = ""; $("reg-no").value = ""; }
  });
  onSubmit("late-form", async () => {
    const who = $("late-name").value.trim();
    if (!who) { say("Type the latecomer's name.", true); return; }
    const args = {name: who, member: $("late-member").checked};
    const no = $("late-no").value.trim(); // the member number, as on the member's card
    if (no) args.member_no = no;
    if (await act("late", args)) { $("late-name").value = ""; $("late-no").value = ""; }
  });
  onSubmit("ruling-form", async () => {
    const who = $("ruling-name").value.trim(), decision = $("ruling-decision").value.trim();
    if (!who || !decision) { say("Type the player and the decision they dispute.", true); return; }
    const args = {name: who, decision: decision};
    const reasons = $("ruling-reasons").value.trim();
    if (reasons) args.reasons = reasons;
    if (await act("ruling", args)) {
      for (const id of ["ruling-name", "ruling-decision", "ruling-reasons"]) $(id).value = "";
    }
  });
  onSubmit("draw-form", async () => {
    const args = {ace8: $("draw-ace8").checked};
    const seed = $("draw-seed").value.trim();
    if (seed) args.seed = parseInt(seed, 10);
    const n = (snap.registration || []).filter((r) => r.state === "registered").length;
    if (snap.tournament.state === "drawn") {
      args.again = true;
      const ok = await ask({title: "Draw again",
        text: "The seats are drawn already. Draw again" + (seed ? " with seed " + seed : "") +
          ": every player gets a new seat and every box the new seating.", yes: "Draw again"});
      if (!ok) return;
    } else if (!n) {
      say("Register the players first.", true);
      return;
    }
    await act("draw", args);
  });
  onSubmit("start-form", async () => {
    const absent = names($("start-absent").value), away = names($("start-away").value);
    const n = (snap.registration || []).length;
    const ok = await ask({title: "Shuffle up and deal",
      text: "Start the tournament: the clock starts level 1 (" + TC.blinds(snap.clock) +
        ", " + TC.hms(snap.clock.ms_left) + ") on every box and the big screen for " +
        plural(n, "player", "players") + "." +
        (absent.length ? " Absent: " + list(absent) + "." : "") +
        (away.length ? " Away: " + list(away) + "." : ""),
      yes: "Shuffle up and deal"});
    if (ok) await act("start", {absent: absent, away: away});
  });
  onSubmit("sb-form", async () => {
    const who = $("sb-name").value.trim();
    if (!who) { say("Type the name for the standby list.", true); return; }
    if (await act("standby_add", {name: who})) $("sb-name").value = "";
  });
  onSubmit("final-form", async () => {
    const seed = $("final-seed").value.trim();
    const args = seed ? {seed: parseInt(seed, 10)} : {};
    if (!await check("final_draw", args)) return; // too many left, drawn already: said
    say("", false);
    const ts = playing().map((t) => t.table);
    const ok = await ask({title: "Final-table draw",
      text: "Draw the final table now: the " + snap.players.left + " players left get new " +
        "seats at one table; " + (ts.length > 1 ? "the other tables break; " : "") +
        "every box gets its instruction (" + tablesText(ts) + ").",
      yes: "Draw the final table"});
    if (ok) await act("final_draw", args);
  });
  $("pause").addEventListener("click", togglePause);
  $("minus").addEventListener("click", () => act("adjust", {seconds: -60}));
  $("plus").addEventListener("click", () => act("adjust", {seconds: 60}));
  $("h4h").addEventListener("click", toggleH4H);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);

  // A button pressed with the pointer gives the focus back: a key typed afterwards (Space,
  // Enter) presses nothing. Keyboard users still reach every button with Tab.
  document.addEventListener("click", (e) => {
    const b = e.target.closest && e.target.closest("button, summary");
    if (b && e.detail > 0 && !b.closest("dialog")) b.blur();
  });

  function link(up) {
    $("conn").className = "conn " + (up ? "up" : "down");
    $("conn").textContent = up ? "live" : "reconnecting…";
  }

  TC.connect(render, link);
  setInterval(tick, 250);
})();
