"""The two pages in headless Chromium (Debian's /usr/bin/chromium via Playwright; skipped
with the reason when it is missing): the big screen follows the host's clock and actions,
fits 16:9 and 4:3; the console shows the tables and the instructions, acts through its
forms and keyboard shortcuts, and a page without the token cannot act.

The tournament is FakeLive (tests/web/fake_live.py), served by uvicorn in a thread; the
test changes it only while holding the web's lock, as the host's poll loop does.  Every
wait is bounded (browser.WAIT_MS) and ends as soon as the page shows the expected text.
"""

import re

from browser import (
    js_errors,
    open_console,
    open_page,
    served,
    text,
    wait_text,
    wait_visible,
)
from fake_live import FakeLive


def td(web, live, action, args=None):
    """A TD action straight on the Live, as the host would make it (under the lock)."""
    with web.lock:
        return live.act(action, args or {})


def snap(web, live):
    with web.lock:
        return live.snapshot()


# ------------------------------------------------------------------------ the big screen

def test_big_screen_shows_the_clock_and_follows_actions(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/")
        wait_text(page, "#blinds", "25 / 50")  # LPPL level 1
        assert text(page, "#level").lower() == "level 1"
        wait_text(page, "#time", re.compile(r"^(20:00|19:5\d)$"))
        wait_text(page, "#time", re.compile(r"^19:5\d$"))  # counts down by itself
        assert text(page, "#left") == "23" and text(page, "#entries") == "23"
        assert text(page, "#blinds-label") == "BLINDS"
        assert page.is_hidden("#ante-cell")  # LPPL has no ante: the blinds have the line
        assert text(page, "#avg") == "3,000"
        assert page.is_hidden("#paused") and page.is_hidden("#h4h")

        td(web, live, "pause")
        wait_visible(page, "#paused")
        assert text(page, "#paused") == "PAUSED"  # innerText: as the room sees it
        shown = text(page, "#time")
        page.wait_for_timeout(1200)  # a paused clock does not move
        assert text(page, "#time") == shown

        td(web, live, "level", {"level": 6})  # the level after the first break
        wait_text(page, "#blinds", "200 / 400")
        wait_text(page, "#level", re.compile("level 6", re.I))
        wait_text(page, "#time", "20:00")  # a new level, still paused

        td(web, live, "hand_for_hand", {"on": True})
        wait_visible(page, "#h4h")
        assert text(page, "#h4h") == "HAND FOR HAND"
        assert js_errors(page) == []


def test_big_screen_shows_breaks_colour_ups_and_moves(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/")
        td(web, live, "level", {"level": 5})
        wait_text(page, "#next", "Break 10 min")
        wait_text(page, "#breakin", re.compile(r"^(20:00|19:5\d)$"))
        with web.lock:  # run level 5 out: the clock moves into the break
            live._s["level_end_ms"] -= 20 * 60000
            live.poll()
        wait_text(page, "#level", re.compile("^break$", re.I))
        wait_text(page, "#colour", "Colour up: the 25 and 50 chips go out.")
        assert text(page, "#blinds") == "200 / 400"
        assert text(page, "#blinds-label") == "NEXT LEVEL BLINDS"
        td(web, live, "bust", {"names": ["Ian McAllister"]})  # 8, 8, 6: one move
        out = snap(web, live)["pending"][0]
        td(web, live, "confirm", {"id": out["id"]})  # the player left table 1 ...
        rcv = [p for p in snap(web, live)["pending"] if p["action"] == "receive"][0]
        td(web, live, "confirm", {"id": rcv["id"]})  # ... and sat down at table 3
        wait_text(page, "#news", "Vince Polley: table 1 seat 8 → table 3 seat 3")
        assert text(page, "#news").upper().startswith("MOVES")
        assert "Alice" not in page.content()  # no seat list on the big screen
        with web.lock:  # the night is over: the places instead of the clock and the moves
            live._s["state"] = "finished"
            live.version += 1
        wait_visible(page, "#finish")
        assert "Ian McAllister" in text(page, "#places")
        assert page.is_hidden(".bs-clock") and page.is_hidden("#news")
        assert js_errors(page) == []


def test_big_screen_fits_16_9_and_4_3(browser):
    live = FakeLive()
    with served(live) as web:
        td(web, live, "level", {"level": 14})  # the longest blinds: 3,000 / 6,000
        for w, h in ((1920, 1080), (1280, 720), (1024, 768), (800, 600), (390, 844)):
            page = open_page(browser, web.url + "/", w, h)
            wait_text(page, "#blinds", "3,000 / 6,000")
            assert page.evaluate("document.documentElement.scrollWidth") <= w
            for sel in ("#time", "#blinds", "#level", "#breakin", "#left", "#entries", "#avg"):
                box = page.locator(sel).bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= w, (w, h, sel, box)
                assert box["y"] >= 0 and box["y"] + box["height"] <= h, (w, h, sel, box)
                fits = page.evaluate("(s) => { const e = document.querySelector(s);"
                                     " return e.scrollWidth <= e.clientWidth + 1; }", sel)
                assert fits, (w, h, sel)
            # the time is the biggest thing on the screen: at least a fifth of the height
            # (on a portrait screen: most of the width)
            box = page.locator("#time").bounding_box()
            if w > h:
                assert box["height"] >= h / 5, (w, h)
            else:
                width = page.evaluate("(() => { const r = document.createRange();"
                                      " r.selectNodeContents(document.getElementById('time'));"
                                      " return r.getBoundingClientRect().width; })()")
                assert width >= 0.6 * w, (w, h, width)
            page.context.close()


# --------------------------------------------------------------------------- the console

def test_console_needs_the_token(browser):
    with served(FakeLive()) as web:
        page = open_page(browser, web.url + "/td")
        assert "needs the TD" in page.content()
        page.goto(web.url + "/td?token=not-the-token")
        assert "not the TD" in page.content()


def answer(page, yes, value=None):
    """The console's question is open: fill its field with *value* if given, then yes/no."""
    wait_visible(page, "#ask")
    if value is not None:
        page.fill("#ask-input", value)
    page.click("#ask-yes" if yes else "#ask-no")
    wait_visible(page, "#ask", visible=False)


def test_console_shows_the_tables_and_offers_the_balancing_move(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_console(browser, web)
        wait_text(page, "#tables", "Alice Moreton")
        cards = page.locator("#tables .tcard")
        assert cards.count() == 3
        t1 = page.locator('.tcard[data-table="1"]')
        assert t1.locator(".link").inner_text().lower() == "box live"
        assert t1.locator(".tfoot .who").inner_text().endswith("tc-01")
        assert t1.locator(".b.dealer").count() == 1 and t1.locator(".b.bb").count() == 1
        assert page.locator('.tcard[data-table="3"] .link').inner_text().lower() == \
            "box linked"
        assert page.is_visible("#pending-none")

        # find a player, Enter: the bust box; Out asks first; tables 8, 8, 6 -> one move
        page.fill("#search", "ian mc")
        page.press("#search", "Enter")
        assert page.input_value("#bust-names") == "Ian McAllister"
        page.press("#bust-names", "Enter")
        wait_text(page, "#ask-text", "Ian McAllister (table 3 seat 3, ")
        answer(page, True)
        wait_text(page, "#msg", "Out: Ian McAllister (23).")
        wait_text(page, "#pending", "Vince Polley")
        row = page.locator("#pending li").first
        assert "Ian McAllister" not in page.locator("#tables").inner_text()

        # the move's Confirm asks for the chips the player left with: cancelled, it
        # confirms nothing; without a number it asks again (and Cancel there confirms
        # nothing either); 4,250 goes to the receive
        row.locator("button.confirm").click()
        answer(page, False, "4,250")
        row.locator("button.confirm").click()
        for given in ("lots", ""):
            wait_visible(page, "#ask")
            page.fill("#ask-input", given)
            page.click("#ask-yes")
            wait_text(page, "#ask-note", "Without it nothing is recorded.")
        answer(page, False)
        assert snap(web, live)["pending"][0]["state"] == "sent"
        row.locator("button.confirm").click()
        answer(page, True, "4,250")
        wait_text(page, "#msg", "(out), 4250 chips.")
        wait_text(page, "#pending", "(in, 4250 chips)")
        assert page.locator("#pending li").count() == 1  # the done half left the list

        page.locator("#pending li button.confirm").click()
        answer(page, True)
        wait_text(page, "#moves", "Vince Polley: table 1 seat 8 → table 3 seat 3")
        wait_text(page, '.tcard[data-table="3"]', "Vince Polley")
        wait_text(page, '.tcard[data-table="3"] [data-name="Vince Polley"]', "4,250")
        assert {p["state"] for p in snap(web, live)["pending"]} == {"done"}
        wait_visible(page, "#pending-none")
        assert js_errors(page) == []


def test_console_refusal_is_shown_and_changes_nothing(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_console(browser, web)
        page.fill("#bust-names", "Nobody Here")
        page.press("#bust-names", "Enter")
        # refused before any question: no "Are you sure?" for what the host will not take
        wait_text(page, "#msg", "Nobody called Nobody Here is playing.")
        assert "bad" in page.get_attribute("#msg", "class") and page.is_hidden("#ask")
        page.fill("#level-no", "99")
        page.press("#level-no", "Enter")
        wait_text(page, "#msg", "The level must be a whole number from 1 to 14.")
        assert page.is_hidden("#ask")
        assert live.version == 1


def test_a_page_without_the_token_cannot_act(browser):
    live = FakeLive()
    with served(live) as web:
        page = open_page(browser, web.url + "/")
        wait_text(page, "#blinds", "25 / 50")
        status = page.evaluate("""async () => {
            const r = await fetch("/api/act/pause", {method: "POST",
                headers: {"Content-Type": "application/json"}, body: "{}"});
            return [r.status, (await r.json()).error];
        }""")
        assert status == [401, "This needs the TD's token: open the console link again."]
        assert live.version == 1 and not snap(web, live)["clock"]["paused"]


def test_pages_before_the_draw(browser):
    live = FakeLive(players=0)  # registration open, nobody seated yet
    with served(live) as web:
        big = open_page(browser, web.url + "/")
        wait_text(big, "#level", re.compile("level 1 · starting soon", re.I))
        assert text(big, "#avg") == "–"
        page = open_console(browser, web)
        page.fill("#reg-names", "Ann Smith, Bob Jones")
        page.check("#reg-member")
        page.press("#reg-names", "Enter")
        wait_text(page, "#msg", "Registered Ann Smith, Bob Jones.")
        wait_text(page, "#reg", "Bob Jones")
        assert page.locator("#reg .member").count() == 2
        assert snap(web, live)["players"]["entries"] == 2
        assert js_errors(big) == [] and js_errors(page) == []
