"""The room's pages in headless Chromium (docs/web.md §4, §7, §8): the big screen's labelled
blinds, time of day, blind schedule, chip-ups, counts and link legend; a free tournament
shows no money, a home game its pool and payouts; the break shows the next level once;
the TD's panels, layout, theme and mute from the console; the chimes and the spoken
blinds; the players' phone page with "find my seat"; no overflow at 1920x1080, 1280x720
and 390x844.  The tournament is FakeLive (tests/web/fake_live.py)."""

import datetime
import re
import tomllib

from browser import (
    TOKEN,
    js_errors,
    open_console,
    open_page,
    served,
    text,
    wait_text,
    wait_visible,
)
from fake_live import FakeLive
from test_pages import td

from tdhost.rules import money

SIZES = ((1920, 1080), (1280, 720), (390, 844))
HOME = "docs/examples/home_money.toml"


def home_money():
    with open(HOME, "rb") as f:
        return money.parse(tomllib.load(f)["money"], lambda p, m: None)


def no_overflow(page, w):
    assert page.evaluate("document.documentElement.scrollWidth") <= w, w
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > w + 1)
        .map((e) => e.id || e.className)""", w)
    assert wide == [], (w, wide)


def played(page):
    return page.evaluate("TCsound.played.slice()")


def test_big_screen_panels_of_a_free_tournament(browser):
    live = FakeLive()
    with served(live, listen="0.0.0.0") as web:  # phones could reach it: the QR code shows
        for w, h in SIZES:
            page = open_page(browser, web.url + "/", w, h)
            wait_text(page, "#schedule", "Level 2")
            assert text(page, "#blinds-label") == "BLINDS" and text(page, "#blinds") == "25 / 50"
            assert page.is_hidden("#ante-cell")  # no ante: no "ante none" on the screen
            rows = page.locator("#schedule li").all_inner_texts()
            assert [r.split("\n")[:2] for r in rows[:5]] == [
                ["Level 2", "50 / 100"], ["Level 3", "75 / 150"], ["Level 4", "100 / 200"],
                ["Level 5", "150 / 300"], ["Break", "10 min"]]
            assert re.search(r"in (19|20) min", rows[0])
            assert page.locator("#chipups li").all_inner_texts() == [
                "After level 5: the 25 and 50 chips go out.",
                "After level 10: the 100 chips go out."]
            assert page.locator("#chipups li.next").count() == 1
            assert (text(page, "#left"), text(page, "#entries"), text(page, "#avg")) == \
                ("23", "23", "3,000")
            assert text(page, "#conn") == "LIVE"  # the dot's legend
            tod = datetime.datetime.fromtimestamp(live.snapshot()["now_ms"] / 1000)
            assert re.fullmatch(r"\d\d:\d\d", text(page, "#tod"))
            assert abs(int(text(page, "#tod")[-2:]) - tod.minute) in (0, 1, 59)
            # a free tournament: no money anywhere on the page
            assert page.is_hidden("#pool-stat") and page.is_hidden("#p-payouts")
            assert not re.search(r"[£$€]|prize|payout", page.inner_text("body"), re.I)
            if w > 700:  # not on a phone-sized window
                page.wait_for_function("() => { const i = document.getElementById('qr');"
                                       " return i.complete && i.naturalWidth > 0; }")
            no_overflow(page, w)
            # no empty band at the bottom: the last thing shown reaches the bottom
            bottom = page.evaluate("""Math.max(...[...document.body.children]
                .filter((e) => e.offsetParent !== null || e.tagName === 'MAIN')
                .map((e) => e.getBoundingClientRect().bottom))""")
            assert bottom >= h - 0.03 * h, (w, h, bottom)
            assert js_errors(page) == []
            page.context.close()


def test_big_screen_shows_the_money_of_a_home_game(browser):
    live = FakeLive(money=home_money())
    with served(live) as web:
        for w, h in SIZES:
            page = open_page(browser, web.url + "/", w, h)
            # 23 x (£20 - £2) = £414 at 40/25/15/12/8 in £5 steps
            wait_text(page, "#pool", "£414")
            assert page.locator("#payouts li").all_inner_texts() == [
                "1st\n£179", "2nd\n£100", "3rd\n£60", "4th\n£45", "5th\n£30"]
            no_overflow(page, w)
            page.context.close()


def test_the_break_shows_the_next_level_once(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/")
        td(web, live, "level", {"level": 5})
        with web.lock:
            live._s["level_end_ms"] -= 20 * 60000
            live.poll()
        wait_text(page, "#level", re.compile("^break$", re.I))
        assert text(page, "#blinds-label") == "NEXT LEVEL BLINDS"
        assert text(page, "#blinds") == "200 / 400"
        assert page.inner_text("body").count("200 / 400") == 1
        assert page.locator("#schedule li").first.inner_text().startswith("Level 7")
        assert text(page, "#chipups li.now") == "After level 5: the 25 and 50 chips go out."


def test_chimes_and_spoken_blinds(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/")
        wait_text(page, "#blinds", "25 / 50")
        page.wait_for_timeout(500)
        assert played(page) == []  # nothing on opening the page
        td(web, live, "level", {"level": 2})
        wait_text(page, "#blinds", "50 / 100")
        assert played(page) == ["level"]
        with web.lock:  # 61 s left: the one-minute chime a second later
            live._s["level_end_ms"] = live._clock() + 61500
            live.version += 1
        page.wait_for_function("() => TCsound.played.includes('minute')", timeout=5000)
        td(web, live, "level", {"level": 5})  # to the break and out of it: break_end
        with web.lock:
            live._s["level_end_ms"] -= 20 * 60000
            live.poll()
        wait_text(page, "#level", re.compile("^break$", re.I))
        with web.lock:
            live._s["level_end_ms"] -= 10 * 60000
            live.poll()
        wait_text(page, "#level", re.compile("^level 6$", re.I))
        assert played(page)[-1] == "break_end"

        # the TD mutes the big screen from the console, then asks for the spoken blinds
        console = open_console(browser, web)
        console.click("#room-card summary")  # folded under the night's controls
        wait_text(console, "#room-sound", "Mute the big screen")
        console.click("#room-sound")
        wait_text(console, "#msg", "sound muted")
        wait_text(console, "#room-sound", "Sound on the big screen")
        n = len(played(page))
        td(web, live, "level", {"level": 8})
        wait_text(page, "#blinds", "400 / 800")
        page.wait_for_timeout(300)
        assert len(played(page)) == n  # muted: no chime
        console.click("#room-sound")
        wait_text(console, "#msg", "sound on")
        console.check("#room-speak")
        wait_text(console, "#msg", "blinds spoken")
        td(web, live, "level", {"level": 9})
        wait_text(page, "#blinds", "500 / 1,000")
        assert played(page)[-2:] == ["level", "speak:Level 9. Blinds 500 and 1000."]
        assert js_errors(page) == [] and js_errors(console) == []


def test_the_td_chooses_panels_layout_and_theme(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/", 1280, 720)
        wait_text(page, "#blinds", "25 / 50")
        assert "lay-16x9" in page.get_attribute("body", "class")
        console = open_console(browser, web)
        console.click("#room-card summary")
        wait_text(console, "#room-sound", "Mute")
        console.select_option("#room-layout", "4x3")
        wait_text(console, "#msg", "4:3 layout")
        console.select_option("#room-theme", "contrast")
        wait_text(console, "#msg", "high-contrast theme")
        console.uncheck('[data-panel="qr"]')
        wait_text(console, "#msg", "The big screen: blind schedule, chip-ups, players "
                                        "and stacks, seat moves, league leaderboard; 4:3 layout")
        page.wait_for_function("() => document.body.classList.contains('theme-contrast')")
        page.wait_for_selector("#p-qr", state="hidden")
        assert "lay-4x3" in page.get_attribute("body", "class")
        assert page.is_hidden("#p-qr") and page.is_visible("#p-schedule")
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(0, 0, 0)"
        no_overflow(page, 1280)
        # without the token (the big screen's own fetch) the settings cannot change
        status = page.evaluate("""async () => (await fetch("/api/display", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: '{"sound": false}'})).status""")
        assert status == 401
        assert page.evaluate("fetch('/api/display').then((r) => r.json())")["sound"] is True


def test_the_players_phone_page(browser):
    live = FakeLive(money=home_money())
    with served(live) as web:
        for w, h in SIZES:
            page = open_page(browser, web.url + "/p", w, h)
            wait_text(page, "#blinds", "25 / 50")
            assert page.is_hidden("#ante-cell")  # level 1 has no ante: no "ante none"
            assert text(page, "#left") == "23 of 23"
            wait_text(page, "#pool", "£414")
            assert page.locator("#schedule li").first.inner_text().split("\n")[:2] == \
                ["Level 1", "25 / 50"]
            no_overflow(page, w)
            body = page.inner_text("body")
            assert "Alice Moreton" not in body and TOKEN not in page.content()
            page.fill("#seat-name", "alice")
            page.press("#seat-name", "Enter")
            wait_text(page, "#seat-out", "Alice Moreton: table 1 seat 1.")
            page.fill("#seat-name", "Nobody Here")
            page.click(".seat-form button")
            wait_text(page, "#seat-out", "Nobody called Nobody Here is in this tournament.")
            page.fill("#seat-name", "al")
            page.click(".seat-form button")
            wait_text(page, "#seat-out", "Type at least 3 letters of your name.")
            assert js_errors(page) == []
            page.context.close()
        # a player who is being moved sees where to go
        td(web, live, "bust", {"names": ["Ian McAllister"]})  # 8, 8, 6: one move
        page = open_page(browser, web.url + "/p", 390, 844)
        page.fill("#seat-name", "Vince Polley")
        page.press("#seat-name", "Enter")
        wait_text(page, "#seat-out", "Vince Polley: table 1 seat 8 → moving to table 3 seat 3.")


def test_the_money_card_on_a_home_game(browser, tmp_path):
    """The real Live on docs/examples/home_money.toml (12 players, no boxes): a re-buy from
    the console's room card reaches the big screen's pool and payouts; Undo takes it back."""
    from tcsim import serve_demo
    from tdhost.live.night import Live

    db = str(tmp_path / "home.sqlite")
    serve_demo.new_tournament(db, HOME)
    live = Live(db, seed=3)
    try:
        live.act("register", {"names": serve_demo.NAMES[:12]})
        live.act("draw", {"seed": 3})
        live.act("start", {})
        with served(live) as web:
            big = open_page(browser, web.url + "/")
            wait_text(big, "#pool", "£216")  # 12 x (£20 - £2)
            console = open_console(browser, web)
            wait_text(console, "#room-pool", "£216 · 12 entries")
            assert console.is_hidden("#ko-form") is False  # a bounty game
            console.fill("#rebuy-name", "Ben Taylor")
            console.press("#rebuy-name", "Enter")
            wait_text(console, "#msg", "Re-buy Ben Taylor: £20 for 10000 chips.")
            # £236 at 40/25/15/12/8 % in £5 steps: 90, 55, 35, 25, 15; 1st + £16
            wait_text(big, "#pool", "£236")
            assert big.locator("#payouts li").all_inner_texts() == [
                "1st\n£106", "2nd\n£55", "3rd\n£35", "4th\n£25", "5th\n£15"]
            console.fill("#addon-name", "Ben Taylor")
            console.press("#addon-name", "Enter")
            wait_text(console, "#msg", "Add-ons are taken in level 4 and the break after "
                                            "it; this is level 1.")
            # the console's Undo (its question in words, then yes) takes the re-buy back
            wait_text(console, "#undo", "Undo: re-buy Ben Taylor: £20 for 10000 chips")
            console.click("#undo")
            wait_visible(console, "#ask")
            assert "the re-buy comes off the pool" in text(console, "#ask-text")
            console.click("#ask-yes")
            wait_text(big, "#pool", "£216")
            assert live.snapshot()["money"]["rebuys"] == 0
            assert js_errors(big) == [] and js_errors(console) == []
    finally:
        live.close()


def test_tied_players_share_their_prize_on_every_page(browser, tmp_path):
    """The real Live on the home game, 12 players (£216 paid £96, 50, 30, 25, 15): two out in
    one hand with equal chips tie for 5th and share £15 + nothing in £5 steps, the step
    left over to the first named: the big screen, the phones and the printout say so."""
    from tcsim import serve_demo
    from tdhost.live.night import Live

    db = str(tmp_path / "home.sqlite")
    serve_demo.new_tournament(db, HOME)
    live = Live(db, seed=3)
    names = serve_demo.NAMES[:12]
    a, b = names[6:8]
    try:
        live.act("register", {"names": names})
        live.act("draw", {"seed": 3})
        live.act("start", {})
        for n in names[:6]:  # 12th to 7th
            live.act("bust", {"names": [n]})
        live.act("bust", {"names": [a, b], "chips": [5000, 5000]})
        with served(live) as web:
            big = open_page(browser, web.url + "/")
            wait_text(big, "#payouts", b)
            assert [x.split("\n") for x in big.locator("#payouts li").all_inner_texts()][3:] \
                == [["4th", "£25"], ["5th=", "£10", a], ["5th=", "£5", b]]
            phone = open_page(browser, web.url + "/p", 390, 844)
            wait_text(phone, "#payouts", b)
            assert [x.split("\n") for x in phone.locator("#payouts li").all_inner_texts()][4:] \
                == [["5th=", a, "£10"], ["5th=", b, "£5"]]
            printout = open_console(browser, web)
            printout.goto(web.url + "/td/print/results")
            rows = [r.split("\t") for r in printout.locator(
                ".pr-table tbody tr").all_inner_texts()]
            assert [r for r in rows if r[1] in (a, b)] == [
                ["5th=", a, "", "£10"], ["5th=", b, "", "£5"]]
            assert js_errors(big) == [] and js_errors(phone) == [] and js_errors(printout) == []
    finally:
        live.close()


def test_printouts_seat_cards_table_sheets_results_league(browser):
    live = FakeLive()
    with served(live) as web:
        anon = open_page(browser, web.url + "/td/print")
        assert "The printouts need the TD's token." in anon.inner_text("body")  # a page
        # the token in the address signs in, as the console's link does
        page = open_page(browser, web.url + "/td/print/seats?token=" + TOKEN)
        assert page.url == web.url + "/td/print/seats"
        assert page.locator(".card-seat").count() == 23  # every player seated
        assert page.locator(".card-seat").first.inner_text().split("\n") == [
            "Table 1 · Seat 1", "Alice Moreton", "Monday night at the Red Lion"]
        names = [r.split("\t")[0] for r in page.locator(".seat-list tbody tr").all_inner_texts()]
        assert names == sorted(names) and len(names) == 23  # the seat list, by name
        page.context.close()
        for w, h in SIZES:
            page = open_console(browser, web, w, h)
            page.goto(web.url + "/td/print/tables")
            assert page.locator(".sheet").count() == 3
            assert page.locator(".sheet").nth(2).locator("tbody tr").all_inner_texts()[-1] \
                == "8\tempty"  # table 3 has 7 players
            no_overflow(page, w)
            page.context.close()
        td(web, live, "bust", {"names": ["Ian McAllister"]})
        page = open_console(browser, web)
        page.goto(web.url + "/td/print")
        page.click("text=Results")
        assert "Ian McAllister" in page.inner_text(".pr-table")
        page.goto(web.url + "/td/print/league")
        assert page.locator(".pr-table tbody tr").first.inner_text().split("\t")[:2] == \
            ["1", "Alice Moreton"]
        page.goto(web.url + "/td/print/signin")
        assert page.locator(".signin tbody tr").count() == 23 + 8  # and 8 for walk-ins
        # on paper: a table sheet a page, black on white, no buttons
        page.goto(web.url + "/td/print/tables")
        page.emulate_media(media="print")
        assert page.is_hidden(".pr-bar")
        assert page.locator(".sheet").first.evaluate(
            "(e) => getComputedStyle(e).breakAfter") == "page"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == \
            "rgb(255, 255, 255)"
        pdf = page.pdf()  # what the browser's "Save as PDF" makes
        assert pdf[:5] == b"%PDF-" and pdf.count(b"/Type /Page\n") + pdf.count(
            b"/Type /Page ") + pdf.count(b"/Type/Page") >= 3
        assert js_errors(page) == []
