"""`make demo-league`: a league across five venues in two areas on a throwaway PostgreSQL
cluster (tcsim.pgcluster): each venue's TD runs two LPPL nights with the real `tdhost`
commands (register, draw, start, busts; a pool of players some of whom travel between
venues: the Bell plays on the Anchor's nights, so a member may be registered at both on one
night, which both pushes are told of), pushes them with `tdhost season push`; one player asks
for the league's ruling at the Red Lion (`tdhost ruling`); the standings of the league and
each area are printed, then the league's page (`tdhost season serve`) is served and opened until
Ctrl-C (``--no-page``: print and stop).  Needs Debian's postgresql and psycopg.
docs/league.md, "The demo".
"""

import argparse
import datetime
import os
import random
import shutil
import sys
import tempfile
import webbrowser

from click.testing import CliRunner

from tdhost.cli.app import cli

from . import pgcluster
from .nightleague import example, names

VENUES = [("Red Lion", "Lincoln"), ("Crown", "Lincoln"), ("Swan", "Lincoln"),
          ("Anchor", "Boston"), ("Bell", "Boston")]
NIGHTS = 2
MEMBERS, GUESTS = 7, 2  # each night
POOL = 24  # the league's members: each night draws from them


def _run(args, db=None, when=None, server=""):
    env = {"TDHOST_PLAIN": "1", "TDHOST_SEASON": server}
    if db:
        env["TDHOST_DB"] = db
    if when:
        env["TDHOST_NOW"] = when
    res = CliRunner().invoke(cli, list(args), env=env)
    if res.exit_code != 0:
        raise SystemExit("tdhost %s failed: %s" % (" ".join(args[:2]), res.output.strip()))
    return res.output


def _tournament(folder, name, date):
    with open(example("lppl"), encoding="utf-8") as f:
        text = f.read()
    text = text.replace('name = "Monday night at the Red Lion"', 'name = "%s"' % name)
    text = text.replace("date = 2025-03-03", "date = %s" % date)
    path = os.path.join(folder, "%s.toml" % name.replace(" ", "_"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _night(db, folder, name, date, members, guests, rng, ruling=False):
    start = datetime.datetime.fromisoformat(date + "T20:00:00+00:00")
    when = start.isoformat()
    _run(["new", _tournament(folder, name, date)], db, when)
    _run(["register", "--member", *members], db, when)
    _run(["register", *guests], db, when)
    _run(["draw", "--seed", str(rng.randrange(10 ** 6))], db, when)
    _run(["start"], db, when)
    out = list(members) + list(guests)
    rng.shuffle(out)
    if ruling:  # the first one out disputes the TD's decision: the league will rule
        _run(["ruling", out[0], "--decision", "A single chip pushed forward is a call",
              "--reasons", "said raise first"], db, (start + datetime.timedelta(minutes=5)
                                                     ).isoformat())
    for i, who in enumerate(out[:-1]):
        _run(["bust", who], db, (start + datetime.timedelta(minutes=12 * (i + 1))).isoformat())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-page", action="store_true", help="print the standings, stop")
    parser.add_argument("--port", type=int, default=8100)
    opts = parser.parse_args(argv)
    cluster = pgcluster.start()
    if cluster is None:
        raise SystemExit("make demo-league needs PostgreSQL: apt-get install postgresql")
    work = tempfile.mkdtemp(prefix="tdhost-league-")
    try:
        admin = cluster.conninfo()
        _run(["season", "init", admin, "--name", "LPPL Lincolnshire"])
        rng = random.Random(opts.seed)
        everyone = names(POOL + 3 * len(VENUES))
        pool = everyone[:POOL]
        for v, (venue, area) in enumerate(VENUES):
            login = _run(["season", "add-venue", venue, "--area", area],
                         server=admin).splitlines()[1]
            db = os.path.join(work, "%s.sqlite" % venue.replace(" ", "_"))
            for n in range(NIGHTS):
                day = v if venue != "Bell" else v - 1  # the Bell plays the Anchor's nights
                date = (datetime.date(2025, 3, 3) + datetime.timedelta(days=7 * n + day)
                        ).isoformat()
                locals_ = everyone[POOL + 3 * v:POOL + 3 * v + 3]  # the venue's guests
                _night(db, work, "%s night %d" % (venue, n + 1), date,
                       rng.sample(pool, MEMBERS), rng.sample(locals_, GUESTS), rng,
                       ruling=(v, n) == (0, 1))
            print(_run(["season", "push"], db, server=login).strip())
        last = login
        _run(["season", "pull"], db, server=last)
        for scope in ("league", "area", "venue"):
            print()
            print(_run(["season", "standings", "--scope", scope], db).rstrip())
        if not opts.no_page:
            import uvicorn

            from tdhost.season.page import make_app, new_token
            token = new_token()
            url = "http://127.0.0.1:%d/?token=%s" % (opts.port, token)
            print("\nThe league's page: %s (Ctrl-C stops)" % url)
            webbrowser.open(url)
            uvicorn.run(make_app(admin, token), host="127.0.0.1", port=opts.port,
                        log_level="warning")
    finally:
        cluster.stop_and_remove()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
