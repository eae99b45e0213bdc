"""The league server on a real PostgreSQL (docs/league.md, "Figures"): a season of 50 venues x
40 nights x 60 players loaded into a throwaway cluster (tcsim.pgcluster), then, with a
venue's login (row-level security on):

- one night's push (60 players, about 120 events, `tdhost.season.push`): median and p99
  over repeated pushes of a real league file made with the `tdhost` commands (the pushed
  rows are removed by the organiser between runs, not timed);
- the standings of the league, of an area and a member's history: p99 (goal < 100 ms);
- a venue's pull into its league file (`tdhost.season.pull`): median.

    python bench/league_bench.py [--json] [--pushes 15] [--queries 50]

Needs Debian's postgresql and psycopg; about a minute.  `make bench` runs it (``--json``:
one line of figures for bench/run.py).
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "bench", ROOT / "host_tools"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import figures  # noqa: E402

VENUES, NIGHTS, PLAYERS, AREAS = 50, 40, 60, 5
LEAGUE = "Bench League"
POOL = 90  # a venue's members; each night 60 of them, a few from the next venue
QUERY_GOAL = {"below": 100, "unit": "ms", "why": "issue #33: a standings page at once"}
GOALS = {"standings_p99": QUERY_GOAL}


def _ms(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(math.ceil(q * len(s))) - 1)] * 1000.0


def _member(venue: int, i: int) -> str:
    return "Player V%02d-%03d" % (venue, i)


def _load(admin: str) -> dict:
    """The season, as the organiser: venues with logins, and 50 x 40 finished nights."""
    import psycopg
    from psycopg.types.json import Jsonb

    from tdhost.season import schema
    from tdhost.season.standings import TOTALS

    logins = {}
    with psycopg.connect(admin, autocommit=True) as db:
        schema.init(db, LEAGUE)
        for v in range(VENUES):
            role, password = schema.add_venue(db, "Venue %02d" % v, "Area %d" % (v % AREAS))
            logins[v] = admin.replace("user=tcadmin", "user=%s password=%s" % (role, password))
        rng = random.Random(1)
        with db.transaction():
            with db.cursor() as cur:
                with cur.copy("COPY members (key, name, first_venue) FROM STDIN") as cp:
                    for v in range(VENUES):
                        for i in range(POOL):
                            name = _member(v, i)
                            cp.write_row((name.casefold(), name, "Venue %02d" % v))
            numbers = dict(db.execute("SELECT key, number FROM members").fetchall())
            start = datetime.date(2025, 1, 6)
            with db.cursor() as cur:
                with cur.copy("COPY tournaments (uid, venue, number, name, date, profile, "
                              "entries, finished) FROM STDIN") as cp:
                    for v in range(VENUES):
                        for n in range(NIGHTS):
                            cp.write_row(("b%02d-%02d" % (v, n), "Venue %02d" % v, 100 + n,
                                          "Night %d" % (n + 1),
                                          start + datetime.timedelta(days=7 * n + v % 7),
                                          "lppl", PLAYERS, True))
            with db.cursor() as cur:
                with cur.copy("COPY events (venue, seq, tournament, at, action, payload) "
                              "FROM STDIN") as cp:
                    for v in range(VENUES):
                        seq = 10 ** 6  # the venue's earlier file: clear of the night's
                        for n in range(NIGHTS):
                            for e in range(2 * PLAYERS + 2):
                                seq += 1
                                cp.write_row(("Venue %02d" % v, seq, "b%02d-%02d" % (v, n),
                                              "2025-01-06T20:00:00+00:00",
                                              "register" if e < PLAYERS else "bust",
                                              Jsonb({"name": _member(v, e % POOL)})))
            with db.cursor() as cur:
                with cur.copy("COPY entrants (tournament, venue, key, name, member, place, "
                              "place_text, points) FROM STDIN") as cp:
                    for v in range(VENUES):
                        for n in range(NIGHTS):
                            # 5 travellers: 4 from a venue that plays another night,
                            # 1 from one that plays the same night (a clash, LPPL ¶72, when
                            # they played at home too)
                            names = ([_member(v, i) for i in rng.sample(range(POOL),
                                                                         PLAYERS - 5)]
                                     + [_member((v + 1) % VENUES, i)
                                        for i in rng.sample(range(POOL), 4)]
                                     + [_member((v + 7) % VENUES, rng.randrange(POOL))])
                            rng.shuffle(names)
                            for place, name in enumerate(names, 1):
                                key = name.casefold()
                                cp.write_row(("b%02d-%02d" % (v, n), "Venue %02d" % v, key,
                                              name, numbers[key], place, str(place),
                                              round(math.sqrt(PLAYERS / place) * 10, 2)))
            db.execute(TOTALS.format(where="true"))  # as each push keeps them
        db.execute("ANALYZE")
        sizes = {t: db.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
                 for t in ("members", "tournaments", "events", "entrants")}
    return {"logins": logins, "rows": sizes}


def _night_file(folder: str) -> str:
    """Venue 00's next night, 60 of its members, with the real `tdhost` commands."""
    from click.testing import CliRunner

    from tdhost.cli.app import cli

    # the US free league's night (LPPL caps a night at 48), 60 players
    with open(ROOT / "docs" / "examples" / "us_free.toml", encoding="utf-8") as f:
        text = f.read().replace("max_players = 40", "max_players = %d" % PLAYERS)
    text = text.replace("date = 2025-03-06", "date = 2025-11-06").replace(
        'name = "Free Poker League, Thursday venue"', 'name = "%s"' % LEAGUE)
    toml = os.path.join(folder, "night.toml")
    with open(toml, "w", encoding="utf-8") as f:
        f.write(text)
    db = os.path.join(folder, "venue00.sqlite")
    players = [_member(0, i) for i in range(PLAYERS)]
    start = datetime.datetime(2025, 11, 6, 20, tzinfo=datetime.timezone.utc)

    def run(*args: str, minutes: int = 0) -> None:
        env = {"TDHOST_DB": db, "TDHOST_PLAIN": "1", "TDHOST_NOW":
               (start + datetime.timedelta(minutes=minutes)).isoformat()}
        res = CliRunner().invoke(cli, list(args), env=env)
        if res.exit_code != 0:
            raise RuntimeError("tdhost %s: %s" % (args[0], res.output.strip()))

    run("new", toml)
    run("register", "--member", *players)
    run("draw", "--seed", "1")
    run("start")
    for i, who in enumerate(reversed(players[1:])):
        run("bust", who, minutes=2 * (i + 1))
    return db


def _unpush(admin: str) -> None:
    """The organiser takes Venue 00's pushed night away again (not timed)."""
    import psycopg

    with psycopg.connect(admin, autocommit=True) as db, db.transaction():
        uids = [r[0] for r in db.execute("SELECT uid FROM tournaments WHERE venue = "
                                         "'Venue 00' AND uid NOT LIKE '%%-%%'").fetchall()]
        db.execute("DELETE FROM entrants WHERE tournament = ANY(%s)", (uids,))
        db.execute("DELETE FROM events WHERE tournament = ANY(%s)", (uids,))
        db.execute("DELETE FROM tournaments WHERE uid = ANY(%s)", (uids,))
        db.execute("UPDATE venues SET last_seq = 0, last_event = NULL WHERE name = 'Venue 00'")


def measure(pushes: int, queries: int) -> dict:
    from tcsim import pgcluster
    from tdhost.season import (
        connection as _server,
        notices as _notices,
        pull as _pull,
        push as _push,
        standings as _standings,
    )

    cluster = pgcluster.start()
    if cluster is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    work = tempfile.mkdtemp(prefix="tcleague")
    try:
        t0 = time.perf_counter()
        admin = cluster.conninfo()
        loaded = _load(admin)
        load_s = time.perf_counter() - t0
        login = loaded["logins"][0]
        night = _night_file(work)
        push_s, sent = [], ""
        for _ in range(pushes):
            t = time.perf_counter()
            sent = _push.push(night, login).sentence
            push_s.append(time.perf_counter() - t)
            _unpush(admin)
        _push.push(night, login)  # the night stays: standings and pull see it
        db = _server.connect(login, "look-up")
        try:
            times: dict[str, list[float]] = {"league": [], "area": [], "member": [],
                                             "notices": []}
            for i in range(queries):
                for what in times:
                    t = time.perf_counter()
                    if what == "league":
                        rows = _standings.standings(db, "league")
                    elif what == "area":
                        _standings.standings(db, "area", area="Area %d" % (i % AREAS))
                    elif what == "notices":  # what a push and a pull tell a venue
                        _notices.for_venue(db, "Venue %02d" % (i % VENUES))
                    else:
                        _standings.history(db, 1 + (i * 37) % (VENUES * POOL))
                    times[what].append(time.perf_counter() - t)
        finally:
            db.close()
        pull_s = []
        for _ in range(5):
            t = time.perf_counter()
            _pull.pull(night, login)
            pull_s.append(time.perf_counter() - t)
        return {"rows": loaded["rows"], "load_s": round(load_s, 1), "push_sentence": sent,
                "league_members_ranked": len(rows),
                "push_ms": [round(s * 1000, 1) for s in push_s],
                "push_ms_median": statistics.median(push_s) * 1000,
                "push_ms_p99": _ms(push_s, 0.99),
                **{"%s_ms_p99" % k: _ms(v, 0.99) for k, v in times.items()},
                **{"%s_ms_median" % k: statistics.median(v) * 1000 for k, v in times.items()},
                "pull_ms_median": statistics.median(pull_s) * 1000}
    finally:
        cluster.stop_and_remove()
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON line for bench/run.py")
    ap.add_argument("--pushes", type=int, default=15)
    ap.add_argument("--queries", type=int, default=50)
    args = ap.parse_args(argv)
    try:
        d = measure(args.pushes, args.queries)
    except Exception as err:  # noqa: BLE001 -- a bench reports, bench/run.py goes on
        fig = figures.figure("league", "the league server (bench/league_bench.py)", None, "",
                             error=str(err))
        return figures.report({"goals": GOALS, "figures": [fig], "details": {"error":
                                                                            str(err)}},
                              args.json)
    goal = figures.goal_of(GOALS, "standings_p99")
    figs = [
        figure_("league_push_median", "league: one night's push (60 players), median",
                d["push_ms_median"]),
        figure_("league_push_p99", "league: one night's push (60 players), p99",
                d["push_ms_p99"]),
        figures.figure("league_standings_p99", "league: standings of the league, p99",
                       d["league_ms_p99"], "ms", goal, digits=1),
        figures.figure("league_area_p99", "league: standings of an area, p99",
                       d["area_ms_p99"], "ms", goal, digits=1),
        figures.figure("league_member_p99", "league: a member's history, p99",
                       d["member_ms_p99"], "ms", goal, digits=1),
        figures.figure("league_notices_p99", "league: a venue's notices (clashes), p99",
                       d["notices_ms_p99"], "ms", goal, digits=1),
        figure_("league_pull_median", "league: a venue's pull, median", d["pull_ms_median"]),
    ]
    return figures.report({"goals": GOALS, "figures": figs, "details": d}, args.json,
                          note="%d venues x %d nights x %d players: %s rows; loaded in %s s"
                          % (VENUES, NIGHTS, PLAYERS, d["rows"], d["load_s"]))


def figure_(key: str, name: str, value: float) -> dict:
    return figures.figure(key, name, value, "ms", digits=1)


if __name__ == "__main__":
    sys.exit(main())
