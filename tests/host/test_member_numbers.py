"""The league table by member number (issue #31): a member number is the member's identity
across the league, so a member who registers under a new name (Jon Smith, married, is Jon
Smith-Jones) keeps one row in `tdhost league`, shown with the latest name, and the results
show that name with the number; two players in one night still cannot share a number.

Two LPPL Mondays of three players each (docs/examples/lppl.toml), points 10 * sqrt(3 /
place): 17.32 for 1st, 12.25 for 2nd, 10 for 3rd.
"""

import datetime
import json
import os

from hostutil import EXAMPLES, at, run

DAY = datetime.timedelta(days=7)


def monday(tmp_path, db, week, rows, order):
    """Tournament *week*: the players of CSV *rows* imported, drawn, started, and out in
    *order* (the last one wins)."""
    when = at(-60) + week * DAY
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=when)
    path = tmp_path / ("week%d.csv" % week)
    path.write_text("Name,Member Number\n" + "".join(row + "\n" for row in rows),
                    encoding="utf-8")
    out = run(["import", str(path), "--apply", "--db", db], now=when).output
    run(["draw", "--seed", "1"], db=db, now=at(-10) + week * DAY)
    run(["start"], db=db, now=at(0) + week * DAY)
    for i, name in enumerate(order):
        run(["bust", name, "--yes"], db=db, now=at(10 + i) + week * DAY)
    return out


def test_one_row_per_member_number_shown_with_the_latest_name(tmp_path):
    db = str(tmp_path / "league.sqlite")
    monday(tmp_path, db, 0, ["Jon Smith,M1042", "Ann Lee,M7", "Bob Hart,"],
           ["Bob Hart", "Ann Lee"])  # Jon Smith wins
    out = monday(tmp_path, db, 1, ["Jon Smith-Jones,M1042", "Ann Lee,M7", "Bob Hart,"],
                 ["Jon Smith-Jones", "Bob Hart"])  # Ann Lee wins, Jon 3rd
    assert "Jon Smith-Jones is registered (1 of 48), member M1042 (the league knew M1042 " \
           "as Jon Smith)" in out, out
    lj = tmp_path / "league.json"
    run(["league", "--json", str(lj)], db=db, now=at(60) + DAY)
    standings = json.loads(lj.read_text(encoding="utf-8"))["standings"]
    rows = {row["name"]: (row["member_no"], row["events"], row["points"]) for row in standings}
    assert rows == {"Jon Smith-Jones": ("M1042", 2, 27.32), "Ann Lee": ("M7", 2, 29.57),
                    "Bob Hart": (None, 2, 22.25)}
    # last week's results under the member's name now, with the number
    results = run(["results", "-t", "1"], db=db, now=at(60) + DAY).output.splitlines()
    assert [line.split()[:4] for line in results if "Jon" in line] == [
        ["1st", "Jon", "Smith-Jones", "M1042"]]


def test_two_players_in_one_night_cannot_share_a_number(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    path = tmp_path / "club.csv"
    path.write_text("Name,Member Number\nJon Smith,M1042\nJon Smyth,M1042\n", encoding="utf-8")
    out = run(["import", str(path), "--db", db], now=at(-50)).output
    assert "not imported: M1042 is the member number of Jon Smith" in out, out
