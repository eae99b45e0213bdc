"""A night the CLI started, then served (issue #31): `tdhost serve` on the same league
file carries on at the level and the time left the TD set at the command line, and
`tdhost plan` knows the buttons the boxes last reported.

LPPL (docs/examples/lppl.toml): 20-minute levels, level 1 25/50, level 2 50/100.
"""

import datetime

from hostutil import EXAMPLES, T0, at, run
from liveroom import Room, fold_round

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


# ------------------------------------------------------------------ the boxes' buttons

def test_plan_takes_the_button_the_box_last_reported(tmp_path):
    """A box reports its button between hands: the league records it once per change, and
    `tdhost plan` (another process on the same file) moves from it, saying whose it used."""
    room = Room(tmp_path, n=20)  # seed 7: tables 1-3 with 7, 7 and 6
    big = [tb for tb, n in room.sizes().items() if n == 7][0]
    box = room.boxes[big]
    for _ in range(3):
        fold_round(box)
        room.run(1000)
    button = box.table.state()["button"]
    t = room.live.tournament
    assert t.buttons[str(big)]["button"] == button
    recorded = [ev for ev in room.live.lg.events if ev.action == "button"]
    assert [ev.payload["hand"] for ev in recorded] == [1, 2, 3]
    room.run(3000)  # more statuses, the same button: nothing more
    assert len([ev for ev in room.live.lg.events if ev.action == "button"]) == 3
    # two players out at the table of 6: 7, 7, 4 -- a move from each table of 7
    small = [tb for tb, n in room.sizes().items() if n == 6][0]
    for name in sorted(t.seating()[small].values())[:2]:
        run(["bust", name, "--yes"], db=room.db, now=at(30))
    out = run(["plan"], db=room.db, now=at(31)).output
    assert "the boxes' last at table %d" % big in out, out
    given = run(["plan", "--button", "%d.%d" % (big, button)], db=room.db, now=at(31)).output
    assert out.splitlines()[:3] == given.splitlines()[:3]
    moves = [line for line in out.splitlines() if line.startswith("Move")]
    assert moves == [line for line in given.splitlines() if line.startswith("Move")]
    drawn = run(["plan", "--button", "%d.%d" % (big, t.draw["tables"][str(big)]["button"])],
                db=room.db, now=at(31)).output  # the draw's button: another player moves
    assert [line for line in drawn.splitlines() if line.startswith("Move")] != moves
    # the console's log keeps to the TD's and the tables' doings
    assert not [line for line in room.live.snapshot()["log"] if "the button at" in line["text"]]
