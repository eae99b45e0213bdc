"""What the last pull from the league server (tdhost.season.pull) left in the league file: the
league's members (number, spelling and the venues' member number), its standings and what it
tells the venue (``notices``: shown on the TD console), in
tables season_* that each pull replaces whole.  The league server owns their content; the
venue only reads it, offline (`tdhost season standings`, and `register`/`late`/`import`
taking the league's spelling of a member).
docs/league.md, "Pull".
"""

import sqlite3
from typing import Any, NamedTuple

from tdhost.league import store as _store
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.text import clean_name, player_key, same_person

TABLES = (
    "CREATE TABLE IF NOT EXISTS season_members (number INTEGER PRIMARY KEY, key TEXT NOT NULL,"
    " name TEXT NOT NULL, member_no TEXT UNIQUE)",
    "CREATE TABLE IF NOT EXISTS season_standings (scope TEXT NOT NULL, rank INTEGER NOT NULL,"
    " name TEXT NOT NULL, member INTEGER, events INTEGER NOT NULL, wins INTEGER NOT NULL,"
    " best INTEGER, points REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS season_pulled (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # what the league tells this venue: a member of its registered at another venue the same
    # night, a member number it gave to another name (tdhost.season.notices)
    "CREATE TABLE IF NOT EXISTS season_notices (n INTEGER PRIMARY KEY, text TEXT NOT NULL)",
)
SCOPES = ("league", "area", "venue")


class Member(NamedTuple):
    """A league member as the league server knows them."""
    number: int
    name: str


class Members(NamedTuple):
    """The league's members as last pulled: by member number (case folded, as the venue's
    league file keeps them), and by name key (of two members of one name, the one without a
    member number, else the oldest: the league server's choice for a player without one)."""
    by_no: dict[str, Member]
    by_key: dict[str, Member]


def members(path: str) -> Members:
    """The league's members as last pulled into league file *path*; none before a first
    pull (or when the file cannot be read: the command itself then says why)."""
    out = Members({}, {})
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError:
        return out
    try:
        rows = store.db.execute("SELECT key, number, name, member_no FROM season_members "
                                "ORDER BY member_no IS NOT NULL, number").fetchall()
    except sqlite3.Error:  # no pull yet, or one before member numbers: pull again
        return out
    finally:
        store.close()
    for key, number, name, member_no in rows:
        found = Member(int(number), str(name))
        out.by_key.setdefault(str(key), found)
        if member_no:
            out.by_no[str(member_no)] = found
    return out


def league_member(known: Members, league: League, name: str, member: bool,
                  member_no: str | None = None) -> tuple[str, bool]:
    """(the name to record, member?) for a player the TD typed as *name* (with *member_no*,
    a venue's member number, when given): a league member goes by the league's spelling
    (over the venue's own, in *league* for this decision) and counts as a member at every
    venue.  A member number the league knows finds its member in any spelling (ActionRefused
    for another name: the number is that member's); a number new to the league is a new
    member, whatever their name."""
    if member_no:
        found = known.by_no.get(member_no.casefold())
        if found is None:
            return name, member
        if player_key(found.name) != player_key(name) and not same_person(found.name, name):
            raise ActionRefused("%s is the member number of %s in the league: register them "
                                "by that name, or give %s their own number" % (
                                    member_no, found.name, clean_name(name)))
        league.numbers[member_no.casefold()] = player_key(found.name)
    else:
        found = known.by_key.get(player_key(name))
        if found is None:
            return name, member
    league.names[player_key(found.name)] = found.name
    return found.name, True


def spelling_note(known: Members, typed: str, member_no: str | None = None) -> str | None:
    """The sentence saying that a player the TD typed as *typed* (with *member_no*) goes by
    the league's spelling of its member, or None when it is the same (or no member)."""
    found = known.by_no.get(member_no.casefold()) if member_no else None
    if found is None:
        found = known.by_key.get(player_key(typed))
    if found is None or found.name == clean_name(typed):
        return None
    return "The league knows %s as #%d %s%s: the league's spelling is used." % (
        clean_name(typed), found.number, found.name,
        " (member %s)" % member_no.upper() if member_no else "")


def notices(path: str) -> list[str]:
    """What the league told this venue at the last pull into league file *path* (a member at
    two venues on one night, a member number given to two names); none before a pull."""
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError:
        return []
    try:
        return [str(text) for (text,) in store.db.execute(
            "SELECT text FROM season_notices ORDER BY n").fetchall()]
    except sqlite3.Error:  # no pull yet (or one before notices)
        return []
    finally:
        store.close()


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
