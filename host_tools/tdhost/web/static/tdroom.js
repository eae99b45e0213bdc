// The console's card for the room (docs/web.md §4 and §8): what the big screens show
// (panels, layout, theme), their sound (mute, spoken blinds), the players' page, and the
// money of a tournament that has it (re-buys, add-ons, knockouts for the bounties, the
// payout table), the printouts' link; folded at the foot of the console's right-hand
// column (the night's controls come first). A card of its own beside td.js: POST /api/display and /api/act/NAME.
"use strict";

(function () {
  const el = TC.el;
  const PANELS = [["schedule", "Blind schedule"], ["chipups", "Chip-ups"],
                  ["stats", "Players and stacks"], ["payouts", "Payouts"],
                  ["qr", "Phone QR code"], ["news", "Seat moves"],
                  ["league", "League leaderboard"]];
  let display = null, money = null;

  // the console's message line (td.html #msg), at the top where every answer shows
  function say(text, bad) {
    const msg = document.getElementById("msg");
    // one sentence: a capital first, a full stop last (the host's refusals are bare)
    text = text.charAt(0).toUpperCase() + text.slice(1);
    if (!/[.!?]$/.test(text)) text += ".";
    msg.textContent = text;
    msg.className = "msg " + (bad ? "bad" : "good");
  }

  async function post(url, args) {
    let r;
    try {
      r = await fetch(url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(args || {})});
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
  // while a change is on its way, snapshots do not reset the controls under the TD's hand
  let changing = 0;
  let last = null; // the last snapshot, shown again once a change has its answer
  async function setDisplay(args) {
    changing++;
    let body = null;
    try { body = await post("/api/display", args); } finally { changing--; }
    if (body && body.display && last) render(Object.assign({}, last, {display: body.display}));
    else if (last) render(last);
    return body;
  }

  // ------------------------------------------------------------------ the big screen
  const mute = el("button", {id: "room-sound", type: "button",
    disabled: true, onclick: () => setDisplay({sound: !display.sound})},
  "Mute the big screen");
  const speak = el("input", {id: "room-speak", type: "checkbox",
    onchange: (e) => setDisplay({speak: e.target.checked})});
  const theme = el("select", {id: "room-theme", "aria-label": "theme",
    onchange: (e) => setDisplay({theme: e.target.value})},
    el("option", {value: "dark", text: "Dark"}),
    el("option", {value: "contrast", text: "High contrast"}));
  const layout = el("select", {id: "room-layout", "aria-label": "layout",
    onchange: (e) => setDisplay({layout: e.target.value})},
    el("option", {value: "auto", text: "Layout from the screen's shape"}),
    el("option", {value: "16x9", text: "16:9 (TV)"}),
    el("option", {value: "4x3", text: "4:3 (projector)"}));
  const boxes = PANELS.map(([key, words]) => el("label", null,
    el("input", {type: "checkbox", "data-panel": key, onchange: () => setDisplay({
      panels: PANELS.map(([k]) => k).filter(
        (k) => document.querySelector('[data-panel="' + k + '"]').checked)})}),
    " " + words));

  // ------------------------------------------------------------------ money
  const field = (id, ph) => el("input", {id: id, placeholder: ph, "aria-label": ph,
                                         autocomplete: "off"});
  const rebuyName = field("rebuy-name", "Player");
  const addonName = field("addon-name", "Player");
  const koName = field("ko-name", "Player out");
  const koBy = field("ko-by", "knocked out by");
  const places = field("payout-places", "e.g. 50, 30, 20");
  const nums = (t) => t.split(/[ ,;]+/).filter((x) => x).map(Number);
  const pool = el("b", {id: "room-pool"});
  const table = el("ol", {id: "room-payouts", class: "moves"});
  const rebuyForm = el("form", {class: "inline", id: "rebuy-form", onsubmit: (e) => {
    e.preventDefault(); post("/api/act/rebuy", {name: rebuyName.value.trim()});
  }}, rebuyName, el("button", null, "Re-buy"));
  const addonForm = el("form", {class: "inline", id: "addon-form", onsubmit: (e) => {
    e.preventDefault(); post("/api/act/addon", {name: addonName.value.trim()});
  }}, addonName, el("button", null, "Add-on"));
  const koForm = el("form", {class: "inline", id: "ko-form", onsubmit: (e) => {
    e.preventDefault();
    post("/api/act/knockout", {name: koName.value.trim(), by: koBy.value.trim()});
  }}, koName, koBy, el("button", null, "Bounty"));
  const payForm = el("form", {class: "inline", id: "payout-form", onsubmit: (e) => {
    e.preventDefault(); post("/api/act/payouts", {places: nums(places.value)});
  }}, places, el("button", null, "Set payouts %"));
  // the money is the night's, not a setting: a card of its own under the bust box
  const moneyBox = el("div", {id: "room-money", class: "card", hidden: true},
    el("h2", null, "Money ", pool), table, rebuyForm, addonForm, koForm, payForm,
    el("p", {class: "hint", text: "Every line here is in the league's log: the console's " +
      "Undo takes back the last one."}));

  // The players' page: its address, or why no phone can open it (tdhost serve --listen)
  const phoneLine = el("p", {class: "hint", id: "room-phones"}, "Players' page (no token): ",
    el("a", {href: "/p", target: "_blank", text: "/p"}), " – its QR code is on the big screen.");
  const phoneWarn = el("p", {class: "card msg bad", id: "room-phones-warn", hidden: true});
  fetch("/api/phone-link").then((r) => r.json()).then((j) => {
    if (j.problem) {
      phoneWarn.textContent = j.problem;
      phoneWarn.hidden = false;
      phoneLine.hidden = true;
    } else if (j.url) {
      phoneLine.lastChild.textContent = " (" + j.url + ") – its QR code is on the big screen.";
    }
  }).catch(() => {});

  // Folded under the night's controls: opened when the TD wants it (or a warning shows)
  const settings = el("div", {id: "room-settings"},
    el("div", {class: "td-row"}, mute, el("label", null, speak, " speak the new blinds"),
      theme, layout),
    el("div", {class: "td-row panels"}, ...boxes),
    phoneLine,
    el("p", {class: "hint"}, el("a", {href: "/td/print", target: "_blank",
      text: "Printouts"}), ": the seat list and seat cards, table sheets, the sign-in " +
      "sheet, results, the league table."));
  // for whoever sets the TV up, never on the TV itself (issue #31): seen while folded
  const soundHint = el("span", {class: "hint sound-hint", id: "room-sound-hint",
    text: "Click the big screen once after opening it (or press a key on it): browsers " +
      "play its chimes only then."});
  const card = el("details", {class: "card", id: "room-card"},
    el("summary", null, "Big screen, phones and printouts",
      soundHint), settings);

  settings.inert = true; // nothing to change before the host has said what is set

  function render(s) {
    last = s;
    display = s.display || display;
    settings.inert = !display;
    moneyBox.inert = !display;
    money = s.money;
    if (display && !changing) {
      mute.disabled = false; // the settings are known: the button can toggle them
      mute.textContent = display.sound ? "Mute the big screen" : "Sound on the big screen";
      mute.classList.toggle("on", !display.sound);
      soundHint.hidden = !display.sound;
      speak.checked = !!display.speak;
      theme.value = display.theme;
      layout.value = display.layout;
      for (const b of document.querySelectorAll("[data-panel]")) {
        b.checked = display.panels.indexOf(b.dataset.panel) >= 0;
      }
    }
    moneyBox.hidden = !money;
    // a free tournament: no word about money on the console either
    document.querySelector('[data-panel="payouts"]').parentNode.hidden = !money;
    if (money) {
      pool.textContent = money.pool + " · " + money.entries + " entries" +
        (money.rebuys ? " · " + money.rebuys + " re-buys" : "") +
        (money.addons ? " · " + money.addons + " add-ons" : "");
      TC.fill(table, money.payouts.map((p) => el("li", null,
        p.text + (p.name ? " – " + p.name : ""))));
      rebuyForm.hidden = !money.rebuy;
      addonForm.hidden = !money.addon;
      koForm.hidden = !money.bounty;
    }
  }

  function mount() {
    const at = document.querySelector(".td-right") || document.body;
    at.append(phoneWarn, card); // a warning is not folded away
    const bust = document.getElementById("bust-card");
    if (bust) bust.after(moneyBox);
    else at.append(moneyBox);
    TC.connect(render, () => {});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
  else mount();
})();
