"""The big screen as the room sees it from a seat (docs/web.md §4, §7): no panel cut off at
1920x1080, 1366x768 and 1024x768 (measured: every panel's content fits its box, and the box
the window); moves in words and where a broken table's players went; the QR code a third
of the screen's height, of the address phones use, and none when phones cannot reach the
host (the console says how to fix it); "Click for sound" never on the TV (the console says it);
a finished tournament shows the winner and the places instead of the clock.  FakeLive
(tests/web/fake_live.py) with the home game's money: every panel has something to show."""

import re

from browser import js_errors, open_console, open_page, served, text, wait_text, wait_visible
from fake_live import FakeLive
from test_room_pages import home_money

from tdhost.web import room_pages

SIZES = ((1920, 1080), (1366, 768), (1024, 768))
# every panel shown: its content fits its box (nothing scrolled away or cut off, across
# or down), and the box is inside the window
CUT = """() => { const out = [];
  for (const e of document.querySelectorAll(
      '.panel, .bs-top, .bs-main, .bs-clock, .bs-stats, .bs-finish, .bs-news, .bs-banner')) {
    if (e.offsetParent === null) continue;
    const r = e.getBoundingClientRect();
    if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 ||
        r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      out.push([e.id || e.className, e.scrollHeight, e.clientHeight, r.bottom]);
    for (const k of e.querySelectorAll('li, .value, .blinds, .time, .winner')) {
      if (k.clientWidth && k.scrollWidth > k.clientWidth + 1)
        out.push([k.className, k.textContent]);
    }
  } return out; }"""


def moved(live):
    """Ian McAllister out (tables 8, 8, 6): Vince Polley moves from table 1 seat 8 to
    table 3 seat 3; then table 2 is broken: its players went to tables 1 and 3."""
    live.act("bust", {"names": ["Ian McAllister"]})
    for action in ("move_out", "receive"):
        p = [p for p in live.snapshot()["pending"] if p["action"] == action][0]
        live.act("confirm", {"id": p["id"]})
    s = live._s
    s["broken"].append(2)
    at = s["moves"][-1]["at_ms"]
    s["moves"] += [{"player": "Sue Granger", "from": "2.3", "to": "1.8", "at_ms": at},
                   {"player": "Hannah Lee", "from": "2.6", "to": "3.7", "at_ms": at}]
    live.version += 1


def test_nothing_is_cut_off_and_the_qr_code_is_the_phones_address(browser):
    live = FakeLive(money=home_money())
    with served(live, listen="0.0.0.0") as web:
        with web.lock:
            moved(live)
        port = web.port
        for w, h in SIZES:
            page = open_page(browser, web.url + "/", w, h)
            wait_text(page, "#news", "Vince Polley: table 1 seat 8 → table 3 seat 3")
            assert "Table 2 has broken: its players went to tables 1 and 3" in text(page, "#news")
            page.wait_for_function("() => { const i = document.getElementById('qr');"
                                   " return i.complete && i.naturalWidth > 0; }")
            for panel in ("#p-schedule", "#p-chipups", "#p-payouts", "#p-qr", "#stats"):
                assert page.is_visible(panel), (w, h, panel)
            assert page.evaluate(CUT) == [], (w, h)
            # big enough to scan from 3 m: a third of the screen's height (docs/web.md §7)
            side = page.locator("#qr").bounding_box()
            assert side["height"] >= h / 3 - 1 and abs(side["width"] - side["height"]) < 2
            lan = room_pages.lan_address()
            assert text(page, "#qr-url") == ("%s:%d/p" % (lan, port) if lan else "")
            # "Click for sound" is for whoever sets the TV up: never on the TV
            assert not re.search(r"click|sound", page.inner_text("body"), re.I)
            assert js_errors(page) == []
            page.context.close()


def test_no_qr_code_phones_cannot_open_and_the_console_says_why(browser):
    live = FakeLive()
    with served(live) as web:  # 127.0.0.1, tdhost serve's default
        page = open_page(browser, web.url + "/", 1920, 1080)
        wait_text(page, "#blinds", "25 / 50")
        page.wait_for_timeout(500)  # the phone link's answer is in
        assert page.is_hidden("#p-qr") and page.get_attribute("#qr", "src") is None
        assert page.evaluate(CUT) == []
        console = open_console(browser, web)
        wait_text(console, "#room-phones-warn", "Phones can't reach 127.0.0.1: start tdhost "
                                                "serve with --listen 0.0.0.0")
        assert web.phones.startswith("Phones can't reach 127.0.0.1")  # also on the terminal
        # the TV's sound is the console's to say, on the room card even while it is folded
        assert text(console, "#room-sound-hint") == (
            "Click the big screen once after opening it (or press a key on it): browsers "
            "play its chimes only then.")
        assert console.is_visible("#room-sound-hint")
        assert console.get_attribute("#room-card", "open") is None


def test_a_finished_tournament_shows_the_winner_and_the_places(browser):
    live = FakeLive(money=home_money())
    with served(live) as web:
        with web.lock:
            s = live._s
            names = [r["name"] for r in s["registration"]]
            s["results"] = [{"place": i + 1, "name": n, "points": round(10 * (23 / (i + 1))
                                                                         ** 0.5, 2)}
                            for i, n in enumerate(names)]
            s["tables"] = {1: {1: {"name": names[0], "stack": 69000}}, 2: {}, 3: {}}
            s["state"] = "finished"
            live.version += 1
        for w, h in SIZES:
            page = open_page(browser, web.url + "/", w, h)
            wait_visible(page, "#finish")
            assert text(page, "#winner") == names[0] == "Alice Moreton"
            assert text(page, "#winner-what") == "£179"  # 1st of 23 x £18 at 40/25/15/12/8
            places = page.locator("#places li").all_inner_texts()
            assert [p.split("\n")[:3] for p in places[:2]] == [
                ["2nd", names[1], "£100"], ["3rd", names[2], "£60"]]
            assert len(places) >= 4  # as many as fit
            # no clock, no blinds, no "Break in", no average stack of the winner's chips
            for gone in (".bs-clock", "#stats", "#p-schedule", "#p-chipups", "#news"):
                assert page.is_hidden(gone), (w, h, gone)
            assert not re.search(r"Break in|Average stack|Blinds", page.inner_text("body"), re.I)
            assert page.evaluate(CUT) == [], (w, h)
            assert js_errors(page) == []
            page.context.close()


def test_a_night_run_from_the_command_line_then_served_shows_its_winner(browser, tmp_path):
    """Issue #31: a night run from the CLI alone (new, register, draw, start, level 2, the
    busts down to one player), then served: the big screen, the console and the players'
    page show Ivy Chen as the winner, no clock, no "Paused", no level and no blinds; the
    console's clock controls are gone (Undo stays) and its seat moves are over."""
    import datetime
    import os

    from click.testing import CliRunner

    from tcsim import EXAMPLES
    from tdhost.cli.app import cli
    from tdhost.league import times
    from tdhost.live.night import Live

    db = str(tmp_path / "night.sqlite")
    t0 = datetime.datetime(2025, 3, 3, 20, 0)
    names = ["Ann Lee", "Bob Hart", "Cal Diaz", "Dev Rao", "Eve Moss", "Fay Park",
             "Gus Vale", "Hal Ito", "Ivy Chen"]

    def run(minutes, *args):
        env = {"TDHOST_NOW": times.iso(t0 + datetime.timedelta(minutes=minutes)),
               "TDHOST_PLAIN": "1", "TDHOST_DB": db}
        res = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
        assert res.exit_code == 0, (args, res.output)
        return res.output

    run(-60, "new", os.path.join(EXAMPLES, "lppl.toml"))
    run(-50, "register", *names)
    run(-40, "draw", "--seed", "7")
    run(0, "start", "--yes")
    run(20, "level", "2")
    for i, name in enumerate(names[:8]):
        run(25 + i, "bust", name, "--yes")
    assert "Ivy Chen" in run(40, "results")
    # served 25 minutes later, in level 3 by the schedule's clock (20-minute levels)
    live = Live(db, clock=lambda: int((t0 + datetime.timedelta(minutes=65)).timestamp()
                                      * 1000), seed=1)
    try:
        assert live.snapshot()["tournament"]["state"] == "finished"
        with served(live) as web:
            big = open_page(browser, web.url + "/", 1920, 1080)
            wait_visible(big, "#finish")
            assert text(big, "#winner") == "Ivy Chen"
            assert page_hides(big, ".bs-clock", "#stats", "#p-schedule")
            console = open_console(browser, web, 1366, 768)
            wait_text(console, "#level", "Ivy Chen wins")
            assert text(console, "#players") == "9 entries"
            assert page_hides(console, "#time", "#paused", "#pause", "#minus", "#plus",
                              "#level-form", "#h4h")
            assert console.is_visible("#undo")
            assert text(console, "#moves-none") == "The tournament is over."
            # the empty tables are done with: only the winner's is left on the console
            tables = console.locator("#tables .tcard").all_inner_texts()
            assert len(tables) == 1 and "Ivy Chen" in tables[0], tables
            top = console.inner_text(".td-top")
            assert not re.search(r"Level \d|Paused|\d+ / \d+|\d:\d\d", top, re.I), top
            phone = open_page(browser, web.url + "/p", 390, 844)
            wait_text(phone, "#level", "Ivy Chen wins")
            assert page_hides(phone, "#time", "#paused", "#blinds-row", "#schedule-card")
            assert text(phone, "#left") == "9"
            for page in (big, console, phone):
                assert js_errors(page) == []
    finally:
        live.close()


def page_hides(page, *selectors):
    """True when every one of *selectors* is hidden on *page* (assert names the first)."""
    shown = [s for s in selectors if page.is_visible(s)]
    assert shown == [], shown
    return True
