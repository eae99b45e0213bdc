"""The league during the night: `tdhost serve`'s background push (tdhost.season.autopush)
and its line in the console's snapshot, offline included; the web console's registration
taking the league's spelling of a member after a pull (as `register` and `late` do)."""

import time

from test_season import organiser, set_up
from venueutil import night, run, tournament_file

from tdhost.live.leaguepush import LeaguePush
from tdhost.live.night import Live
from tdhost.season.autopush import AutoPush

NOW = 1741032000000


def _live(path):
    return Live(str(path), clock=lambda: NOW, seed=5)


def test_serve_pushes_in_the_background_and_the_console_shows_it(league_db, tmp_path):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"], finish=False)
    live = _live(lion)
    try:
        live.league_push = LeaguePush()
        assert live.snapshot()["league"] == {"text": "Not pushed yet this night.", "ok": False,
                                             "at_ms": None, "waiting": None}
        pusher = AutoPush(str(lion), logins["Red Lion"], live.league_push, every_s=0.05)
        version = live.version
        pusher.start()
        try:
            for _ in range(200):
                if live.league_push.rev:
                    break
                time.sleep(0.02)
        finally:
            pusher.stop()
        live.poll(NOW)
        assert live.version != version  # the console hears of it
        seen = live.snapshot()["league"]
        assert seen["ok"] and seen["waiting"] == 0
        assert seen["text"].startswith("Pushed ") and "of Red Lion (tournament 1)" in seen["text"]
        with organiser(league_db) as db:
            assert db.execute("SELECT count(*) FROM entrants").fetchone()[0] == 3
        # a registration later waits for the next push
        live.act("register", {"names": ["Dan Roe"]})
        assert live.snapshot()["league"]["waiting"] == 1
    finally:
        live.close()


def test_offline_the_night_goes_on_and_the_console_says_so(tmp_path):
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee"], finish=False)
    live = _live(lion)
    try:
        live.league_push = LeaguePush()
        pusher = AutoPush(str(lion), "host=/nonexistent/sock dbname=x user=y",
                          live.league_push, timeout_s=1)
        started = time.monotonic()
        pusher.push_once()
        assert time.monotonic() - started < 3
        seen = live.snapshot()["league"]
        assert not seen["ok"] and seen["waiting"] is None
        assert seen["text"].startswith("The league server cannot be reached")
        assert "push again later" in seen["text"]
        assert "Dan Roe" in live.act("register", {"names": ["Dan Roe"]})["text"]
    finally:
        live.close()


def test_the_console_registers_a_member_by_the_league_s_spelling(league_db, tmp_path):
    logins = set_up(league_db)
    lion, crown = tmp_path / "lion.sqlite", tmp_path / "crown.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    run(["new", tournament_file(tmp_path, "Crown Tuesday", "2025-03-04")], db=crown)
    run(["register", "Eve Moss"], db=crown)
    run(["season", "pull"], db=crown, server=logins["Crown"])
    live = _live(crown)
    try:
        out = live.act("register", {"names": ["ANN  lee", "Zoe Park"]})
        assert out["text"].startswith("Ann Lee ")
        assert out["text"].endswith(" The league knows ANN lee as #1 Ann Lee: the league's "
                                    "spelling is used.")
        players = {p["name"]: p["member"] for p in live.snapshot()["registration"]}
        assert players == {"Eve Moss": False, "Ann Lee": True, "Zoe Park": False}
        live.act("draw", {"seed": 3})
        live.act("start", {})
        said = live.act("late", {"name": "bob HART"})["text"]
        assert said.endswith(" The league knows bob HART as #2 Bob Hart: the league's "
                             "spelling is used.")
        players = {p["name"]: p["member"] for p in live.snapshot()["registration"]}
        assert players["Bob Hart"] is True and "bob HART" not in players
    finally:
        live.close()


def test_serve_says_it_pushes_and_runs_the_night_offline(tmp_path):
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee"], finish=False)
    out = run(["serve", "--no-web", "--polls", "2", "--poll-ms", "1"], db=lion,
              server="host=/nonexistent/sock dbname=x user=y").output
    assert "League server: the league file is pushed in the background" in out
    assert out.rstrip().endswith("Stopped after 2 polls.")


def test_two_records_of_one_person_merge_with_an_audit_row(league_db, tmp_path):
    logins = set_up(league_db)
    lion, crown = tmp_path / "lion.sqlite", tmp_path / "crown.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"])
    night(crown, tmp_path, "Crown Tuesday", "2025-03-04", ["Anne Lee", "Bob Hart"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    run(["season", "push"], db=crown, server=logins["Crown"])
    # Bob Hart and Ann Lee played one tournament: two people, refused
    res = run(["season", "merge-members", "1", "2", "--yes"], server=league_db, expect=2)
    assert "both played Red Lion Monday on 2025-03-03, so they are two people" in res.output
    out = run(["season", "merge-members", "Ann Lee", "anne lee", "--yes"],
              server=league_db).output
    assert out.startswith("Member #3 Anne Lee is merged into #1 Ann Lee: 1 entry moved")
    with organiser(league_db) as db:
        assert db.execute("SELECT kept, merged, name, key, entries, by_login FROM "
                          "member_merges").fetchall() == [(1, 3, "Anne Lee", "anne lee", 1,
                                                           "tcadmin")]
        assert db.execute("SELECT number FROM members ORDER BY 1").fetchall() == [(1,), (2,)]
    hist = run(["season", "history", "Anne Lee"], server=league_db).output.splitlines()
    assert hist[0] == "Member #1 Ann Lee" and len(hist[3:]) == 2
    # the league's standings count both nights for #1 (each 1st of 2: 14.14)
    run(["season", "pull"], db=crown, server=logins["Crown"])
    table = run(["season", "standings", "--scope", "league"], db=crown).output.splitlines()
    assert table[3].split() == ["1", "Ann", "Lee", "#1", "2", "2", "1", "28.28"]
    # the Crown's next night: its Anne Lee counts as #1, no new member
    night(crown, tmp_path, "Crown Tuesday 2", "2025-03-11", ["Anne Lee", "Bob Hart"])
    run(["season", "push"], db=crown, server=logins["Crown"])
    with organiser(league_db) as db:
        assert db.execute("SELECT count(*) FROM members").fetchone()[0] == 2
        assert db.execute("SELECT count(*) FROM entrants WHERE member = 1").fetchone()[0] == 3


def test_the_league_s_page_shows_the_standings_and_their_csv(league_db, tmp_path):
    from starlette.testclient import TestClient

    from tdhost.season.page import make_app

    logins = set_up(league_db)
    lion, swan = tmp_path / "lion.sqlite", tmp_path / "swan.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "@Bo Hart"],
          ["Cal Diaz"])
    night(swan, tmp_path, "Swan Monday", "2025-03-03", ["Dan Roe", "Eve Moss"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    run(["season", "push"], db=swan, server=logins["Swan"])
    page = TestClient(make_app(logins["Crown"], "organiser-token-1"))  # any venue's login
    # nothing without the organiser's token: the standings, a venue's CSV, a wrong token
    for path in ("/", "/league.csv", "/venue/Red%20Lion.csv", "/area/Lincoln"):
        refused = page.get(path)
        assert refused.status_code == 401 and "Ann Lee" not in refused.text
        assert "needs the organiser&#x27;s token" in refused.text
    wrong = page.get("/?token=organiser-token-2", follow_redirects=False)
    assert wrong.status_code == 401 and "not the organiser&#x27;s token" in wrong.text
    assert page.get("/", headers={"Authorization": "Bearer organiser-token-1"}
                    ).status_code == 200
    signed = page.get("/?token=organiser-token-1", follow_redirects=False)
    assert signed.status_code == 303 and signed.headers["location"] == "/"
    html = page.get("/").text  # the cookie, from now on
    assert "<h1>Standings of LPPL Lincolnshire</h1>" in html and "/static/style.css" in html
    assert "Dan Roe" in html and "Cal Diaz" not in html  # members only
    area = page.get("/area/Lincoln").text
    assert "Ann Lee" in area and "Dan Roe" not in area
    venue = page.get("/venue/Red%20Lion.csv")
    assert venue.headers["content-type"].startswith("text/csv")
    # 1st of 3 (17.32); a name a spreadsheet would take for a formula is quoted
    assert venue.text.splitlines() == [
        "rank,name,member,events,wins,best,points", "1,Ann Lee,2,1,1,1,17.32",
        "2,'@Bo Hart,1,1,0,2,12.25", "3,Cal Diaz,,1,0,3,10.0"]
    assert page.get("/league.csv").text.count("\n") == 5
    res = page.get("/venue/Nowhere")
    assert res.status_code == 404 and res.text == "The league has no venue Nowhere.\n"
    assert page.get("/static/style.css").status_code == 200
    assert page.get("/logout").status_code == 401
    assert page.get("/").status_code == 401  # signed out
