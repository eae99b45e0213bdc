"""The area leaderboard for the room (docs/web.md §10, docs/league.md "Pull"): after a pull
the league file holds the area's standings (written by tdhost.season.pull's own writer);
GET /api/leaderboard serves them offline, the big screen shows them before the start and
during a break (never while a level is played; in turns of 15 s with the other panels),
the players' page in a card of its own;
nothing shows before a first pull; a name from the league server stays text."""

import types
import warnings

from browser import js_errors, open_page, served, text, wait_text
from fake_live import FakeLive
from test_pages import td

from tdhost.league import store as _store
from tdhost.season import pull as _pull
from tdhost.web import leaderboard as _board
from tdhost.web.app import make_app

with warnings.catch_warnings():  # starlette 1.10 would rather have httpx2 than httpx here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

HOSTILE = "<img src=x onerror=alert(1)>\u202eZed"
AREA = [  # the area's standings as the league server sends them (tdhost.season.standings)
    {"rank": 1, "name": "Ann Lee", "member": 12, "events": 9, "wins": 2, "best": 1,
     "points": 120.0},
    {"rank": 2, "name": "Bob Price", "member": 7, "events": 8, "wins": 1, "best": 1,
     "points": 95.5},
    {"rank": 3, "name": HOSTILE, "member": None, "events": 3, "wins": 0, "best": 4,
     "points": 40.0},
    {"rank": 4, "name": "Cy Dunn", "member": 30, "events": 1, "wins": 0, "best": 9,
     "points": 1.0},
]
VENUE = [dict(AREA[1], rank=1)]


def pulled_file(tmp_path, area=AREA):
    """A league file after a pull: league "Wessex Winter 2026", area North, venue Red Lion."""
    path = str(tmp_path / "venue.sqlite")
    _store.Store(path, create=True).close()
    _pull._write(path, {"league": "Wessex Winter 2026", "venue": "Red Lion", "area": "North",
                        "members": [(12, "ann lee", "Ann Lee", "M12")], "notices": [],
                        "league_rows": list(area), "area_rows": list(area),
                        "venue_rows": VENUE})
    return path


def with_file(live, path):
    live.store = types.SimpleNamespace(path=path)  # Live's league file (live.store.path)
    return live


def test_the_pulled_area_standings_for_the_room(tmp_path):
    path = pulled_file(tmp_path)
    got = _board.board(path)
    assert got["shown"] and (got["league"], got["area"], got["venue"]) == (
        "Wessex Winter 2026", "North", "Red Lion")
    assert [r["text"] for r in got["rows"]] == [
        "1. Ann Lee 120 pts", "2. Bob Price 95.5 pts",
        "3. <img src=x onerror=alert(1)>\\u202eZed 40 pts", "4. Cy Dunn 1 pt"]
    assert [r["member"] for r in got["rows"]] == ["#12", "#7", "", "#30"]
    assert got["as_of"] == _board.as_of(got["at"]) and got["at"].endswith("+00:00")
    assert len(_board.board(path, top=2)["rows"]) == 2


def test_as_of_is_the_rooms_local_time(monkeypatch):
    import time
    monkeypatch.setenv("TZ", "Europe/London")
    time.tzset()
    try:
        assert _board.as_of("2026-07-04T21:05:09+00:00") == "4 Jul 22:05"  # BST
        assert _board.as_of("2026-12-04T21:05:09+00:00") == "4 Dec 21:05"
        assert _board.as_of("garbage\x1b[2J") == "garbage\\x1b[2J"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_nothing_before_a_pull_or_without_a_file(tmp_path):
    path = str(tmp_path / "never-pulled.sqlite")
    _store.Store(path, create=True).close()
    assert _board.board(path) == {"shown": False, "rows": []}
    assert _board.board(None) == {"shown": False, "rows": []}
    assert _board.board(str(tmp_path / "missing.sqlite")) == {"shown": False, "rows": []}
    assert _board.board(pulled_file(tmp_path, area=[]))["shown"] is False


def test_the_endpoint_is_public_and_offline(tmp_path):
    client = TestClient(make_app(with_file(FakeLive(), pulled_file(tmp_path)), "t" * 16))
    r = client.get("/api/leaderboard")  # no token: the room may see it
    assert r.status_code == 200 and r.json()["rows"][0]["text"] == "1. Ann Lee 120 pts"
    assert "no-cache" in r.headers["cache-control"]
    bare = TestClient(make_app(FakeLive(), "t" * 16)).get("/api/leaderboard")
    assert bare.json() == {"shown": False, "rows": []}


def test_a_pull_during_the_night_shows_after_fresh_s(tmp_path, monkeypatch):
    path = str(tmp_path / "venue.sqlite")
    _store.Store(path, create=True).close()
    clock = [1000.0]
    monkeypatch.setattr(_board.time, "monotonic", lambda: clock[0])
    shown = _board.Board(path)
    assert shown.current()["shown"] is False
    pulled_file(tmp_path)
    clock[0] += _board.FRESH_S - 1
    assert shown.current()["shown"] is False  # read again only after FRESH_S
    clock[0] += 1
    assert shown.current()["rows"][1]["text"] == "2. Bob Price 95.5 pts"


def board_rows(page, where):
    return [" ".join(r.split()) for r in page.locator(where + " .board li").all_text_contents()]


def test_big_screen_before_the_start_and_in_the_break_not_in_a_level(browser, tmp_path):
    path = pulled_file(tmp_path)
    waiting = with_file(FakeLive(players=0), path)  # registration: before the start
    with served(waiting) as web:
        page = open_page(browser, web.url + "/", 1280, 720)
        wait_text(page, "#p-league", "Ann Lee")
        assert board_rows(page, "#p-league")[:4] == [
            "1. Ann Lee #12 120 pts", "2. Bob Price #7 95.5 pts",
            "3. <img src=x onerror=alert(1)>\\u202eZed 40 pts", "4. Cy Dunn #30 1 pt"]
        assert page.locator("#p-league img").count() == 0  # the name stayed text
        assert "Wessex Winter 2026 · area North" in text(page, "#p-league h2")
        assert text(page, "#p-league .lb-asof").startswith("as of ")
        assert page.is_visible("#time")  # the clock keeps its place
        assert js_errors(page) == []
    live = with_file(FakeLive(), path)  # level 1 is being played
    with served(live) as web:
        page = open_page(browser, web.url + "/", 1280, 720)
        wait_text(page, "#blinds", "25 / 50")
        page.wait_for_timeout(300)
        assert page.is_hidden("#p-league")
        td(web, live, "level", {"level": 5})
        with web.lock:  # level 5 runs out: the break
            live._s["level_end_ms"] -= 20 * 60000
            live.poll()
        wait_text(page, "#level", "Break")
        wait_text(page, "#p-league", "1. Ann Lee")  # its turn comes first
        assert page.is_visible("#time") and page.is_visible("#blinds")
        assert page.is_hidden("#p-schedule")  # the panel row is the leaderboard's
        bearer = {"Authorization": "Bearer " + web.console_url.split("token=")[1]}
        display = {"panels": ["schedule", "chipups", "stats", "payouts", "qr", "news"]}
        page.request.post(web.url + "/api/display", data=display, headers=bearer)
        page.locator("#p-league").wait_for(state="hidden", timeout=5000)  # the TD's choice
        assert page.is_visible("#p-schedule")
        display["panels"].append("league")
        page.request.post(web.url + "/api/display", data=display, headers=bearer)
        page.locator("#p-league").wait_for(state="visible", timeout=5000)
        # after 15 s the other panels have their turn, then the leaderboard again
        page.locator("#p-schedule").wait_for(state="visible", timeout=20000)
        assert page.is_hidden("#p-league")
        assert js_errors(page) == []


def test_the_big_screen_shows_it_when_the_first_snapshot_came_before_its_script(
        browser, tmp_path):
    """The page's scripts are deferred: the first snapshot can come before leaderboard.js
    has run (a slow machine, a slow Wi-Fi).  Before the start nothing changes, so no
    second snapshot comes: the leaderboard starts from the page's last snapshot
    (TC.snapshot) instead of waiting for one."""
    import time

    def late(route):
        time.sleep(1.0)  # leaderboard.js arrives a second late: the snapshot is there first
        got = route.fetch()
        route.fulfill(response=got, body="window.lbRanAt = performance.now();\n" + got.text())

    with served(with_file(FakeLive(players=0), pulled_file(tmp_path))) as web:
        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
        ctx.add_init_script("document.addEventListener('tc-snapshot', () => {"
                            " window.snapAt = window.snapAt || performance.now(); });")
        ctx.route("**/static/leaderboard.js", late)
        page = ctx.new_page()
        page.goto(web.url + "/")
        wait_text(page, "#p-league", "Ann Lee")
        assert page.evaluate("window.snapAt < window.lbRanAt")  # (the race this is about)
        assert page.is_visible("#p-league")


def test_players_page_has_the_area_standings(browser, tmp_path):
    with served(with_file(FakeLive(), pulled_file(tmp_path))) as web:
        page = open_page(browser, web.url + "/p", 390, 844)
        wait_text(page, "#league-card", "Ann Lee")
        assert board_rows(page, "#league-card")[:2] == [
            "1. Ann Lee #12 120 pts", "2. Bob Price #7 95.5 pts"]
        assert len(board_rows(page, "#league-card")) == 4
        assert "Wessex Winter 2026 · area North" in text(page, "#league-card .lb-what")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert js_errors(page) == []
    with served(FakeLive()) as web:  # nothing pulled: no card
        page = open_page(browser, web.url + "/p", 390, 844)
        wait_text(page, "#conn", "live")
        page.wait_for_timeout(300)
        assert page.is_hidden("#league-card")


def test_the_real_host_serves_the_pull_of_its_own_league_file(tmp_path):
    """tdhost serve's Live: its league file (live.store.path) is the one a pull writes to,
    while the night is open."""
    from tcsim import serve_demo
    from tdhost.live.night import Live

    db = str(tmp_path / "venue.sqlite")
    serve_demo.new_tournament(db, "docs/examples/lppl.toml")
    live = Live(db, seed=3)
    try:
        client = TestClient(make_app(live, "t" * 16))
        assert client.get("/api/leaderboard").json()["shown"] is False
        _pull._write(db, {"league": "Wessex Winter 2026", "venue": "Red Lion", "area": "North",
                          "members": [], "notices": [], "league_rows": AREA,
                          "area_rows": AREA, "venue_rows": VENUE})
        fresh = TestClient(make_app(live, "t" * 16))  # a new app reads at once (no 15 s)
        assert [r["text"] for r in fresh.get("/api/leaderboard").json()["rows"][:2]] == [
            "1. Ann Lee 120 pts", "2. Bob Price 95.5 pts"]
    finally:
        live.close()
