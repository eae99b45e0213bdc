"""Members across the league by member number (docs/league.md, "Members"): a venue's member
number (its CSV import's member column) is carried by the push, and the league server
matches a number first, the name key only without one; schema version 3 and its migration
from a server at version 2."""

import psycopg
import pytest
from test_season import organiser, set_up
from venueutil import run, tournament_file

from tdhost.season import schema


def imported(db, folder, name, date, lines):
    """A new tournament *name* on *date* at a venue, its players from a CSV import of
    *lines* ("name,member"); the import's output."""
    run(["new", tournament_file(folder, name, date)], db=db)
    csv = folder / ("%s.csv" % name.replace(" ", "_"))
    csv.write_text("name,member\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return run(["import", str(csv), "--apply", "--skip-bad"], db=db).output


def members(league_db):
    with organiser(league_db) as db:
        return db.execute("SELECT number, name, member_no, first_venue FROM members "
                          "ORDER BY 1").fetchall()


def test_one_name_two_numbers_is_two_members(league_db, tmp_path):
    logins = set_up(league_db)
    lion, crown, swan = (tmp_path / ("%s.sqlite" % v) for v in ("lion", "crown", "swan"))
    imported(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee,M1", "Bob Hart,yes"])
    imported(crown, tmp_path, "Crown Tuesday", "2025-03-04", ["Ann Lee,M2", "Bob Hart,yes"])
    imported(swan, tmp_path, "Swan Monday", "2025-03-03", ["ann lee,yes"])
    for venue, path in (("Red Lion", lion), ("Crown", crown), ("Swan", swan)):
        assert run(["season", "push"], db=path, server=logins[venue]).output.startswith(
            "Pushed ")
    # two people named Ann Lee, told apart by their numbers; Bob Hart (no number) is one
    assert members(league_db) == [(1, "Ann Lee", "m1", "Red Lion"),
                                  (2, "Bob Hart", None, "Red Lion"),
                                  (3, "Ann Lee", "m2", "Crown")]
    with organiser(league_db) as db:
        # the Swan's Ann Lee has no number: by name, the oldest Ann Lee
        assert db.execute("SELECT venue, name, member FROM entrants WHERE key = 'ann lee' "
                          "ORDER BY venue").fetchall() == [
            ("Crown", "Ann Lee", 3), ("Red Lion", "Ann Lee", 1), ("Swan", "ann lee", 1)]
    # history by the venue's number finds each
    assert run(["season", "history", "M2"], server=league_db).output.splitlines()[0] == \
        "Member #3 Ann Lee"
    # two numbers are two people: not merged
    res = run(["season", "merge-members", "1", "3", "--yes"], server=league_db, expect=2)
    assert "have two member numbers (M1 and M2), so they are two people" in res.output


def test_one_number_two_spellings_is_one_member_by_the_league_s_spelling(league_db, tmp_path):
    logins = set_up(league_db)
    lion, crown, swan = (tmp_path / ("%s.sqlite" % v) for v in ("lion", "crown", "swan"))
    imported(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee,M1"])
    imported(crown, tmp_path, "Crown Tuesday", "2025-03-04", ["Anne Lee,m1", "Cal Diaz,M7"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    run(["season", "push"], db=crown, server=logins["Crown"])
    assert members(league_db) == [(1, "Ann Lee", "m1", "Red Lion"),
                                  (2, "Cal Diaz", "m7", "Crown")]
    with organiser(league_db) as db:
        assert db.execute("SELECT name, member FROM entrants WHERE venue = 'Crown' "
                          "ORDER BY 1").fetchall() == [("Anne Lee", 1), ("Cal Diaz", 2)]
    # another name with a number the league knows: the first venue keeps it, the push goes
    # on and says so in one sentence
    imported(swan, tmp_path, "Swan Monday", "2025-03-05", ["Bob Hart,M1", "Dan Roe,yes"])
    out = run(["season", "push"], db=swan, server=logins["Swan"]).output
    assert out.startswith("Pushed 3 events of Swan (tournament 1)")
    assert "M1 is the member number of #1 Ann Lee in the league, so Swan's Bob Hart counts " \
           "by name: give Bob Hart their own number." in out
    assert members(league_db)[2:] == [(3, "Bob Hart", None, "Swan"),
                                      (4, "Dan Roe", None, "Swan")]
    # after a pull, the Crown's number M1 registers the league's spelling, as a member
    assert "Pulled 4 members" in run(["season", "pull"], db=crown,
                                     server=logins["Crown"]).output
    out = imported(crown, tmp_path, "Crown Tuesday 2", "2025-03-11",
                   ["anne LEE,M1", "Cal Diaz,M1", "Eve Moss,M9"])
    assert "Ann Lee is registered (1 of 48), member M1. The league knows anne LEE as #1 Ann " \
           "Lee (member M1): the league's spelling is used." in out
    assert "not imported: M1 is the member number of Ann Lee in the league: register them " \
           "by that name, or give Cal Diaz their own number." in out
    assert "Eve Moss is registered (2 of 48), member M9." in out
    run(["season", "push"], db=crown, server=logins["Crown"])
    with organiser(league_db) as db:
        assert db.execute("SELECT e.name, e.member FROM entrants e JOIN tournaments t ON "
                          "t.uid = e.tournament WHERE t.name = 'Crown Tuesday 2' ORDER BY 1"
                          ).fetchall() == [("Ann Lee", 1), ("Eve Moss", 5)]


def test_a_league_at_version_2_migrates_to_the_newest(league_db, tmp_path, monkeypatch):
    with monkeypatch.context() as patch:  # the league as a tdhost of version 2 set it up
        patch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:2])
        patch.setattr(schema, "SCHEMA_VERSION", 2)
        run(["season", "init", league_db, "--name", "LPPL Lincolnshire"])
        login = run(["season", "add-venue", "Red Lion", "--area", "Lincoln"],
                    server=league_db).output.splitlines()[1]
        with organiser(league_db) as db:
            db.execute("INSERT INTO members (key, name, first_venue) VALUES "
                       "('ann lee', 'Ann Lee', 'Red Lion')")
    lion = tmp_path / "lion.sqlite"
    imported(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee,M1", "Bob Hart,yes"])
    res = run(["season", "push"], db=lion, server=login, expect=2)
    assert "The league server's schema is version 2; this tdhost speaks version 4: the " \
           "organiser runs `tdhost season init` again to migrate it." in res.output
    assert run(["season", "init", league_db]).output.strip() == \
        "The league's schema is migrated from version 2 to 4."
    # the member of version 2 stays, without a number; a number makes another Ann Lee
    assert members(league_db) == [(1, "Ann Lee", None, "Red Lion")]
    assert run(["season", "push"], db=lion, server=login).output.startswith("Pushed ")
    assert members(league_db) == [(1, "Ann Lee", None, "Red Lion"),
                                  (2, "Ann Lee", "m1", "Red Lion"),
                                  (3, "Bob Hart", None, "Red Lion")]
    with organiser(league_db) as db:  # one member without a number per name still
        with pytest.raises(psycopg.errors.UniqueViolation):
            db.execute("INSERT INTO members (key, name, first_venue) VALUES "
                       "('ann lee', 'Ann Lee', 'Red Lion')")
    # one person after all: the merge gives the member kept the merged member's number
    out = run(["season", "merge-members", "1", "2", "--yes"], server=league_db).output
    assert out.startswith("Member #2 Ann Lee is merged into #1 Ann Lee: 1 entry moved")
    assert members(league_db) == [(1, "Ann Lee", "m1", "Red Lion"),
                                  (3, "Bob Hart", None, "Red Lion")]
    assert run(["season", "history", "m1"], server=league_db).output.splitlines()[0] == \
        "Member #1 Ann Lee"


def test_a_latecomer_s_member_number_finds_the_league_s_member(league_db, tmp_path):
    """`tdhost late --member-no` (and the console's Late entry): a number the league knows
    registers its member by the league's spelling and says so; the push counts them as that
    member."""
    from venueutil import night
    logins = set_up(league_db)
    lion, crown = tmp_path / "lion.sqlite", tmp_path / "crown.sqlite"
    imported(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee,M1042"])
    run(["season", "push"], db=lion, server=logins["Red Lion"])
    players = ["P%02d" % i for i in range(1, 18)]  # LPPL: a latecomer needs 17 in play
    night(crown, tmp_path, "Crown Tuesday", "2025-03-04", players[:1], players[1:],
          finish=False)
    run(["season", "pull"], db=crown, server=logins["Crown"])
    run(["draw", "--seed", "1"], db=crown, when="2025-03-04T20:00:00+00:00")
    run(["start"], db=crown, when="2025-03-04T20:00:00+00:00")
    out = run(["late", "Anne Lee", "--member-no", "m1042"], db=crown,
              when="2025-03-04T20:10:00+00:00").output.splitlines()
    assert out[0].startswith("Ann Lee joins at ")
    assert out[1] == ("The league knows Anne Lee as #1 Ann Lee (member M1042): the league's "
                      "spelling is used.")
    refused = run(["late", "Cal Diaz", "--member-no", "M1042"], db=crown, expect=2,
                  when="2025-03-04T20:11:00+00:00").output
    assert "M1042 is the member number of Ann Lee in the league" in refused
    run(["season", "push"], db=crown, server=logins["Crown"])
    with organiser(league_db) as db:
        assert db.execute("SELECT e.name, e.member FROM entrants e JOIN tournaments t ON "
                          "t.uid = e.tournament WHERE t.name = 'Crown Tuesday' AND "
                          "e.member = 1").fetchall() == [("Ann Lee", 1)]
