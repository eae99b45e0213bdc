"""What the last pull from the league server (tdhost.season.pull) left in the league file: the
league's members (number and spelling) and its standings, in tables season_* that each pull
replaces whole.  The league server owns their content; the venue only reads it, offline
(`tdhost season standings`, and `register`/`late` taking the league's spelling of a member).
docs/league.md, "Pull".
"""

import sqlite3
from typing import Any, NamedTuple

from tdhost.league import store as _store
from tdhost.league.replay import League
from tdhost.league.text import player_key

TABLES = (
    "CREATE TABLE IF NOT EXISTS season_members (number INTEGER PRIMARY KEY, key TEXT NOT NULL"
    " UNIQUE, name TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS season_standings (scope TEXT NOT NULL, rank INTEGER NOT NULL,"
    " name TEXT NOT NULL, member INTEGER, events INTEGER NOT NULL, wins INTEGER NOT NULL,"
    " best INTEGER, points REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS season_pulled (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
SCOPES = ("league", "area", "venue")


class Member(NamedTuple):
    """A league member as the league server knows them."""
    number: int
    name: str


def members(path: str) -> dict[str, Member]:
    """{player key: Member} as last pulled into league file *path*; {} before a first pull
    (or when the file cannot be read: the command itself then says why)."""
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError:
        return {}
    try:
        rows = store.db.execute("SELECT key, number, name FROM season_members").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        store.close()
    return {str(key): Member(int(number), str(name)) for key, number, name in rows}


def league_member(known: dict[str, Member], league: League, name: str,
                  member: bool) -> tuple[str, bool]:
    """(the name to record, member?) for a player the TD typed as *name*: a league member
    goes by the league's spelling (over the venue's own, in *league* for this decision) and
    counts as a member at every venue."""
    found = known.get(player_key(name))
    if found is None:
        return name, member
    league.names[player_key(found.name)] = found.name
    return found.name, True


def standings(path: str) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """({"league", "venue", "area", "at"}, {scope: rows best first}) of the last pull into
    *path*; ({}, ...) before a first pull.  StoreError when the file cannot be read."""
    store = _store.Store(path, readonly=True)
    try:
        info = dict(store.db.execute("SELECT key, value FROM season_pulled").fetchall())
        rows = store.db.execute("SELECT scope, rank, name, member, events, wins, best, points "
                                "FROM season_standings ORDER BY scope, rank, name").fetchall()
    except sqlite3.OperationalError:  # no pull yet: no such table
        info, rows = {}, []
    finally:
        store.close()
    out: dict[str, list[dict[str, Any]]] = {scope: [] for scope in SCOPES}
    for scope, rank, name, member, events, wins, best, points in rows:
        out[scope].append({"rank": rank, "name": name, "member": member, "events": events,
                           "wins": wins, "best": best, "points": points})
    return info, out
