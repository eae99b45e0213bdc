"""The TD console a TD can trust all night (issue #17, docs/web.md §4), in headless
Chromium against the real host (tdhost.live.night.Live) with three simulated boxes (tests/web/
night.py): typing never acts; every room-wide or destructive action asks first and says what
will happen; undo is the TD's own last action, previewed, and can be redone; instructions and
the log are in plain words; setup controls leave once play starts; the page fits a 1366x768
laptop and a 390 px phone.

Every wait is bounded (browser.WAIT_MS, or virtual seconds for the room).
"""

import contextlib
import re

from browser import WAIT_MS, js_errors, open_console, served, text, wait_text, wait_visible
from fake_live import FakeLive
from night import Night, allin_hand

from tcsim import serve_demo
from tdhost.live import seatcheck

NAMES = serve_demo.NAMES[:20]
INTERNAL = re.compile(r"move_out|break_table|hand_for_hand|instr_result|take_out|next_hand"
                      r"|\bredraw\b|\breceive\b|\bqueued\b", re.I)


@contextlib.contextmanager
def console(browser, tmp_path, width=1366, height=768, touch=False, start=True):
    """A night of 20 players at three boxes (seed 7: 6, 7 and 7), started unless *start*
    is False (then drawn only), and the console on it: yields (night, web, page)."""
    night = Night(tmp_path)
    live = night.live
    try:
        with served(live) as web:
            night.lock = web.lock
            night.until("every box live", lambda: all(
                lk.state == "live" for lk in live.links), 10000)
            with web.lock:
                live.act("register", {"names": NAMES})
                live.act("draw", {"seed": 7})
                if start:
                    live.act("start", {})
                live.journal.done[:] = []  # the night begins here for the tests' undo
            night.advance(1500)  # the boxes take the seating and send their statuses
            ctx = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=touch, is_mobile=touch)
            page = ctx.new_page()
            page.js_errors = []
            page.on("pageerror", lambda err: page.js_errors.append(str(err)))
            page.goto(web.console_url)
            wait_text(page, "#conn", "live")
            wait_text(page, '.tcard[data-table="3"]', "Table 3")
            try:
                yield night, web, page
            finally:
                ctx.close()
    finally:
        night.close()


def state(night):
    """What a stray key could change: the number of league events, the clock, hand for hand."""
    with night.lock:
        s = night.live.snapshot()
        return (len(night.live.lg.events), s["clock"]["paused"], s["clock"]["level"],
                s["hand_for_hand"])


def seated(night):
    """[(table, seat, name, stack the box shows)] of every seat, in table order."""
    with night.lock:
        snap = night.live.snapshot()
    return [(t["table"], int(n), p["name"], p["stack"]) for t in snap["tables"]
            for n, p in sorted(t["seats"].items(), key=lambda kv: int(kv[0]))]


def changes(night, page, fn):
    """Runs *fn* (a click) and waits until the league has a new event (at most 5 s)."""
    with night.lock:
        n = len(night.live.lg.events)
    fn()
    for _ in range(100):
        with night.lock:
            if len(night.live.lg.events) > n:
                return
        page.wait_for_timeout(50)
    raise AssertionError("nothing changed")


def shows_undo(night, page, what):
    """The Undo button shows the host's current undo (its number: not a snapshot behind)
    and says *what*."""
    with night.lock:
        n = night.live.journal.done[-1]["n"]
    page.wait_for_function("(n) => document.getElementById('undo').dataset.n === String(n)",
                           arg=n, timeout=5000)
    assert text(page, "#undo").startswith(what), text(page, "#undo")


def asks(page, says):
    """The question is open and says *says* (a str it contains, or a regex)."""
    wait_visible(page, "#ask")
    got = text(page, "#ask-text")
    if isinstance(says, str):
        assert says in got, got
    else:
        assert says.search(got), got
    return got


def answer(page, yes):
    page.click("#ask-yes" if yes else "#ask-no")
    wait_visible(page, "#ask", visible=False)


# ------------------------------------------------------------------ stray typing

def test_typing_anywhere_never_acts(browser, tmp_path):
    with console(browser, tmp_path) as (night, web, page):
        before = state(night)
        page.mouse.click(700, 700)  # nothing there: the page has the focus
        page.keyboard.type("Tariq Malik hu u+-/b 123")  # a name typed at no box at all
        for key in ("Space", "h", "u", "u", "+", "-", "/", "b", "Enter", "Escape"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)
        assert state(night) == before and page.is_hidden("#ask")

        # a button pressed with the mouse gives the focus back: Space after it presses nothing
        page.click("#pause")
        wait_text(page, "#pause", "Resume")
        paused = state(night)
        assert paused[1] is True and paused[0] == before[0] + 1
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
        page.keyboard.type("h u")
        page.wait_for_timeout(300)
        assert state(night) == paused

        # in a text box the keys are the text's
        page.click("#bust-names")
        page.keyboard.type("hu +- ")
        assert page.input_value("#bust-names") == "hu +- "
        page.fill("#bust-names", "")

        # a question open: keys do not answer it; Esc is "no"
        page.click("#h4h")
        asks(page, "Hand for hand at tables 1, 2, 3")
        page.keyboard.type("yyy")
        page.keyboard.press("Escape")
        wait_visible(page, "#ask", visible=False)
        page.keyboard.press("Space")  # the focus left the button that opened it
        page.wait_for_timeout(300)
        assert state(night) == paused and page.is_hidden("#ask")
        assert page.locator("kbd").count() == 0 and "Keys" not in text(page, "body")
        assert js_errors(page) == []


# ------------------------------------------------------------------- confirmations

def test_room_wide_and_destructive_actions_ask_first(browser, tmp_path):
    with console(browser, tmp_path) as (night, web, page):
        live = night.live
        before = state(night)
        # hand for hand: no, then yes; then off again
        page.click("#h4h")
        asks(page, "Hand for hand at tables 1, 2, 3: each table finishes the hand it is "
                   "playing and waits; all deal the next hand together. Every box shows it.")
        answer(page, False)
        assert state(night) == before
        page.click("#h4h")
        answer(page, True)
        wait_text(page, "#h4h", "Hand for hand: on")
        wait_text(page, "#h4h-line", re.compile(r"^Hand for hand: (waiting for tables? |every)"))
        assert state(night)[3] is True
        page.click("#h4h")
        asks(page, "Hand for hand ends: every table plays on")
        answer(page, True)
        wait_text(page, "#h4h", "Hand for hand: off")

        # a level LPPL may not skip to is refused before any question (the box's rule)
        page.fill("#level-no", "3")
        page.press("#level-no", "Enter")
        wait_text(page, "#msg", "Levels can only be dropped after the chip-up that follows")
        assert page.is_hidden("#ask")
        # a level jump says which level and what happens to the time left
        page.fill("#level-no", "2")
        page.press("#level-no", "Enter")
        asks(page, re.compile(r"^Level 2 starts now, at its full time, on every box and the big "
                              r"screen; the 1?\d:\d\d of level 1 left is dropped\.$"))
        page.keyboard.press("Escape")
        wait_visible(page, "#ask", visible=False)
        assert state(night)[2] == 1

        # a bust of a player whose table is playing a hand: the question says so
        seats = seated(night)
        tb, seat, name, stack = seats[0]
        night.job(tb, lambda h: h.keys({"do": "hand"}))
        night.advance(1500)
        wait_text(page, '.tcard[data-table="%d"] .hand' % tb, "(playing)")
        page.fill("#bust-names", name)
        page.press("#bust-names", "Enter")
        asks(page, "%s (table %d seat %d, %s chips) is out in 20th place of 20. Their box "
                   "takes the seat out." % (name, tb, seat, "{:,}".format(stack)))
        assert "Table %d is playing a hand" % tb in text(page, "#ask-note")
        answer(page, False)
        with night.lock:
            assert live.tournament.get(name).state == "in"
        page.press("#bust-names", "Enter")
        answer(page, True)
        wait_text(page, "#msg", "%s is out: 20th of 20" % name)
        night.advance(1000)  # the host sends the take_out to the box

        # the box's instruction, in words, with why; its Confirm asks too
        row = page.locator("#pending li").filter(has_text=name)
        # (sent, or behind the end of hand for hand still on that box's screen)
        assert re.fullmatch(r"Table %d: take seat %d out \(%s is out\) \((waiting for table "
                            r"%d's dealer|not sent to a box at table %d yet)\)" % (
                                tb, seat, name, tb, tb), row.locator(".words").inner_text())
        assert row.locator(".why").inner_text() == "the TD entered the player out"
        row.locator("button").click()
        asks(page, "Confirm: Table %d: take seat %d out (%s is out)" % (tb, seat, name))
        answer(page, False)

        # the final-table draw with 19 players left: the host's reason, no question
        # (issue #31: a question is asked only for what the host will take)
        page.click("#more summary")
        page.click("#final-form button")
        wait_text(page, "#msg", "19 players remain; the final table forms at 8 or fewer.")
        assert page.is_hidden("#ask")
        with night.lock:
            assert live.tournament.final is None

        # nothing on the page in the host's internal words
        assert not INTERNAL.search(text(page, "body")), INTERNAL.search(text(page, "body"))
        log = page.locator("#log li").first
        assert log.locator(".who").inner_text() == "host"
        assert re.fullmatch(r"\d\d:\d\d", log.locator(".when").inner_text())
        assert js_errors(page) == []


def test_setup_controls_leave_once_play_starts(browser, tmp_path):
    with console(browser, tmp_path, start=False) as (night, web, page):
        assert page.is_visible("#setup") and page.is_visible("#start-form")
        assert page.is_hidden("#bust-card") and page.is_hidden("#late-form")
        assert page.evaluate(CLIPPED) == []
        assert page.is_hidden("#paused") and text(page, "#pause") == "Pause"  # not started
        wait_text(page, '.tcard[data-table="1"] .hand', "no hand yet")  # not "hand 0"
        page.click("#start-form button")
        asks(page, "Start the tournament: the clock starts level 1 (25 / 50, 20:00) on every "
                   "box and the big screen for 20 players.")
        answer(page, False)
        assert night.live.tournament.started is None
        page.click("#draw-form button")  # drawn already: it asks before drawing again
        asks(page, "The seats are drawn already. Draw again: every player gets a new seat")
        answer(page, False)
        page.click("#start-form button")
        answer(page, True)
        wait_text(page, "#msg", "Shuffle up and deal")
        wait_visible(page, "#setup", visible=False)
        assert page.is_hidden("#start-form") and page.is_hidden("#draw-form")
        assert page.is_visible("#bust-card") and page.is_visible("#late-form")
        wait_text(page, "#undo", re.compile(r"^Undo: shuffle up and deal \(\d\d:\d\d\)$"))


# ---------------------------------------------------------------------- undo / redo

def test_undo_is_the_tds_own_last_action_previewed_and_redoable(browser, tmp_path):
    """The issue's night: a bust, then pause, resume and +1 min three times; Undo takes back
    the last minute (not the bust), says so first, and Redo puts it back."""
    with console(browser, tmp_path) as (night, web, page):
        live = night.live
        tb, seat, name, stack = seated(night)[5]
        page.fill("#bust-names", name)
        page.press("#bust-names", "Enter")
        answer(page, True)
        wait_text(page, "#msg", "%s is out" % name)
        wait_text(page, "#undo", "Undo: %s's bust (" % name)
        at = re.search(r"Undo: %s's bust \((\d\d:\d\d)\)" % name, text(page, "#undo")).group(1)
        changes(night, page, lambda: page.click("#pause"))
        wait_text(page, "#pause", "Resume")
        changes(night, page, lambda: page.click("#pause"))
        wait_text(page, "#pause", "Pause")
        for _ in range(3):
            with night.lock:
                n = len(live.lg.events)
            changes(night, page, lambda: page.click("#plus"))
            with night.lock:
                assert len(live.lg.events) == n + 1  # one click, one change

        def left():
            with night.lock:
                return live.snapshot()["clock"]["ms_left"]

        shows_undo(night, page, "Undo: 1 min added to level 1 (")
        was = left()
        page.click("#undo")
        asks(page, re.compile(r"^Undo: 1 min added to level 1 \(\d\d:\d\d\) — the 1 min comes "
                              r"off again$"))
        answer(page, False)
        assert abs(left() - was) < 2000  # "no": nothing changed
        page.click("#undo")
        answer(page, True)
        wait_text(page, "#msg", "Undone: 1 min added to level 1")
        assert 58000 <= was - left() <= 62000
        with night.lock:
            assert live.tournament.get(name).state == "out"  # the bust stays

        # redo: the minute goes back on
        wait_visible(page, "#redo")
        page.click("#redo")
        asks(page, "Redo: 1 min added to level 1")
        answer(page, True)
        wait_text(page, "#msg", "Done again: Added 60 s to this level")
        assert abs(left() - was) < 2000
        wait_visible(page, "#redo", visible=False)  # nothing more to redo

        # four minutes, the resume and the pause: then the bust, previewed in full
        for what in ("1 min added", "1 min added", "1 min added", "clock resumed",
                     "clock paused"):
            shows_undo(night, page, "Undo: " + what)
            page.click("#undo")
            assert text(page, "#ask-text").startswith("Undo: " + what)
            changes(night, page, lambda: answer(page, True))
            wait_text(page, "#msg", "Undone: " + what)
        shows_undo(night, page, "Undo: %s's bust (%s)" % (name, at))
        page.click("#undo")
        wait_visible(page, "#ask")
        assert text(page, "#ask-text") == "Undo: %s's bust (%s) — %s returns to table %d seat " \
                                          "%d with %s chips" % (name, at, name, tb, seat,
                                                          "{:,}".format(stack))
        answer(page, True)
        wait_text(page, "#msg", "Undone: %s's bust" % name)
        with night.lock:
            entry = live.tournament.get(name)
            assert entry.state == "in" and entry.seat == [tb, seat]
        assert page.locator("#log li.undone").count() >= 6
        assert page.locator("#log li .who").first.inner_text() in ("TD", "host")
        assert js_errors(page) == []


def test_a_box_bust_is_not_the_tds_to_undo(browser, tmp_path):
    """A bust from a box after the TD's pause: Undo offers the pause, never the box's bust."""
    with console(browser, tmp_path) as (night, web, page):
        live = night.live
        page.click("#pause")
        wait_text(page, "#undo", "Undo: clock paused")
        page.click("#pause")
        wait_text(page, "#undo", "Undo: clock resumed")
        with night.lock:
            seating = {tb: dict(s) for tb, s in live.tournament.seating().items()}
        short = min(seating, key=lambda tb: len(seating[tb]))
        seats = sorted(seating[short])
        night.job(short, allin_hand(seats[3], seats[4]))
        night.until("the box's bust",
                    lambda: live.tournament.get(seating[short][seats[3]]).state == "out")
        night.advance(500)
        wait_text(page, "#log", "table %d's box %s (20th) out" % (short, seating[short][seats[3]]))
        assert text(page, "#undo").startswith("Undo: clock resumed")
        # the box's bust came after the resume; taking the resume back is still the TD's
        page.click("#undo")
        asks(page, "the clock stands paused again at")


# -------------------------------------------------------------------------- layouts

CLIPPED = """() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const c = document.createElement("canvas").getContext("2d");
  for (const e of document.querySelectorAll("button, input, summary, select")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest("[hidden]") || e.type === "checkbox") continue;
    if (r.left < -1 || r.right > vw + 1)
      out.push(["off screen", e.id || e.textContent, r.left, r.right]);
    if (e.tagName === "BUTTON" && e.scrollWidth > e.clientWidth + 1)
      out.push(["text cut", e.id || e.textContent]);
    if (e.tagName === "INPUT" && e.placeholder) {
      const s = getComputedStyle(e);
      c.font = s.font;
      const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      if (c.measureText(e.placeholder).width > room + 1)
        out.push(["placeholder cut", e.placeholder]);
    }
  }
  return out;
}"""
SMALL = """(least) => {
  const out = [];
  for (const e of document.querySelectorAll("button, input, summary")) {
    const r = e.getBoundingClientRect();
    if (!r.width || e.type === "checkbox" || e.closest("[hidden]")) continue;
    if (r.height < least) out.push([e.id || e.textContent, r.height]);
  }
  return out;
}"""


def _busy(night, page):
    """A bust with its instruction waiting, so every part of the page has something."""
    tb, seat, name, stack = seated(night)[8]
    page.fill("#bust-names", name)
    page.press("#bust-names", "Enter")
    answer(page, True)
    wait_text(page, "#pending", name)
    return name


def test_the_console_fits_a_1366x768_laptop(browser, tmp_path):
    with console(browser, tmp_path, 1366, 768) as (night, web, page):
        _busy(night, page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        for sel in ('.tcard[data-table="1"]', '.tcard[data-table="3"]', "#bust-card",
                    "#pending", "#moves-none", "#undo", "#pause", "#late-form"):
            box = page.locator(sel).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 768, (sel, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, (sel, box)
        assert page.evaluate(CLIPPED) == []
        # the big screen's settings are folded away under the night's controls
        assert page.is_hidden("#room-sound")
        assert page.locator("#room-card").bounding_box()["y"] > \
            page.locator("#pending").bounding_box()["y"]


def test_the_console_fits_a_390px_phone(browser, tmp_path):
    with console(browser, tmp_path, 390, 844, touch=True) as (night, web, page):
        _busy(night, page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate(CLIPPED) == []
        assert page.evaluate(SMALL, 40) == []  # touch-sized
        # on a phone the tables come first, then the bust box, then the log
        ys = [page.locator(sel).bounding_box()["y"] for sel in (
            '.tcard[data-table="1"]', "#bust-card", "#log")]
        assert ys == sorted(ys) and ys[0] < 844, ys
        assert page.locator("kbd").count() == 0
        page.click("#h4h")  # the question fits too
        wait_visible(page, "#ask")
        box = page.locator("#ask").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate(CLIPPED) == []
        answer(page, False)


def test_the_console_asks_only_for_what_the_host_will_take(browser, tmp_path):
    """A name typed short ("dev") is the one player it means before the question; a name
    that is nobody's, or a level that does not exist, is refused with no question."""
    with console(browser, tmp_path) as (night, web, page):
        tb, seat, name, stack = seated(night)[8]
        page.fill("#bust-names", name.split()[0].lower())
        page.press("#bust-names", "Enter")
        asks_now = asks(page, "%s (table %d seat %d" % (name, tb, seat))
        assert " is out in 20th place of 20" in asks_now, asks_now
        changes(night, page, lambda: answer(page, True))
        wait_text(page, "#msg", "%s is out: 20th of 20." % name)
        before = state(night)
        page.fill("#bust-names", name)  # out already
        page.press("#bust-names", "Enter")
        wait_text(page, "#msg", "Nobody called %s is playing." % name)
        page.fill("#level-no", "99")
        page.press("#level-no", "Enter")
        wait_text(page, "#msg", "There is no level 99.")
        assert page.is_hidden("#ask") and state(night) == before


# ---------------------------------------------------------------------- final table

def test_the_final_table_shows_every_finalists_stack(browser, tmp_path):
    """The TD enters twelve players out: the host draws the final table; its card shows every
    finalist's chips from the draw at once (the boxes still deal the old tables), and once
    the dealers have carried out the redraw and the table breaks, the final table sits down
    and those lines leave the list."""
    with console(browser, tmp_path) as (night, web, page):
        live = night.live
        with night.lock:
            order = [name for tb, s in sorted(live.tournament.seating().items())
                     for _, name in sorted(s.items())]
        for name in order[:12]:
            with night.lock:
                live.act("bust", {"names": [name]})
            night.advance(300)
        night.until("the final draw", lambda: live.tournament.final is not None, 5000)
        final = live.tournament.final["table"]
        card = '.tcard[data-table="%d"]' % final
        wait_text(page, "#final", "Final table")
        wait_text(page, card, "8 players")
        stacks = page.locator(card + " .seat .stack").all_inner_texts()
        assert len(stacks) == 8 and all(re.fullmatch(r"[\d,]+", x) for x in stacks), stacks
        with night.lock:
            want = sum(live.tournament.get(n).stack for n in order[12:])  # nobody has lost a chip
        assert sum(int(x.replace(",", "")) for x in stacks) == want
        wait_text(page, "#pending", re.compile("players go to their final-table seats|breaks"))
        assert not INTERNAL.search(text(page, "#pending"))

        # the dealers carry out what their boxes show, until the final table sits down
        for _ in range(40):
            with night.lock:
                if live.tournament.final.get("seated"):
                    break
                waiting = [tb for tb, b in night.boxes.items() if b.box.awaiting()]
            for tb in waiting:
                night.job(tb, lambda h: h.confirm())
            night.advance(1000)
        with night.lock:
            assert live.tournament.final.get("seated"), live.snapshot()["pending"]
        night.advance(500)
        page.wait_for_timeout(500)
        shown = text(page, "#pending") if page.is_visible("#pending") else ""
        assert "final-table seats" not in shown and "breaks" not in shown, shown
        stacks = page.locator(card + " .seat .stack").all_inner_texts()
        assert all(re.fullmatch(r"[\d,]+", x) for x in stacks), stacks
        assert js_errors(page) == []


# ---------------------------------------------------------------------- league server

def test_the_league_push_shows_its_last_attempt_and_what_waits(browser, tmp_path):
    """`serve --season`'s pushes (docs/league.md "Pushing during the night"): no card without
    a league server; then the last attempt in words and the events waiting."""
    from tdhost.live.leaguepush import LeaguePush

    with console(browser, tmp_path) as (night, web, page):
        assert not page.is_visible("#league-card")
        pushes = LeaguePush()
        with web.lock:
            night.live.league_push = pushes
        pushes.told(1741032000000, False, "The league server cannot be reached (timeout): "
                    "nothing was sent; the venue goes on offline, push again later.")
        night.advance(200)
        wait_visible(page, "#league-card")
        wait_text(page, "#league-push", "Not pushed: The league server cannot be reached")
        with web.lock:
            seq = night.live.last_seq
        pushes.told(1741032000000, True, "Pushed 12 events of Red Lion (tournament 1) to the "
                    "league LPPL Lincolnshire.", seq - 3)
        night.advance(200)
        wait_text(page, "#league-push", "3 events wait for the next push.")
        assert text(page, "#league-push").startswith("Pushed 12 events of Red Lion")
        assert js_errors(page) == []


# ---------------------------------------------------------------------- Wi-Fi notes

def test_refused_logins_and_boxes_to_pair_again_show_in_plain_words(browser, tmp_path):
    """What the broker refused and the boxes to pair again reach the console (docs/mqtt.md
    "Threats"): one line each in plain words, the same one counted, the newest five."""
    with console(browser, tmp_path) as (night, web, page):
        assert not page.is_visible("#wifi-card")  # nothing to say: no card
        notes = night.live.wifi
        notes.tables["tc-3f2a9c01abcd"] = 4
        notes.refused("password", "tc-3f2a9c01abcd", "tc-3f2a9c01abcd", "192.168.1.23")
        notes.pair_again("tc-05", 2)
        notes.refused("password", "tc-3f2a9c01abcd", "tc-3f2a9c01abcd", "192.168.1.23")
        night.advance(200)
        wait_visible(page, "#wifi-card")
        wait_text(page, "#wifi", "(2 times)")
        lines = page.locator("#wifi li").all_inner_texts()
        assert len(lines) == 2, lines
        assert lines[0].startswith("Refused: a login for table 4's box with a wrong password"
                                   " from 192.168.1.23 (2 times)"), lines
        assert lines[1].startswith("Table 2's box was paired before each box had its own key:"
                                   " pair it again (tdhost pair PORT --table 2"), lines
        assert re.search(r"(now|ago)$", lines[0]), lines
        for i in range(6):
            notes.refused("anonymous", None, "x", "10.0.0.%d" % i)
        night.advance(200)
        wait_text(page, "#wifi", "10.0.0.5")
        lines = page.locator("#wifi li").all_inner_texts()
        assert len(lines) == 5 and lines[0].startswith(
            "Refused: a login without a name from 10.0.0.5"), lines
        assert not any("10.0.0.0" in x or "table 4" in x for x in lines)  # the oldest went
        assert not re.search(r"client_id|anonymous|\bNone\b", "\n".join(lines))
        assert js_errors(page) == []


def results_table(page):
    """The console's results: the headings shown, then each row's cells."""
    heads = page.locator("#results thead th:visible").all_inner_texts()
    return heads, [r.split("\t") for r in page.locator("#results tbody tr").all_inner_texts()]


def test_the_results_have_a_prize_column_only_with_money(browser, tmp_path):
    """A home game (docs/examples/home_money.toml, 12 players: £216 paid 40/25/15/12/8 % in
    £5 steps: £96, 50, 30, 25, 15): the console's results show each player's prize, tied
    players their share; the free LPPL night shows no prize column and no money."""
    from tcsim import serve_demo
    from tdhost.live.night import Live

    db = str(tmp_path / "home.sqlite")
    serve_demo.new_tournament(db, "docs/examples/home_money.toml")
    live = Live(db, seed=3)
    names = serve_demo.NAMES[:12]
    try:
        live.act("register", {"names": names})
        live.act("draw", {"seed": 3})
        live.act("start", {})
        with served(live) as web:
            page = open_console(browser, web)
            for n in names[:6]:  # 12th to 7th
                with web.lock:
                    live.act("bust", {"names": [n]})
            with web.lock:  # one hand, equal chips: 5th= share £15 + nothing
                live.act("bust", {"names": names[6:8], "chips": [5000, 5000]})
            wait_text(page, "#results", names[7])
            heads, rows = results_table(page)
            assert heads == ["place", "name", "points", "prize"]
            assert rows[:3] == [["5=", names[6], "", "£10"], ["5=", names[7], "", "£5"],
                                ["7", names[5], "", ""]]
            assert js_errors(page) == []
    finally:
        live.close()
    free = FakeLive()  # the LPPL Monday: free
    with served(free) as web:
        page = open_console(browser, web)
        with web.lock:
            free.act("bust", {"names": ["Ian McAllister"]})
        wait_text(page, "#results", "Ian McAllister")
        heads, rows = results_table(page)
        assert heads == ["place", "name", "points"]
        assert rows[0][:2] == ["23", "Ian McAllister"] and len(rows[0]) == 3
        assert "£" not in page.inner_text("body")
        assert js_errors(page) == []


def test_a_player_missing_at_the_box_is_seated_again_from_the_console(browser, tmp_path):
    """The seat check (docs/live.md): a box that lost a player the league still seats says
    so in the player's row, and its Seat at the box… asks for the chips counted at the table
    and has the box seat the player again once the dealer confirms."""
    with console(browser, tmp_path) as (night, web, page):
        tb, seat, name, stack = seated(night)[0]

        def lose(h):  # a box that lost a player without a word to the host (a fault)
            assert h.box.box.table.handle({"do": "leave", "seat": seat}) is None
            h.box.box.dirty = True
        night.job(tb, lose)
        night.advance(seatcheck.SETTLE_MS + 40000)  # lasting: two heartbeats
        row = '#reg tr[data-name="%s"]' % name
        wait_text(page, row + " td:nth-child(2)", "not on the box")
        page.set_viewport_size({"width": 390, "height": 844})  # the row fits a phone too
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate(CLIPPED) == []
        page.set_viewport_size({"width": 1366, "height": 768})
        page.locator(row + " button").click()
        asks(page, "The box at table %d seat %d seats %s again with the chips you counted at "
                   "the table, once the dealer confirms." % (tb, seat, name))
        page.fill("#ask-input", "{:,}".format(stack))
        answer(page, True)
        wait_text(page, "#msg", "Table %d seat %d: the box seats %s again with %s chips when "
                                "the dealer confirms." % (tb, seat, name, "{:,}".format(stack)))
        night.advance(1500)  # the instruction reaches the box
        night.job(tb, lambda h: h.confirm())
        night.advance(3000)
        assert (tb, seat, name, stack) in seated(night)
        wait_text(page, row + " td:nth-child(2)", "playing")
        assert not INTERNAL.search(text(page, "body")), INTERNAL.search(text(page, "body"))
        assert js_errors(page) == []


def test_a_seat_the_league_does_not_know_is_cleared_at_the_box_from_the_console(browser,
                                                                               tmp_path):
    """The seat check's other case (docs/live.md): the box shows a player in a seat where the
    league seats nobody.  The Instructions list says so with a Clear seat… button, which
    asks first, saying the chips leave play; No changes nothing, Yes has the box take the
    seat out once the dealer confirms."""
    with console(browser, tmp_path) as (night, web, page):
        tb = seated(night)[0][0]
        taken = {seat for t, seat, _, _ in seated(night) if t == tb}
        empty = [s for s in range(1, 9) if s not in taken][0]

        def stranger(h):  # a dealer seats somebody the host never sent (a slip)
            assert h.box.box.table.handle({"do": "sit", "seat": empty, "stack": 2750}) is None
            h.box.box.dirty = True
        night.job(tb, stranger)
        night.advance(seatcheck.SETTLE_MS + 40000)  # lasting: two heartbeats
        row = '#pending li[data-seat="%d.%d"]' % (tb, empty)
        wait_text(page, row, "Table %d seat %d: the box shows a player with 2,750 chips the "
                             "league does not seat there" % (tb, empty))
        before = state(night)
        page.locator(row + " button").click()
        asks(page, "The box at table %d takes the player in seat %d out with their 2,750 chips, "
                   "once the dealer confirms: those chips leave play." % (tb, empty))
        answer(page, False)
        assert state(night) == before
        page.locator(row + " button").click()
        asks(page, "those chips leave play")
        answer(page, True)
        wait_text(page, "#msg", "Table %d seat %d: the box takes the player out with their "
                                "2,750 chips when the dealer confirms; those chips leave "
                                "play." % (tb, empty))
        night.advance(1500)  # the instruction reaches the box
        night.job(tb, lambda h: h.confirm())
        night.advance(3000)
        assert not [x for x in seated(night) if x[:2] == (tb, empty)]
        page.wait_for_selector(row, state="detached", timeout=5000)
        assert not INTERNAL.search(text(page, "body")), INTERNAL.search(text(page, "body"))
        assert js_errors(page) == []


def test_a_players_row_shows_their_warnings_and_penalties(browser, tmp_path):
    """The TD sees each player's record on their row (docs/rules.md §14): what their box
    counted, which goes with them to every table."""
    with console(browser, tmp_path) as (night, web, page):
        tb, seat, name, stack = seated(night)[0]

        def warn(h):  # the dealer enters the TD's warning and a missed-hand penalty
            for ev in ({"do": "warn", "seat": seat}, {"do": "penalty", "seat": seat, "hands": 2}):
                assert h.box.box.table.handle(ev) is None
            h.box.box.dirty = True
        night.job(tb, warn)
        night.advance(40000)  # the box's next status
        row = '#reg tr[data-name="%s"]' % name
        wait_text(page, row + " td:nth-child(4)", "1 warning, misses 2 more hands")
        assert js_errors(page) == []


def test_a_registration_made_in_error_is_taken_back_from_the_players_row(browser, tmp_path):
    """Unregister… (issue #31): a player not yet out who has not played -- registered and
    drawn, before the start -- is taken off after the console asks; once play starts a
    player at a table has no such button (a player who played is busted)."""
    with console(browser, tmp_path, start=False) as (night, web, page):
        name = NAMES[0]
        row = '#reg tr[data-name="%s"]' % name
        page.locator(row + " button", has_text="Unregister").click()
        asks(page, "%s is taken off the tournament; table " % name)
        answer(page, False)
        assert night.live.tournament.get(name) is not None
        page.locator(row + " button", has_text="Unregister").click()
        answer(page, True)
        wait_text(page, "#msg", "%s is no longer registered" % name)
        wait_visible(page, row, visible=False)
        with night.lock:
            night.live.act("start", {})
        wait_text(page, "#tstate", "in play")
        assert page.locator("#reg button", has_text="Unregister").count() == 0
        assert js_errors(page) == []


def test_register_with_a_member_number_and_a_duplicate_asked_about(browser, tmp_path):
    """The console's Register (issue #31): a member number for one name, another player's
    number refused before anything is written, and "Jon Smyth" beside Jon Smith asked
    about (Cancel registers nobody; Register as another player does)."""
    from tdhost.live.night import Live

    db = str(tmp_path / "night.sqlite")
    serve_demo.new_tournament(db)  # the LPPL Monday: 48 players
    live = Live(db, seed=3)
    try:
        with served(live) as web:
            page = open_console(browser, web, 1366, 768)
            page.fill("#reg-names", "Jon Smith")
            page.fill("#reg-no", "M1042")
            page.press("#reg-names", "Enter")
            wait_text(page, "#msg", "Jon Smith is registered (1 of 48), member M1042.")
            assert page.input_value("#reg-no") == ""
            page.fill("#reg-names", "Jon Smyth")
            page.fill("#reg-no", "M1042")
            page.press("#reg-names", "Enter")
            wait_text(page, "#msg", "M1042 is the member number of Jon Smith: register them "
                                    "by that name, or give Jon Smyth their own number.")
            assert page.is_hidden("#ask")
            page.fill("#reg-no", "")
            page.press("#reg-names", "Enter")
            asks(page, "Jon Smyth may be Jon Smith, already registered (a close spelling).")
            answer(page, False)
            with web.lock:
                assert live.tournament.get("Jon Smyth") is None
            page.press("#reg-names", "Enter")
            asks(page, "Jon Smyth may be Jon Smith")
            answer(page, True)
            wait_text(page, "#msg", "Jon Smyth is registered (2 of 48).")
            with web.lock:
                assert [e.name for e in live.tournament.players.values()] == [
                    "Jon Smith", "Jon Smyth"]
            assert js_errors(page) == []
    finally:
        live.close()


def test_a_night_finished_at_the_console_leaves_nothing_to_confirm(browser, tmp_path):
    """Nine players busted to a winner at the console with no box at the tables: the
    seat instructions the busts made are moot once the night is over (issue #31): the
    console lists none and says so; the winner's line replaces the clock, no "Final
    table" pill."""
    from tdhost.live.night import Live

    db = str(tmp_path / "night.sqlite")
    serve_demo.new_tournament(db)
    live = Live(db, seed=3)
    names = serve_demo.NAMES[:9]
    try:
        live.act("register", {"names": names})
        live.act("draw", {"seed": 3})
        live.act("start", {})
        for n in names[:7]:
            live.act("bust", {"names": [n]})
        assert [p for p in live.snapshot()["pending"] if p["state"] == "queued"]
        with served(live) as web:
            page = open_console(browser, web, 1366, 768)
            # in play: the dealer's to do (once the first snapshot is drawn: the "live"
            # the console waits for can come first)
            page.locator("#pending li").first.wait_for(timeout=WAIT_MS)
            with web.lock:
                live.act("bust", {"names": [names[7]]})
            wait_text(page, "#level", "%s wins" % names[8])
            assert page.locator("#pending li").count() == 0
            assert text(page, "#pending-none") == (
                "Nothing waits at the tables: the tournament is over.")
            assert page.is_hidden("#final")
            assert js_errors(page) == []
    finally:
        live.close()
