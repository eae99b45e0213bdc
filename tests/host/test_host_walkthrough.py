"""A whole small LPPL night through the CLI: register 20, draw, latecomers, busts down to a
winner, results and the league table; then a deepstack night that ends on time."""

import csv
import math
import os

from hostutil import EXAMPLES, at, run

LPPL = os.path.join(EXAMPLES, "lppl.toml")
DEEP = os.path.join(EXAMPLES, "lppl_deepstack.toml")
MEMBERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
WALKINS = ["Kim", "Lou", "Max", "Ned", "Oli", "Pam", "Quin", "Rae", "Sam", "Tom"]


def test_a_small_lppl_night(tmp_path):
    db = tmp_path / "lppl.sqlite"
    out = run(["new", LPPL, "--db", str(db)], now=at(-60)).output
    assert out.splitlines()[0] == ("Tournament 1 of LPPL Lincolnshire: Monday night at the "
                                   "Red Lion (2025-03-03, profile lppl).")
    assert "up to 48 players and 8 on standby, 3000 chips" in out

    def td(*args, minutes=0, expect=0):
        return run(list(args), now=at(minutes), db=db, expect=expect)

    out = td("register", *MEMBERS, "--member", minutes=-50).output
    assert "Ann is registered (1 of 48), a member." in out
    td("register", *WALKINS, minutes=-40)
    res = td("register", "ann", minutes=-39, expect=2)
    assert res.stderr == "tdhost register: refused: Ann is already registered.\n"
    td("lock", "Tom", "--table", "1", "--seat", "1", "--reason", "accessibility", minutes=-35)

    out = td("draw", "--seed", "2025", "--ace8", minutes=-30).output
    assert out.count("Ace-8 cards at table") == 3 and out.count("deals (button)") == 3
    assert ("Ace-8 draw, seed 2025: 20 players at 3 tables (`tdhost draw --again --seed 2025`"
            " repeats it).") in out
    seats = td("seats", minutes=-29).output
    assert [ln.split()[:3] for ln in seats.splitlines() if ln.split()[2:3] == ["Tom"]] == [
        ["1", "1", "Tom"]]

    out = td("start", "--absent", "Sam", minutes=0).output
    assert "Shuffle up and deal at 20:00:00: 20 players in, 19 started on time." in out
    assert ("Sam is not seated: blinds are posted when due; 500 chips are removed after 5 "
            "minutes and 1000 more when level 2 starts.") in out

    out = td("late", "Uma", minutes=3).output
    assert out.splitlines()[0] == (
        "Uma joins at table 3 seat 6 — 20 players remain (at least 17 are needed); within 5 "
        "minutes of the start (3:00): 3000 chips, no deduction; post a dead big blind to enter.")
    out = td("late", "Vic", minutes=12).output
    assert "level 1: 2500 chips (3000 less 500)" in out
    out = td("arrive", "Sam", minutes=14).output
    assert out.endswith("500 chips removed (500 after 5 minutes); remove 500 chips from Sam's "
                        "stack.\n")

    order = []  # finishing order, worst first
    td("bust", "Ann", minutes=15)
    order.append("Ann")
    out = td("late", "Wes", minutes=25).output  # 21 remain; level 2
    assert out.startswith("Wes joins at table ") and " — 21 players remain (at least 17 are " \
        "needed); level 2: 1500 chips (3000 less 1500)." in out

    # two players out in one hand with equal chips: the better hand finishes higher
    res = td("bust", "Bob", "Cat", "--chips-at-start", "800", "--chips-at-start", "800",
             minutes=27, expect=2)
    assert "give --cards for Bob and Cat and --board" in res.stderr
    out = td("bust", "Bob", "Cat", "--chips-at-start", "800", "--chips-at-start", "800",
             "--cards", "Bob=As Kd", "--cards", "Cat=7h 7c", "--board", "Ah 7d 2c 9s Tc",
             minutes=27).output
    assert "Bob is out: 22nd of 23." in out and "Cat is out: 21st of 23." in out
    assert "Cat finishes above Bob: both started the hand with 800 chips; the better hand" in out
    order += ["Bob", "Cat"]

    # a mistaken bust, undone
    td("bust", "Dan", minutes=28)
    out = td("undo", minutes=29).output
    assert out == "Undone #31: bust Dan at 20:28:00.\n"
    log = td("log", minutes=29).output
    assert "undone by #32" in log

    res = td("late", "Xan", minutes=41, expect=2)
    assert res.stderr == ("tdhost late: refused: level 3 has started: late entry closes at "
                          "the start of level 3.\n")

    rest = [n for n in MEMBERS + WALKINS + ["Uma", "Vic", "Wes"] if n not in order]
    minute = 45
    while len(rest) > 1:
        name = rest.pop(0)
        minute += 3
        out = td("bust", name, minutes=minute).output
        order.append(name)
    assert out.splitlines()[-1] == "%s wins tournament 1." % rest[0]
    res = td("bust", rest[0], minutes=minute + 1, expect=2)
    assert "has finished" in res.stderr

    csv_file = tmp_path / "results.csv"
    out = td("results", "--csv", str(csv_file), minutes=minute + 2).output
    assert "Results of tournament 1, Monday night at the Red Lion (final; 23 entries)" in out
    with open(csv_file, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [r["name"] for r in rows] == [rest[0]] + order[::-1]
    assert [r["place"] for r in rows] == ["%d%s" % (i, {1: "st", 2: "nd", 3: "rd"}.get(
        i if i < 20 else i % 10, "th")) for i in range(1, 24)]
    assert float(rows[0]["points"]) == round(10 * math.sqrt(23), 2)
    assert float(rows[3]["points"]) == round(10 * math.sqrt(23 / 4), 2)
    entry = {r["name"]: r["entry"] for r in rows}
    assert entry["Uma"] == entry["Wes"] == "late" and entry["Ann"] == "registered"

    # a second night in the same league: deepstack, ended on time
    out = run(["new", DEEP], now=at(24 * 60), db=db).output
    assert out.startswith("Tournament 2 of LPPL Lincolnshire: Deepstack Saturday")
    td("register", "Ann", "Bob", "Kim", "Zoe", minutes=24 * 60 + 1)
    td("draw", "--seed", "5", minutes=24 * 60 + 2)
    td("start", minutes=24 * 60 + 5)
    out = td("late", "Yan", minutes=24 * 60 + 14).output  # fewer than 17 started, nobody out
    assert "fewer than 17 players started (4) and nobody is out yet; level 1: 4250 chips " \
           "(5000 less 750)." in out
    td("bust", "Kim", minutes=24 * 60 + 30)
    out = td("end", "Ann=20000", "Bob=3000", "Zoe=3000", "Yan=1000",
             minutes=24 * 60 + 200).output
    assert "1st Ann (20000 chips)." in out and "2nd= Bob (3000 chips)." in out

    league_csv = tmp_path / "league.csv"
    out = td("league", "--csv", str(league_csv), minutes=24 * 60 + 201).output
    assert "LPPL Lincolnshire leaderboard after 2 tournaments" in out
    with open(league_csv, newline="", encoding="utf-8-sig") as f:
        table = list(csv.DictReader(f))
    by_name = {r["name"]: r for r in table}
    assert by_name["Ann"]["events"] == "2" and by_name["Ann"]["member"] == "yes"
    assert by_name["Zoe"]["member"] == "no"
    pts = [float(r["points"]) for r in table]
    assert pts == sorted(pts, reverse=True)
    ann = round(10 * math.sqrt(23 / 23) + 10 * math.sqrt(5 / 1), 2)
    assert float(by_name["Ann"]["points"]) == ann
    members = td("league", "--members", minutes=24 * 60 + 202).output
    assert "Zoe" not in members and "Ann" in members

    # rich tables when not asked for plain text
    out = run(["results", "-t", "1"], now=at(24 * 60 + 203), db=db, plain=False).output
    assert "─" in out and rest[0] in out
