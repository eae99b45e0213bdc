"""What only the league sees, told to whom it concerns (docs/league.md, "Clashes" and "Rulings
the league gives"): a member registered at two venues on one night (LPPL ¶72), with times,
on both TDs' consoles and the organiser's page; a member number given to two names; a
player's request for the league's ruling, recorded against the tournament (the TD's action
`ruling`, CLI and console), in its results, pushed and listed for the organiser."""

import datetime

from starlette.testclient import TestClient
from test_league_member_numbers import imported
from test_season import set_up
from venueutil import night, run

from tdhost.league import pulled
from tdhost.live.leaguepush import LeaguePush
from tdhost.live.night import Live
from tdhost.season.autopush import AutoPush
from tdhost.season.page import make_app

DAY = "2025-03-03"
TOKEN = "organiser-token-1"


def _at(hhmm):
    return "%sT%s:00+00:00" % (DAY, hhmm)


def _page(conninfo, path="/"):
    client = TestClient(make_app(conninfo, TOKEN))
    return client.get(path, headers={"Authorization": "Bearer " + TOKEN}).text


def _live(path, hhmm="21:00"):
    ms = int(datetime.datetime.fromisoformat(_at(hhmm)).timestamp() * 1000)
    return Live(str(path), clock=lambda: ms, seed=5)


def _two_venues_one_night(tmp_path, logins):
    """Ann Lee, a member, busts 3rd at the Red Lion at 20:10 and is registered at the Swan
    at 20:25 the same night."""
    lion, swan = tmp_path / "lion.sqlite", tmp_path / "swan.sqlite"
    night(lion, tmp_path, "Red Lion Monday", DAY, ["Ann Lee", "Bob Hart", "Cal Diaz"],
          finish=False)
    run(["draw", "--seed", "1"], db=lion, when=_at("20:00"))
    run(["start"], db=lion, when=_at("20:00"))
    run(["bust", "Ann Lee"], db=lion, when=_at("20:10"))
    night(swan, tmp_path, "Swan Monday", DAY, ["Dan Roe", "Eve Moss"], finish=False)
    run(["register", "--member", "Ann Lee"], db=swan, when=_at("20:25"))
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    return lion, swan


LION_SAYS = ("#1 Ann Lee was registered at 2 venues on 2025-03-03: here, Red Lion (Red Lion "
             "Monday): registered 20:00, out 20:10 (3rd); Swan (Swan Monday): registered 20:25,"
             " still registered (LPPL ¶72: check they are not playing for points at two "
             "venues).")
SWAN_SAYS = ("#1 Ann Lee was registered at 2 venues on 2025-03-03: here, Swan (Swan Monday): "
             "registered 20:25, still registered; Red Lion (Red Lion Monday): registered "
             "20:00, out 20:10 (3rd) (LPPL ¶72: check they are not playing for points at two "
             "venues).")


def test_a_member_at_two_venues_on_one_night_is_told_to_both_tds_and_the_organiser(
        league_db, tmp_path):
    logins = set_up(league_db)
    lion, swan = _two_venues_one_night(tmp_path, logins)
    # the Swan pushes second: its push hears of the clash at once, with both venues' times
    out = run(["season", "push"], db=swan, server=logins["Swan"]).output.splitlines()
    assert out[1] == "The league tells this venue: " + SWAN_SAYS
    rows = [line.split() for line in run(["season", "clashes"], server=league_db
                                         ).output.splitlines()[3:]]
    assert rows == [["2025-03-03", "#1", "Ann", "Lee", "Red", "Lion", "20:00", "20:10", "3rd"],
                    ["2025-03-03", "#1", "Ann", "Lee", "Swan", "20:25", "registered"]]
    # the Red Lion's console: nothing before it hears from the league; after a pull it shows
    # the notice, offline too
    live = _live(lion)
    try:
        assert live.snapshot()["league_notices"] == []
    finally:
        live.close()
    pulled_out = run(["season", "pull"], db=lion, server=logins["Red Lion"]).output
    assert "The league tells Red Lion: " + LION_SAYS in pulled_out
    assert pulled.notices(str(lion)) == [LION_SAYS]
    live = _live(lion)
    try:
        assert live.snapshot()["league_notices"] == [LION_SAYS]
    finally:
        live.close()
    # the Swan's console hears it from its background push
    live = _live(swan)
    try:
        live.league_push = LeaguePush()
        AutoPush(str(swan), logins["Swan"], live.league_push).push_once()
        version = live.version
        live.poll(live.now)
        assert live.version != version
        assert live.snapshot()["league_notices"] == [SWAN_SAYS]
    finally:
        live.close()
    # the organiser's page lists it, the venues in the order the member registered
    page = _page(league_db)
    assert "Registered at two venues on one night (LPPL ¶72)" in page
    assert "Red Lion (Red Lion Monday): registered 20:00, out 20:10 (3rd); Swan (Swan " \
           "Monday): registered 20:25, still registered" in page


def test_a_member_number_given_to_two_names_is_flagged_to_the_venue_and_the_organiser(
        league_db, tmp_path):
    logins = set_up(league_db)
    lion, swan = tmp_path / "lion.sqlite", tmp_path / "swan.sqlite"
    imported(lion, tmp_path, "Red Lion Monday", DAY, ["Ann Lee,M1042"])
    imported(swan, tmp_path, "Swan Tuesday", "2025-03-04", ["Bob Hart,M1042"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    out = run(["season", "push"], db=swan, server=logins["Swan"]).output.splitlines()
    said = ("Swan gave Bob Hart the member number M1042 (Swan Tuesday, 2025-03-04), but it is "
            "#1 Ann Lee's in the league: Bob Hart counts by name until they get their own "
            "number.")
    assert out[1] == "The league tells this venue: " + said
    run(["season", "pull"], db=swan, server=logins["Swan"])
    live = _live(swan)
    try:
        assert live.snapshot()["league_notices"] == [said]
    finally:
        live.close()
    assert "Member numbers given to two names" in _page(league_db)
    assert said.replace("'", "&#x27;") in _page(league_db)
    assert said.replace("'", "&#x27;") in _page(league_db, "/venue/Swan")
    assert "Member numbers given to two names" not in _page(league_db, "/venue/Red%20Lion")


def test_a_ruling_asked_of_the_league_is_recorded_pushed_and_listed(league_db, tmp_path):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", DAY, ["Ann Lee", "Bob Hart", "Cal Diaz"],
          finish=False)
    run(["draw", "--seed", "1"], db=lion, when=_at("20:00"))
    run(["start"], db=lion, when=_at("20:00"))
    out = run(["ruling", "bob hart", "--decision", "Both cards folded after an exposed card",
               "--reasons", "the exposure was accidental"], db=lion, when=_at("20:40")).output
    assert out.strip() == (
        "Bob Hart asks LPPL Lincolnshire for a ruling on the TD's decision \"Both cards "
        "folded after an exposed card\", because the exposure was accidental (at 20:40:00): "
        "play goes on, the league gives its ruling before its next event, and tonight's "
        "results stand.")
    refused = run(["ruling", "Zed Zero", "--decision", "x"], db=lion, expect=2).output
    assert "Zed Zero is not in tournament 1" in refused
    live = _live(lion, "20:50")
    try:
        said = live.act("ruling", {"name": "Cal Diaz", "decision": "A one-chip call"})["text"]
        assert said.startswith("Cal Diaz asks LPPL Lincolnshire for a ruling on the TD's "
                               "decision \"A one-chip call\" (at ")
        assert live.snapshot()["rulings"][0] == (
            "Ruling asked of LPPL Lincolnshire at 20:40:00: Bob Hart disputes the TD's "
            "decision \"Both cards folded after an exposed card\" (the exposure was "
            "accidental).")
        assert len(live.snapshot()["rulings"]) == 2
        live.act("undo", {})  # the console's undo takes its own back
        assert len(live.snapshot()["rulings"]) == 1
        live.act("ruling", {"name": "Cal Diaz", "decision": "A one-chip call",
                            "reasons": "he said call"})
    finally:
        live.close()
    results = run(["results"], db=lion).output
    assert "Ruling asked of LPPL Lincolnshire at 20:40:00: Bob Hart disputes" in results
    run(["bust", "Cal Diaz"], db=lion, when=_at("21:00"))
    run(["bust", "Bob Hart"], db=lion, when=_at("21:10"))
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    page = _page(league_db)
    assert "Rulings asked of the league" in page
    rows = page.split("Rulings asked of the league")[1].split("<tr>")[2:]
    cells = [[c.split("</td>")[0] for c in row.split("<td>")[1:]] for row in rows]
    assert [c[1:-1] for c in cells] == [
        ["Red Lion", "Red Lion Monday", "20:50", "Cal Diaz", "A one-chip call", "he said call",
         "not given yet"],
        ["Red Lion", "Red Lion Monday", "20:40", "Bob Hart",
         "Both cards folded after an exposed card", "the exposure was accidental",
         "not given yet"]]
    # tonight's results stand: Ann Lee won, as the busts say
    standings = _page(league_db, "/venue/Red%20Lion.csv").splitlines()
    assert standings[1].startswith("1,Ann Lee,")
    # the league gives its ruling; the Red Lion's TD reads it with the next pull
    bob = cells[1][-1]
    out = run(["season", "answer-ruling", "Red Lion", bob, "The TD was right: LPPL ¶68"],
              server=league_db).output.strip()
    said = ("The league's ruling on Bob Hart's dispute of \"Both cards folded after an "
            "exposed card\" (Red Lion Monday, 2025-03-03, 20:40): The TD was right: LPPL ¶68")
    assert out == "Recorded: %s Red Lion is told with its next pull." % said
    refused = run(["season", "answer-ruling", "Swan", bob, "x"], server=league_db, expect=2)
    assert "Swan has no ruling #%s asked of the league" % bob in refused.output
    assert "The TD was right: LPPL ¶68" in _page(league_db)
    run(["season", "pull"], db=lion, server=logins["Red Lion"])
    live = _live(lion, "21:30")
    try:
        assert live.snapshot()["league_notices"] == [said]
    finally:
        live.close()


def test_a_venue_whose_clock_is_days_off_pushes_and_its_clash_is_found_by_the_night(
        league_db, tmp_path):
    """Clock skew between venues: the Swan's laptop runs three days and five hours behind.
    Ownership goes by each tournament's digest, the season by each tournament file's date,
    so its push is taken whole and the clash is still found; the times are the Swan's own."""
    logins = set_up(league_db)
    lion, swan = tmp_path / "lion.sqlite", tmp_path / "swan.sqlite"
    night(lion, tmp_path, "Red Lion Monday", DAY, ["Ann Lee", "Bob Hart"], finish=False)
    skewed = "2025-02-28T15:25:00+00:00"
    night(swan, tmp_path, "Swan Monday", DAY, ["Dan Roe"], finish=False)
    run(["register", "--member", "Ann Lee"], db=swan, when=skewed)
    # the Swan (its clock behind) pushes first, then the Red Lion
    run(["season", "push"], db=swan, server=logins["Swan"])
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output.splitlines()
    assert out[1] == (
        "The league tells this venue: #1 Ann Lee was registered at 2 venues on 2025-03-03: "
        "here, Red Lion (Red Lion Monday): registered 20:00, still registered; Swan (Swan "
        "Monday): registered 15:25, still registered (LPPL ¶72: check they are not playing "
        "for points at two venues).")
    rows = [line.split() for line in run(["season", "clashes"], server=league_db
                                         ).output.splitlines()[3:]]
    assert [r[4:] for r in rows] == [["Swan", "15:25", "registered"],
                                     ["Red", "Lion", "20:00", "registered"]]
