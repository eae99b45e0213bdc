"""The league across venues on a real PostgreSQL server (conftest.py): set-up, push and pull,
ownership by row-level security, the season's standings and clashes, and the faults of
issue #33 (a push cut off, a server restarted mid-push, a revoked venue, two venues claiming
one tournament): nothing lost, nothing doubled, one sentence each."""

import shutil
import threading
import time

import psycopg
import pytest
from venueutil import night, run, tournament_file

from tdhost.league.store import Store


def registered(path):
    """(name, member?) of each registration recorded in the league file, in order."""
    store = Store(str(path), readonly=True)
    try:
        return [(ev.payload["name"], ev.payload["member"]) for ev in store.events()
                if ev.action == "register"]
    finally:
        store.close()


def organiser(league_db):
    return psycopg.connect(league_db, autocommit=True)


def set_up(league_db, venues=(("Red Lion", "Lincoln"), ("Crown", "Lincoln"),
                              ("Swan", "Boston"))):
    """init and add-venue through the commands; {venue: its connection string}."""
    out = run(["season", "init", league_db, "--name", "LPPL Lincolnshire"]).output
    assert "is set up (schema version 4)" in out
    logins = {}
    for name, area in venues:
        lines = run(["season", "add-venue", name, "--area", area], server=league_db
                    ).output.splitlines()
        assert lines[0].startswith("Venue %s is added in area %s." % (name, area))
        logins[name] = lines[1]
    return logins


def count(league_db, table):
    with organiser(league_db) as db:
        return db.execute("SELECT count(*) FROM %s" % table).fetchone()[0]


def snapshot(league_db):
    """Everything the league holds, comparable across runs."""
    with organiser(league_db) as db:
        return {t: db.execute("SELECT * FROM %s ORDER BY 1, 2" % t).fetchall()
                for t in ("tournaments", "events", "members", "entrants")} | {
            "venues": db.execute("SELECT name, last_seq, last_event FROM venues ORDER BY 1"
                                 ).fetchall()}


def test_a_season_across_two_venues(league_db, tmp_path):
    logins = set_up(league_db)
    lion, crown = tmp_path / "lion.sqlite", tmp_path / "crown.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    night(crown, tmp_path, "Crown Tuesday", "2025-03-04", ["Bob Hart", "ann  LEE"],
          ["Cal Diaz"])
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output
    assert out.startswith("Pushed ") and "of Red Lion (tournament 1)" in out
    run(["season", "push"], db=crown, server=logins["Crown"])
    with organiser(league_db) as db:
        # one member number and one name per person: the first venue's spelling
        assert db.execute("SELECT number, name, first_venue FROM members ORDER BY 1"
                          ).fetchall() == [(1, "Ann Lee", "Red Lion"), (2, "Bob Hart", "Red Lion")]
    # the Crown pulls: its area's standings (members only) hold both venues' points
    out = run(["season", "pull"], db=crown, server=logins["Crown"]).output
    assert "Pulled 2 members" in out
    area = run(["season", "standings"], db=crown).output.splitlines()
    assert area[0].startswith("Standings of area Lincoln (pulled ")
    # each 1st and 2nd of 3 (17.32 + 12.25): tied, both ranked 1st
    assert [line.split() for line in area[3:]] == [
        ["1", "Ann", "Lee", "#1", "2", "1", "1", "29.57"],
        ["1", "Bob", "Hart", "#2", "2", "1", "1", "29.57"]]
    # the venue's own standings count its guest too; the Swan's area has nobody yet
    venue = [line.split() for line in run(["season", "standings", "--scope", "venue"],
                                           db=crown).output.splitlines()[3:]]
    assert [r[1:3] for r in venue] == [["Bob", "Hart"], ["Ann", "Lee"], ["Cal", "Diaz"]]
    assert venue[2][-1] == "10"
    # after a pull, a member registered in any spelling goes by the league's, as a member
    run(["new", tournament_file(tmp_path, "Crown Tuesday 2", "2025-03-11")], db=crown)
    out = run(["register", "ANN lee", "Eve Moss"], db=crown).output.splitlines()
    assert out[0].startswith("Ann Lee ")
    assert out[2] == "The league knows ANN lee as #1 Ann Lee: the league's spelling is used."
    assert registered(crown)[-2:] == [("Ann Lee", True), ("Eve Moss", False)]
    # a member's history across venues, by number or by name
    hist = run(["season", "history", "ann lee"], server=league_db).output.splitlines()
    assert hist[0] == "Member #1 Ann Lee"
    assert [line.split()[:2] for line in hist[3:]] == [["2025-03-03", "Red"],
                                                        ["2025-03-04", "Crown"]]
    # still offline: the Red Lion's file knows nothing until it pulls
    refused = run(["season", "standings"], db=lion, expect=2).output
    assert "holds no league standings yet: `tdhost season pull`" in refused
    assert run(["season", "clashes"], server=league_db).output.startswith("No member")


def test_a_member_at_two_venues_on_one_night_is_flagged(league_db, tmp_path):
    logins = set_up(league_db)
    lion, swan = tmp_path / "lion.sqlite", tmp_path / "swan.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          finish=False)
    night(swan, tmp_path, "Swan Monday", "2025-03-03", ["Ann Lee", "Dan Roe"], finish=False)
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    run(["season", "push"], db=swan, server=logins["Swan"])
    out = run(["season", "clashes"], server=league_db).output.splitlines()
    assert out[0] == "Members registered at two venues on one night"
    assert [line.split() for line in out[3:]] == [
        ["2025-03-03", "#1", "Ann", "Lee", "Red", "Lion", "20:00", "registered"],
        ["2025-03-03", "#1", "Ann", "Lee", "Swan", "20:00", "registered"]]


def test_a_push_repeated_sends_nothing_twice(league_db, tmp_path):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    once = snapshot(league_db)
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output
    assert out.startswith("Nothing new to push: the league has all ")
    assert snapshot(league_db) == once
    # the next week: only its events go, and the first tournament's rows stay as they were
    night(lion, tmp_path, "Red Lion Monday 2", "2025-03-10", ["Bob Hart", "Ann Lee"],
          ["Cal Diaz"])
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output
    assert "(tournament 2)" in out
    after = snapshot(league_db)
    assert len(after["tournaments"]) == 2 and after["members"] == once["members"]
    assert after["events"][:len(once["events"])] == once["events"]
    assert len(after["events"]) > len(once["events"])


def test_a_venue_writes_only_its_own_rows(league_db, tmp_path):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    before = snapshot(league_db)
    with psycopg.connect(logins["Crown"], autocommit=True) as crown:
        uid = crown.execute("SELECT uid FROM tournaments").fetchone()[0]  # it may read
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            crown.execute("INSERT INTO events VALUES ('Red Lion', 99, %s, 'x', 'bust', '{}')",
                          (uid,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            crown.execute("INSERT INTO members (key, name, first_venue) "
                          "VALUES ('eve', 'Eve', 'Red Lion')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            crown.execute("DELETE FROM events")  # the log is append-only for every venue
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            crown.execute("UPDATE members SET name = 'Ann Leigh'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # the organiser's only
            crown.execute("INSERT INTO ruling_answers (venue, seq, answer) "
                          "VALUES ('Red Lion', 1, 'the Crown says so')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # another venue's flag
            crown.execute("INSERT INTO number_clashes VALUES (%s, 'Red Lion', 'm1', 'Eve')",
                          (uid,))
        # row-level security: another venue's rows are not there to change
        assert crown.execute("UPDATE tournaments SET finished = false").rowcount == 0
        assert crown.execute("DELETE FROM entrants").rowcount == 0
        assert crown.execute("UPDATE venues SET last_seq = 0 WHERE name = 'Red Lion'"
                             ).rowcount == 0
    assert snapshot(league_db) == before


def _blocked_push(league_db, lion, login, interrupt):
    """A push held mid-transaction (its events written, the entrants table locked by the
    organiser), then *interrupt*ed; the push's result."""
    out = {}

    def go():
        out["res"] = run(["season", "push"], db=lion, server=login, expect=None)

    holder = organiser(league_db)
    holder.execute("BEGIN")
    holder.execute("LOCK TABLE entrants IN ACCESS EXCLUSIVE MODE")
    t = threading.Thread(target=go)
    t.start()
    pid = None
    with organiser(league_db) as db:
        for _ in range(200):
            row = db.execute("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                             "AND application_name = 'tdhost push'").fetchone()
            if row:
                pid = row[0]
                break
            time.sleep(0.05)
        assert pid is not None, "the push never reached the locked table"
        # mid-transaction: its events are written but not committed
        interrupt(db, pid)
    t.join(30)
    try:
        holder.close()
    except psycopg.Error:
        pass
    return out["res"]


def test_a_push_cut_off_mid_transaction_leaves_nothing(league_db, tmp_path, cluster):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    res = _blocked_push(league_db, lion, logins["Red Lion"],
                        lambda db, pid: db.execute("SELECT pg_terminate_backend(%s)", (pid,)))
    assert res.exit_code == 2
    assert "The connection to the league server was lost during the push" in res.output
    assert "nothing was sent; push again." in res.output and "Traceback" not in res.output
    assert count(league_db, "events") == 0 and count(league_db, "members") == 0
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    whole = snapshot(league_db)
    # the same file pushed whole into a fresh league gives the same rows
    assert len(whole["events"]) > 5 and len(whole["entrants"]) == 3


def test_a_server_restarted_mid_push_loses_and_doubles_nothing(league_db, tmp_path, cluster):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    res = _blocked_push(league_db, lion, logins["Red Lion"],
                        lambda db, pid: cluster.restart())
    assert res.exit_code == 2 and "nothing was sent; push again." in res.output
    assert count(league_db, "events") == 0
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    first = snapshot(league_db)
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    assert snapshot(league_db) == first and first["venues"][1][1] == len(first["events"])


def test_a_revoked_venue_is_refused(league_db, tmp_path):
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    out = run(["season", "revoke-venue", "Red Lion"], server=league_db).output
    assert out.startswith("Venue Red Lion can no longer log in")
    res = run(["season", "push"], db=lion, server=logins["Red Lion"], expect=2)
    assert res.output.startswith("tdhost season push: The league server refused this venue's"
                                 " login (its credentials were revoked or mistyped): nothing "
                                 "was sent")
    assert count(league_db, "events") == 0


def test_two_venues_claiming_one_tournament(league_db, tmp_path):
    logins = set_up(league_db)
    lion, copy = tmp_path / "lion.sqlite", tmp_path / "copy.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"],
          ["Cal Diaz"])
    shutil.copy(lion, copy)
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    before = snapshot(league_db)
    res = run(["season", "push"], db=copy, server=logins["Crown"], expect=2)
    assert ("Tournament 1 (Red Lion Monday, 2025-03-03) is Red Lion's in the league, so Crown "
            "cannot push it") in res.output
    assert snapshot(league_db) == before


def test_a_file_restored_from_an_older_backup_is_refused(league_db, tmp_path):
    logins = set_up(league_db)
    lion, older = tmp_path / "lion.sqlite", tmp_path / "older.sqlite"
    night(older, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee"], finish=False)
    shutil.copy(older, lion)
    run(["register", "Bob Hart"], db=lion, when="2025-03-03T20:00:00+00:00")
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    res = run(["season", "push"], db=older, server=logins["Red Lion"], expect=2)
    assert "The league already holds Red Lion's events up to #3, and this league file's " \
           "differ" in res.output


def test_schema_init_again_and_bad_server(league_db, tmp_path):
    set_up(league_db, venues=())
    assert "up to date (version 4)" in run(["season", "init", league_db]).output
    res = run(["season", "push"], db=tmp_path / "x.sqlite", server="", expect=2)
    assert "does not exist" in res.output  # the file is read first
    res = run(["season", "pull"], db=tmp_path / "x.sqlite", expect=2,
              server="host=/nonexistent/sock dbname=x user=y")
    assert "The league server cannot be reached" in res.output


def test_without_psycopg_the_commands_say_how_to_install_it(tmp_path, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "psycopg" else real(name, *a))
    res = run(["season", "push"], db=tmp_path / "x.sqlite", expect=2)
    assert "pip install 'tableclock-host[league]'" in res.output


def test_a_venue_offline_for_a_week_sends_its_nights_whole_in_one_push(league_db, tmp_path):
    # the Red Lion's internet is down from Monday to the next Monday: each night is played
    # and every push attempt is refused in one sentence, the file unchanged; back online, one
    # push sends the three nights whole, and the next sends nothing
    logins = set_up(league_db)
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    before = snapshot(league_db)
    away = "host=/nonexistent/sock dbname=league user=red_lion connect_timeout=1"
    for i, date in enumerate(("2025-03-05", "2025-03-07", "2025-03-10")):
        night(lion, tmp_path, "Red Lion night %d" % (i + 2), date,
              ["Bob Hart", "Ann Lee"], ["Cal Diaz"])
        kept = open(lion, "rb").read()
        res = run(["season", "push"], db=lion, server=away, expect=None)
        assert res.exit_code != 0 and "Traceback" not in res.output
        assert len([line for line in res.output.splitlines() if line.strip()]) == 1
        assert res.output.startswith("tdhost season push: The league server cannot be reached")
        assert res.output.rstrip().endswith("nothing was sent; the venue goes on offline, push "
                                            "again later.")
        assert open(lion, "rb").read() == kept  # the refused push wrote nothing
    assert snapshot(league_db) == before  # the league saw nothing of the week
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output
    assert out.startswith("Pushed 24 events of Red Lion (tournaments 2, 3, 4) to the league ")
    after = snapshot(league_db)
    assert len(after["tournaments"]) == 4
    assert after["events"][:len(before["events"])] == before["events"]
    store = Store(str(lion), readonly=True)
    try:
        in_file = len(list(store.events()))
    finally:
        store.close()
    assert len(after["events"]) == in_file  # every event of the file, once
    out = run(["season", "push"], db=lion, server=logins["Red Lion"]).output
    assert out.startswith("Nothing new to push: the league has all ")
    assert snapshot(league_db) == after
