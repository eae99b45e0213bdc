"""A venue's pull: the league's members and its standings (the league, the venue's area, the
venue) copied from the league server into the venue's league file, so the area leaderboard
shows offline.  The copy lives in tables season_* of the league file, replaced whole by each
pull; the league server owns what is in them.  docs/league.md, "Pull".
"""

import datetime
import sqlite3
from typing import Any, Optional

import psycopg

from tdhost.league import store as _store
from tdhost.season import schema, standings as _standings
from tdhost.season.server import SeasonError, connect, failed

TABLES = (
    "CREATE TABLE IF NOT EXISTS season_members (number INTEGER PRIMARY KEY, key TEXT NOT NULL"
    " UNIQUE, name TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS season_standings (scope TEXT NOT NULL, rank INTEGER NOT NULL,"
    " name TEXT NOT NULL, member INTEGER, events INTEGER NOT NULL, wins INTEGER NOT NULL,"
    " best INTEGER, points REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS season_pulled (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


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
    return ("Pulled %d members and the standings of %s (%d), area %s (%d) and %s (%d) into %s."
            % (len(got["members"]), got["league"], len(got["league_rows"]), got["area"],
               len(got["area_rows"]), got["venue"], len(got["venue_rows"]), path))


def _fetch(db: psycopg.Connection[Any]) -> dict[str, Any]:
    row = db.execute("SELECT name, area FROM venues WHERE role = current_user").fetchone()
    if row is None:
        raise SeasonError("This login is not a venue of the league: nothing was pulled.")
    venue, area = str(row[0]), str(row[1])
    return {"league": schema.league_name(db), "venue": venue, "area": area,
            "members": db.execute("SELECT number, key, name FROM members").fetchall(),
            "league_rows": _standings.standings(db, "league"),
            "area_rows": _standings.standings(db, "area", area=area),
            "venue_rows": _standings.standings(db, "venue", venue=venue)}


def _write(path: str, got: dict[str, Any]) -> None:
    try:
        store = _store.Store(path)
    except _store.StoreError as err:
        raise SeasonError(str(err))
    db = store.db
    try:
        db.execute("BEGIN IMMEDIATE")
        for statement in TABLES:
            db.execute(statement)
        db.execute("DELETE FROM season_members")
        db.execute("DELETE FROM season_standings")
        db.execute("DELETE FROM season_pulled")
        db.executemany("INSERT INTO season_members VALUES (?, ?, ?)", got["members"])
        for scope in _standings.SCOPES:
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


def pulled(path: str) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """What the last pull left in the league file *path*, read offline: ({"league", "venue",
    "area", "at"}, {scope: standings rows}).  SeasonError when it holds no pull yet."""
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError as err:
        raise SeasonError(str(err))
    try:
        info = dict(store.db.execute("SELECT key, value FROM season_pulled").fetchall())
        rows = store.db.execute("SELECT scope, rank, name, member, events, wins, best, points "
                                "FROM season_standings ORDER BY scope, rank, name").fetchall()
    except sqlite3.OperationalError:
        info, rows = {}, []
    finally:
        store.close()
    if not info:
        raise SeasonError("%s holds no league standings yet: `tdhost season pull` brings them "
                          "from the league server." % path)
    out: dict[str, list[dict[str, Any]]] = {scope: [] for scope in _standings.SCOPES}
    for scope, rank, name, member, events, wins, best, points in rows:
        out[scope].append({"rank": rank, "name": name, "member": member, "events": events,
                           "wins": wins, "best": best, "points": points})
    return info, out


def league_spelling(path: str) -> Optional[dict[str, tuple[int, str]]]:
    """{player key: (member number, name)} as last pulled into *path*, or None."""
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError:
        return None
    try:
        rows = store.db.execute("SELECT key, number, name FROM season_members").fetchall()
    except sqlite3.OperationalError:
        return None
    finally:
        store.close()
    return {str(key): (int(number), str(name)) for key, number, name in rows}
