"""The host's SQLite figures for `make bench` (issue "TD host": SQLite events written per
second).  bench/run.py runs this and adds the figures to its table and to
bench/results.json (``host``); alone it prints its own table:

    python bench/host_bench.py [--json]

1. League events per second: TD actions written the way the tdhost commands and the
   live host write them (``tdhost.commands.append``: one transaction that brings the
   league up to date, decides, appends; docs/host.md §3), measured at a small log (a
   tournament just set up and 48 players registered) and long ones (1,000, 3,000 and
   20,000 more events: a long night with its clock, instruction and notice events; the
   last, a 300-table night).  Two ways: the CLI replays the whole log for every command
   (its rate falls as the night grows: the long-log figures say how far); the live host
   keeps the league in memory (tdhost.logcache) and applies only the new events.
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
from tdhost.logcache import LeagueCache  # noqa: E402
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


def _fill(store, n, stamp):
    """*n* more notice events, a thousand a transaction (filling is not measured)."""
    while n > 0:
        k = min(n, 1000)
        commands.append(store, lambda lg, seq, k=k: ([(lg.current().number, "notice",
                                                       {"text": "filler", "src": []}, None)
                                                      for _ in range(k)], None), stamp)
        n -= k


def _rate(store, n, stamp, cache=None):
    if cache is not None:
        cache.league(store)  # the live host has its league already
    t0 = time.perf_counter()
    for i in range(n):
        commands.append(store, _notice("bench %d" % i), stamp, cache)
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
        out = {}
        for key, fill, n in (("small", 0, 100), ("at_1000", 900, 100), ("at_3000", 1800, 100),
                             ("at_20000", 17000, 20)):
            _fill(st, fill, stamp)
            out[key] = _rate(st, n, stamp)
            out["kept_" + key] = _rate(st, 10 * n, stamp, LeagueCache(verify=False))
        out["log_events"] = len(st.events())
    finally:
        st.close()
    return out


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
    figs = []
    for key, size in (("small", "~150"), ("at_1000", "~1,150"), ("at_3000", "~3,150"),
                      ("at_20000", "~20,000")):
        name = key.replace("at_", "")
        figs.append(figure("league_events_" + name, "league events written, CLI (log of %s "
                           "events)" % size, lr[key], "events/s", goal))
        figs.append(figure("league_events_kept_" + name, "league events written, live host "
                           "(log of %s events)" % size, lr["kept_" + key], "events/s", goal))
    figs.append(figure("link_events", "box events into the link store", box, "events/s"))
    return {"goals": HOST_GOALS, "figures": figs, "details": dict(lr, link_events_per_s=box)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the results as one JSON line")
    args = ap.parse_args()
    return report(measure(), args.json)


if __name__ == "__main__":
    sys.exit(main())
