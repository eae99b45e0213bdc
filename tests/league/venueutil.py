"""A venue's league file for the league-server tests, made with the real `tdhost` commands
(a fixed clock): the LPPL example tournament under another name and date."""

import datetime
import os

from click.testing import CliRunner

from tdhost.cli.app import cli
from tdhost.league import times as _times

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LPPL = os.path.join(ROOT, "docs", "examples", "lppl.toml")


def run(args, db=None, expect=0, when="2025-03-03T20:00:00+00:00", server=None):
    env = {"TDHOST_NOW": when, "TDHOST_PLAIN": "1", "TDHOST_SEASON": server or ""}
    if db:
        env["TDHOST_DB"] = str(db)
    res = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    if expect is not None:
        assert res.exit_code == expect, (args, res.exit_code, res.output)
    return res


def tournament_file(folder, name, date):
    """The LPPL example as tournament *name* on *date* (YYYY-MM-DD)."""
    with open(LPPL, encoding="utf-8") as f:
        text = f.read()
    text = text.replace('name = "Monday night at the Red Lion"', 'name = "%s"' % name)
    text = text.replace("date = 2025-03-03", "date = %s" % date)
    path = os.path.join(str(folder), "%s.toml" % name.replace(" ", "_"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def night(db, folder, name, date, members, guests=(), finish=True):
    """A tournament at a venue: *members* (registered --member) and *guests*; finished by
    busting everyone but the first member, last named first out."""
    start = datetime.datetime.fromisoformat(date + "T20:00:00+00:00")
    when = _times.iso(start)
    run(["new", tournament_file(folder, name, date)], db=db, when=when)
    run(["register", "--member", *members], db=db, when=when)
    if guests:
        run(["register", *guests], db=db, when=when)
    if not finish:
        return
    run(["draw", "--seed", "1"], db=db, when=when)
    run(["start"], db=db, when=when)
    out = list(reversed(list(members) + list(guests)))[:-1]
    for i, who in enumerate(out):
        later = _times.iso(start + datetime.timedelta(minutes=10 * (i + 1)))
        run(["bust", who], db=db, when=later)
