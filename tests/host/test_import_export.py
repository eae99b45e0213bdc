"""Paper and files (docs/host.md §12): `tdhost import FILE.csv` previews each line and
names each line's error, `--apply` registers the good lines only when told, in one step
that one `undo` takes back; `results --json` and `league --json` write what the tables show."""

import json
import os

from hostutil import EXAMPLES, at, players, run

CSV = """Name,Member ID,Lock,Reason
Ann Lee,M1042,,
Bob Hart,,2.5,wheelchair access

Cat Diaz,yes,1.9,
ann lee,,,
Dan Roe,no,x,
Eve Sun,n,2.5,
Fay Ng,1,,,
"""


def _night(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    path = tmp_path / "players.csv"
    path.write_text(CSV, encoding="utf-8")
    return db, str(path)


def test_import_previews_every_line_and_writes_nothing(tmp_path):
    db, path = _night(tmp_path)
    out = run(["import", path, "--db", db], now=at(-50)).output
    p = path
    assert out.splitlines() == [
        "What %s would do (nothing is written yet):" % p,
        "%s:2: Ann Lee is registered (1 of 48), member M1042." % p,
        "%s:3: Bob Hart is registered (2 of 48); locked to table 2 seat 5." % p,
        "%s:5: not imported: seat 9 does not exist: tables have seats 1 to 8." % p,
        "%s:6: not imported: Ann Lee is already registered." % p,
        "%s:7: not imported: 'x' is not a seat: give the lock as TABLE.SEAT, e.g. 2.5." % p,
        "%s:8: not imported: table 2 seat 5 is locked for Bob Hart already." % p,
        "%s:9: not imported: 5 values for 4 columns." % p,
        "Would register 2 players; 5 lines with errors. Nothing is written: fix the lines "
        "above, or `tdhost import %s --apply --skip-bad` registers the 2 without errors." % p]
    assert "register" not in run(["log", "--db", db]).output
    # --apply refuses a file with errors, unless told to leave those lines out
    res = run(["import", path, "--apply", "--db", db], now=at(-50), expect=2)
    assert res.output.splitlines()[-1] == (
        "tdhost import: nothing is imported: fix the 5 lines above, or leave them out "
        "with --skip-bad.")
    assert "register" not in run(["log", "--db", db]).output
    out = run(["import", path, "--apply", "--skip-bad", "--db", db], now=at(-50)).output
    assert out.splitlines()[-1] == ("Registered 2 players from %s in one step (`tdhost undo` "
                                    "takes them all back)." % p)
    log = run(["log", "--db", db]).output
    assert "register Ann Lee (member M1042)" in log and "lock Bob Hart to table 2 seat 5" in log
    undo = run(["undo", "--db", db], now=at(-45), input="y\n").output
    assert "Undo the registration of 2 players (Ann Lee and Bob Hart)? [y/N]: y" in undo
    assert "register Ann Lee" in undo and "lock Bob Hart" in undo


def test_import_refuses_a_file_it_cannot_read(tmp_path):
    db, _ = _night(tmp_path)
    bad = tmp_path / "bad.csv"
    for text, line in (("Player,Club\nAnn,Red Lion\n",
                        "bad.csv:1: not imported: the first line has no column \"name\" "
                        "(columns: name, member, lock, reason)."),
                       ("", "bad.csv:1: not imported: the file is empty: the first line "
                            "names the columns (name, member, lock).")):
        bad.write_text(text, encoding="utf-8")
        out = run(["import", str(bad), "--db", db]).output
        assert out.splitlines()[1] == str(tmp_path / line)
    # a line in another encoding is that line's error; the lines around it are read
    bad.write_bytes("name\nAnn\nZo\xe9\nBob\n".encode("latin-1"))
    out = run(["import", str(bad), "--db", db]).output
    assert out.splitlines()[1:4] == [
        "%s:2: Ann is registered (1 of 48)." % bad,
        "%s:3: not imported: it is not UTF-8 text (save the file from the spreadsheet as"
        " CSV UTF-8)." % bad,
        "%s:4: Bob is registered (2 of 48)." % bad]


def test_import_leaves_out_unknown_columns_and_asks_about_duplicates(tmp_path):
    """A spreadsheet's extra column is left out with a note; a name that may be a player
    already in needs --allow-duplicate, a member number is one player's in the league."""
    db, _ = _night(tmp_path)
    path = tmp_path / "club.csv"
    path.write_text("Name,Email,Member Number\n"
                    "Jon Smith,jon@example.org,M1042\n"
                    "Jon Smyth,js@example.org,M1042\n"
                    "Carla Núñez,,M7\n"
                    "Carla Nunez,,\n"
                    "Dee Park,,\n", encoding="utf-8")
    p = str(path)
    out = run(["import", p, "--db", db], now=at(-50)).output.splitlines()
    assert out[1:] == [
        "The column 'email' is left out (tdhost reads name, member, lock, reason).",
        "%s:2: Jon Smith is registered (1 of 48), member M1042." % p,
        "%s:3: not imported: M1042 is the member number of Jon Smith: register them by "
        "that name, or give Jon Smyth their own number." % p,
        "%s:4: Carla Núñez is registered (2 of 48), member M7." % p,
        "%s:5: not imported: Carla Nunez may be Carla Núñez, already registered (the same "
        "name but for accents): `--allow-duplicate \"Carla Nunez\"` registers them as "
        "another player." % p,
        "%s:6: Dee Park is registered (3 of 48)." % p,
        "Would register 3 players; 2 lines with errors. Nothing is written: fix the lines "
        "above, or `tdhost import %s --apply --skip-bad` registers the 3 without errors." % p]
    out = run(["import", p, "--apply", "--skip-bad", "--allow-duplicate", "carla nunez",
               "--db", db], now=at(-50)).output
    assert out.splitlines()[-1] == ("Registered 4 players from %s in one step (`tdhost undo` "
                                    "takes them all back)." % p)
    log = run(["log", "--db", db]).output
    assert "register Carla Nunez\n" in log and "Jon Smyth" not in log
    # the close spelling by hand: the register command asks the same
    res = run(["register", "Dee Parks", "--db", db], now=at(-49), expect=2)
    assert res.output.strip() == (
        "tdhost register: refused: Dee Parks may be Dee Park, already registered (a close "
        "spelling): "
        "`--allow-duplicate \"Dee Parks\"` registers them as another player.")
    run(["register", "Dee Parks", "--allow-duplicate", "Dee Parks", "--db", db], now=at(-49))


def test_results_and_league_as_json(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    run(["draw", "--seed", "7", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    for i, name in enumerate(players(9)[:8]):
        run(["bust", name, "--db", db], now=at(10 + i))
    out = tmp_path / "results.json"
    run(["results", "--json", str(out), "--db", db], now=at(30))
    res = json.loads(out.read_text(encoding="utf-8"))
    assert (res["league"], res["finished"], res["entries"]) == ("LPPL Lincolnshire", True, 9)
    # LPPL points 10 * sqrt(entries / place): the winner 10 * sqrt(9) = 30; free: no prize
    assert res["results"][0] == {"place": 1, "place_text": "1st", "name": "Ivy",
                                 "played_as": "Ivy", "member_no": None, "member": False,
                                 "entry": "registered", "points": 30.0}
    assert [r["name"] for r in res["results"]][-1] == "Ann"
    lg = tmp_path / "league.json"
    run(["league", "--json", str(lg), "--db", db], now=at(31))
    board = json.loads(lg.read_text(encoding="utf-8"))
    assert board["tournaments"] == 1 and board["standings"][0] == {
        "rank": 1, "name": "Ivy", "member": False, "member_no": None, "events": 1, "wins": 1,
        "best": 1, "points": 30.0}


def test_register_takes_a_member_number_checked_as_the_import_checks_it(tmp_path):
    """`tdhost register NAME --member-no N` (issue #31): the same identity as the import's
    member column: another player's number refused, one number for one name, the league
    table by member number."""
    db, _ = _night(tmp_path)
    out = run(["register", "Jon Smith", "--member-no", "M1042", "--db", db], now=at(-50))
    assert out.output.strip() == "Jon Smith is registered (1 of 48), member M1042."
    for args, said in (
            (["Jon Smyth", "--member-no", "M1042"],
             "M1042 is the member number of Jon Smith: register them by that name, or give "
             "Jon Smyth their own number."),
            (["Ann Lee", "Bob Hart", "--member-no", "M7"],
             "a member number is one player's: register one name with it, not 2."),
            (["Jon Smith", "--member-no", "M2"],
             "Jon Smith's member number is M1042, not M2."),
            (["Ann Lee", "--member-no", "  "],
             "the member number is blank: give it as on the member's card."),
            (["Jon Smyth"],
             "Jon Smyth may be Jon Smith, already registered (a close spelling): "
             "`--allow-duplicate \"Jon Smyth\"` registers them as another player.")):
        res = run(["register", *args, "--db", db], now=at(-49), expect=2)
        assert res.output.strip() == "tdhost register: refused: " + said, args
    assert "Ann Lee" not in run(["log", "--db", db]).output  # refused: nothing written
    out = run(["register", "Jon Smyth", "--member-no", "M1043", "--allow-duplicate",
               "Jon Smyth", "--db", db], now=at(-48)).output
    assert out.strip() == "Jon Smyth is registered (2 of 48), member M1043."
    log = run(["log", "--db", db]).output
    assert "register Jon Smith (member M1042)" in log
    assert "register Jon Smyth (member M1043)" in log


def test_a_latecomer_takes_a_member_number_checked_as_a_registration_s(tmp_path):
    """`tdhost late NAME --member-no N` (issue #31): another player's number refused, the
    number kept as the latecomer's identity in the results and the league table."""
    db, _ = _night(tmp_path)
    run(["register", *players(8), "--db", db], now=at(-50))
    run(["register", "Jon Smith", "--member-no", "M1042", "--db", db], now=at(-50))
    run(["draw", "--seed", "7", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    res = run(["late", "Jon Smyth", "--member-no", "M1042", "--db", db], now=at(3), expect=2)
    assert res.output.strip() == (
        "tdhost late: refused: M1042 is the member number of Jon Smith: register them by that "
        "name, or give Jon Smyth their own number.")
    out = run(["late", "Kim Wu", "--member-no", "M2001", "--db", db], now=at(3)).output
    assert out.startswith("Kim Wu joins at table ")
    assert "3000 chips, no deduction" in out  # within 5 minutes of the start: LPPL's full stack
    assert "latecomer Kim Wu" in run(["log", "--db", db]).output
    for i, name in enumerate(players(8) + ["Jon Smith"]):
        run(["bust", name, "--db", db, "--yes"], now=at(10 + i))
    rows = {row[1]: row for row in (line.split() for line in run(
        ["league", "--db", db]).output.splitlines()) if len(row) > 3}
    assert rows["Kim"][:4] == ["1", "Kim", "Wu", "M2001"], rows  # the winner, by number
    assert rows["Jon"][:4] == ["2", "Jon", "Smith", "M1042"], rows
