"""`tdhost print` (docs/host.md §12): the night's printouts as HTML files, from the same
renderer as the console's (tdhost.web.paper): the seat list by name and the seat cards, a
sheet a table with players, the sign-in sheet, the results and the league table; once the
tournament is over no seat prints."""

import os
import re

from hostutil import EXAMPLES, at, players, run


def page(tmp_path, db, part, now):
    out = tmp_path / (part + ".html")
    res = run(["print", part, "--out", str(out), "--db", db], now=now)
    assert str(out) in res.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<style>" in html  # stands alone
    return html


def cells(html, cls):
    """The text of each row of the table with class *cls*, cells joined by |."""
    table = re.search(r'<table class="[^"]*%s[^"]*">(.*?)</table>' % cls, html, re.S).group(1)
    body = table.split("<tbody>")[1]
    return ["|".join(re.findall(r"<td[^>]*>(.*?)</td>", row))
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_print_writes_each_part_and_a_finished_night_prints_no_seats(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    names = players(9)
    run(["register", *reversed(names), "--db", db], now=at(-50))
    signin = page(tmp_path, db, "signin", at(-45))
    rows = cells(signin, "signin")
    assert [r.split("|")[0] for r in rows[:9]] == sorted(names)  # alphabetical
    assert rows[9:] == ["||||"] * 8  # blank lines for walk-ins
    run(["draw", "--seed", "7", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    seats = page(tmp_path, db, "seats", at(1))
    listing = cells(seats, "seat-list")
    assert [r.split("|")[0] for r in listing] == sorted(names)
    assert all(re.fullmatch(r"\w+\|[12]\|[1-9]", r) for r in listing), listing
    assert seats.count('class="card-seat"') == 9
    tables = page(tmp_path, db, "tables", at(1))
    # LPPL deals 9 players at two tables: a sheet each
    assert tables.count('class="sheet"') == 2 and "Table 2" in tables
    for i, name in enumerate(names[:8]):
        run(["bust", name, "--db", db], now=at(10 + i))
    # over: no page with nothing on it (issue #31), one sentence and no file
    for part in ("seats", "tables"):
        res = run(["print", part, "--out", str(tmp_path / "x.html"), "--db", db], now=at(30),
                  expect=2)
        assert res.stderr == ("tdhost print: tournament 1 is over: there are no %s to print "
                              "(`tdhost print results` prints the places).\n" % part)
        assert not (tmp_path / "x.html").exists()
    results = cells(page(tmp_path, db, "results", at(30)), "pr-table")
    # LPPL points 10 * sqrt(entries / place): the winner 10 * sqrt(9) = 30
    assert results[0] == "1st|Ivy|30.0" and results[-1].startswith("9th|Ann|")
    assert cells(page(tmp_path, db, "league", at(31)), "pr-table")[0] == "1|Ivy|1|30.0"


def test_print_refuses_a_part_it_does_not_have(tmp_path):
    res = run(["print", "menu", "--db", str(tmp_path / "x.sqlite")], expect=2)
    assert "seats" in res.output and "signin" in res.output
