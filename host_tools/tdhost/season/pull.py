"""A venue's pull: the league's members and its standings (the league, the venue's area, the
venue), and what the league tells the venue (tdhost.season.notices), copied from the league
server into the venue's league file, so the area leaderboard shows offline: tables season_*
of the league file (tdhost.league.pulled), replaced whole by each pull in one SQLite
transaction.  docs/league.md, "Pull".
"""

import datetime
import sqlite3
from typing import Any

import psycopg

from tdhost.league import pulled as _pulled, store as _store
from tdhost.season import notices as _notices, schema, standings as _standings
from tdhost.season.connection import SeasonError, connect, failed


def pull(path: str, conninfo: str) -> str:
    """Copy the league's members and standings into the league file *path*; the sentence
    saying what came.  SeasonError (the file unchanged) when it cannot."""
    db = connect(conninfo, "pull")
    try:
        schema.check_version(db)
        with db.transaction():  # one snapshot of the league
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            got = _fetch(db)
    except psycopg.Error as err:
        raise SeasonError(failed(err, "pull"))
    finally:
        db.close()
    _write(path, got)
    return " ".join(["Pulled %d members and the standings of %s (%d), area %s (%d) and %s (%d)"
                     " into %s." % (len(got["members"]), got["league"], len(got["league_rows"]),
                                    got["area"], len(got["area_rows"]), got["venue"],
                                    len(got["venue_rows"]), path)]
                    + ["The league tells %s: %s" % (got["venue"], text)
                       for text in got["notices"]])


def _fetch(db: psycopg.Connection[Any]) -> dict[str, Any]:
    row = db.execute("SELECT name, area FROM venues WHERE role = current_user").fetchone()
    if row is None:
        raise SeasonError("This login is not a venue of the league: nothing was pulled.")
    venue, area = str(row[0]), str(row[1])
    return {"league": schema.league_name(db), "venue": venue, "area": area,
            "members": db.execute("SELECT number, key, name, member_no FROM members"
                                  ).fetchall(),
            "league_rows": _standings.standings(db, "league"),
            "area_rows": _standings.standings(db, "area", area=area),
            "venue_rows": _standings.standings(db, "venue", venue=venue),
            "notices": _notices.for_venue(db, venue)}


def _write(path: str, got: dict[str, Any]) -> None:
    try:
        store = _store.Store(path)
    except _store.StoreError as err:
        raise SeasonError(str(err))
    db = store.db
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("DROP TABLE IF EXISTS season_members")  # a pull before member numbers
        for statement in _pulled.TABLES:
            db.execute(statement)
        db.execute("DELETE FROM season_standings")
        db.execute("DELETE FROM season_pulled")
        db.execute("DELETE FROM season_notices")
        db.executemany("INSERT INTO season_notices (text) VALUES (?)",
                       [(text,) for text in got["notices"]])
        db.executemany("INSERT INTO season_members VALUES (?, ?, ?, ?)", got["members"])
        for scope in _pulled.SCOPES:
            db.executemany("INSERT INTO season_standings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(scope, r["rank"], r["name"], r["member"], r["events"], r["wins"],
                             r["best"], r["points"]) for r in got[scope + "_rows"]])
        when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        db.executemany("INSERT INTO season_pulled VALUES (?, ?)",
                       [("league", got["league"]), ("venue", got["venue"]),
                        ("area", got["area"]), ("at", when)])
        db.execute("COMMIT")
    except sqlite3.Error as err:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise SeasonError(_store.unusable(path, err))
    finally:
        store.close()
