"""A night the CLI started, then served (issue #31): `tdhost serve` on the same league
file carries on at the level and the time left the TD set at the command line, and
`tdhost plan` knows the buttons the boxes last reported.

LPPL (docs/examples/lppl.toml): 20-minute levels, level 1 25/50, level 2 50/100.
"""

import datetime

from hostutil import EXAMPLES, T0, at, run

from tdhost.league import times as _times
from tdhost.live.host import Host

LPPL = EXAMPLES + "/lppl.toml"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


def cli_night(tmp_path, now=T0):
    """new, register 12, draw (seed 3: two tables of 6), start at *now*, level 2 five
    minutes later, all at the command line."""
    db = str(tmp_path / "night.sqlite")
    run(["new", LPPL, "--db", db], now=now - datetime.timedelta(hours=1))
    run(["register", *NAMES], db=db, now=now - datetime.timedelta(minutes=50))
    run(["draw", "--seed", "3"], db=db, now=now - datetime.timedelta(minutes=40))
    run(["start"], db=db, now=now)
    run(["level", "2"], db=db, now=now + datetime.timedelta(minutes=5))
    return db


def served_clock(tmp_path, db):
    """The clock of the live night built as `tdhost serve` builds it (its default clock)."""
    host = Host(db, str(tmp_path / "links.sqlite"))
    try:
        return host.live.snapshot()["clock"]
    finally:
        host.close()


def test_serve_carries_on_at_the_level_the_cli_set(tmp_path):
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    db = cli_night(tmp_path, now - datetime.timedelta(minutes=6))
    clock = served_clock(tmp_path, db)
    assert (clock["level"], clock["sb"], clock["bb"], clock["paused"]) == (2, 50, 100, False)
    # level 2 started a minute ago: about 19 of its 20 minutes are left
    assert 18 * 60000 < clock["ms_left"] <= 19 * 60000 + 2000, clock


def test_serve_on_a_night_written_at_tdhost_now_runs_from_that_time(tmp_path, monkeypatch):
    """A night replayed from notes with TDHOST_NOW (docs/host.md §1): serve's clock
    starts at TDHOST_NOW, as the CLI's did -- not at the computer's date, where the
    night's clock would have run out long ago (level 14, nothing left)."""
    db = cli_night(tmp_path)  # started at 20:00, level 2 at 20:05
    monkeypatch.setenv("TDHOST_NOW", _times.iso(at(6)))
    clock = served_clock(tmp_path, db)
    assert (clock["level"], clock["sb"], clock["bb"], clock["paused"]) == (2, 50, 100, False)
    assert 19 * 60000 - 2000 <= clock["ms_left"] <= 19 * 60000, clock
