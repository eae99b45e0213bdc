"""The host's SQLite figures for `make bench` (issue "TD host": SQLite events written per
second).  bench/run.py runs this and adds the figures to its table and to
bench/results.json (``host``); alone it prints its own table:

    python bench/host_bench.py [--json]

1. League events per second: TD actions written the way every tdhost command and the
   live host write them (``tdhost.commands.append``: one transaction that replays the
   log, decides, appends; docs/host.md §3), measured at a small log (a tournament just
   set up and 48 players registered) and a long one (1,000 and 3,000 more events, the
   size of a long night with its clock, instruction and notice events).  Replaying the
   log on every write makes the rate fall as the night grows: the long-log figures say
   how far.
2. Box events per second into the link store (``tdhost.usb.HostStore.add_event``: one
   commit per event, the exactly-once record of every box event, docs/host.md §10.3).

Files are in a temporary directory on this machine's disk (one fsync per commit, SQLite's
default synchronous=FULL in rollback-journal mode).  Wall-clock figures: they depend on the
machine and its disk, so they are reported, never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "host_tools")]

from figures import figure, goal_of, report  # noqa: E402
from tdhost import commands, league as _league, store as _store, tfile  # noqa: E402
from tdhost.usb import HostStore  # noqa: E402

HOST_GOALS = {
    "league_events_per_s": {
        "at_least": 20, "unit": "events/s",
        "why": "a busy moment of a night (a same-hand bust, its plan and both boxes' answers, "
               "a level change to 50 boxes) writes a few dozen events; at 20/s the TD never "
               "waits a second for the host",
    },
}
PLAYERS = 48


def _notice(text):
    def decide(lg, seq):
        t = lg.current()
        return [(t.number, "notice", {"text": text, "src": []}, None)], None
    return decide


def _rate(store, n, stamp):
    t0 = time.perf_counter()
    for i in range(n):
        commands.append(store, _notice("bench %d" % i), stamp)
    return n / (time.perf_counter() - t0)


def league_rates(tmp: Path) -> dict:
    """Events per second at three log sizes (see the module notes)."""
    db = tmp / "league.sqlite"
    st = _store.Store(str(db), create=True)
    stamp = _league.iso(_league.now())
    path = ROOT / "docs" / "examples" / "lppl.toml"
    setup, text = tfile.load(str(path))
    try:
        commands.append(st, lambda lg, seq: ([(1, "new", {"setup": setup, "file": path.name,
                                                           "toml": text}, None)], None), stamp)
        for i in range(PLAYERS):
            name = "P%02d" % (i + 1)

            def reg(lg, seq, name=name):
                p, _ = lg.current().decide_register(name, True, _league.now(), lg, seq)
                return [(1, "register", p, None)], None
            commands.append(st, reg, stamp)
        small = _rate(st, 100, stamp)
        for i in range(900):
            commands.append(st, _notice("filler %d" % i), stamp)
        at_1000 = _rate(st, 100, stamp)
        for i in range(1900):
            commands.append(st, _notice("filler %d" % i), stamp)
        at_3000 = _rate(st, 100, stamp)
        size = len(st.events())
    finally:
        st.close()
    return {"small": small, "at_1000": at_1000, "at_3000": at_3000, "log_events": size}


def link_rate(tmp: Path, n: int = 500) -> float:
    hs = HostStore(str(tmp / "links.sqlite"))
    try:
        t0 = time.perf_counter()
        for i in range(n):
            hs.add_event("tc-01", {"kind": "event", "id": "1-%d" % (i + 1), "what": "hand_started",
                                   "hand": i + 1})
        return n / (time.perf_counter() - t0)
    finally:
        hs.close()


def measure() -> dict:
    goal = goal_of(HOST_GOALS, "league_events_per_s")
    try:
        with tempfile.TemporaryDirectory() as d:
            lr = league_rates(Path(d))
            box = link_rate(Path(d))
    except Exception as e:  # noqa: BLE001 -- a failed measurement is reported, not raised
        err = "%s: %s" % (type(e).__name__, e)
        return {"goals": HOST_GOALS, "details": {"error": err},
                "figures": [figure("host_sqlite", "host SQLite", None, "", error=err)]}
    figs = [
        figure("league_events_small", "league events written (log of ~150 events)",
               lr["small"], "events/s", goal),
        figure("league_events_1000", "league events written (log of ~1,150 events)",
               lr["at_1000"], "events/s", goal),
        figure("league_events_3000", "league events written (log of ~3,150 events)",
               lr["at_3000"], "events/s", goal),
        figure("link_events", "box events into the link store", box, "events/s"),
    ]
    return {"goals": HOST_GOALS, "figures": figs, "details": dict(lr, link_events_per_s=box)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the results as one JSON line")
    args = ap.parse_args()
    return report(measure(), args.json)


if __name__ == "__main__":
    sys.exit(main())
