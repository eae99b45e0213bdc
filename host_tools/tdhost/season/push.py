"""A venue's push: the events of its league file since its last push, the tournaments they
belong to and what those come to (entrants, places and points as each tournament's file
says: tdhost.rules.points), sent to the league server in ONE transaction.  The server keeps
each venue's last pushed event (seq and digest), so a push repeated, or cut off and pushed
again, leaves the league as one whole push.  docs/league.md, "Push".
"""

import hashlib
import json
from typing import Any, NamedTuple, Optional

import psycopg
from psycopg.types.json import Jsonb

from tdhost.league import store as _store
from tdhost.league.replay import League, replay
from tdhost.league.store import LoggedEvent
from tdhost.league.text import player_key, same_person
from tdhost.season import notices as _notices, schema, standings as _standings
from tdhost.season.connection import CONNECT_TIMEOUT, SeasonError, connect, failed


class Pushed(NamedTuple):
    """What a push did: its sentence, the venue's last event the league now holds, and what
    the league tells the venue (tdhost.season.notices)."""
    sentence: str
    seq: int
    notices: list[str]


def event_digest(ev: LoggedEvent) -> str:
    """What identifies one event of a venue's log (its seq alone could be reused by a file
    restored from an older backup)."""
    text = json.dumps([ev.seq, ev.tournament, ev.at, ev.action, ev.payload, ev.undoes,
                       ev.batch], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def tournament_uid(new: LoggedEvent) -> str:
    """A tournament's league-wide identity: its `new` event (when, and the whole file), so a
    copy of a venue's league file pushed from elsewhere claims the same tournaments."""
    text = json.dumps([new.at, new.payload], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def read_file(path: str) -> tuple[list[LoggedEvent], League]:
    """The venue's log and the league it replays to; SeasonError when it cannot be read."""
    try:
        store = _store.Store(path, readonly=True)
    except _store.StoreError as err:
        raise SeasonError(str(err))
    try:
        events = store.events()
    except _store.StoreError as err:
        raise SeasonError(str(err))
    finally:
        store.close()
    return events, replay(events)


def push(path: str, conninfo: str, timeout: int = CONNECT_TIMEOUT) -> Pushed:
    """Push the league file *path* to the league server *conninfo* (given up after *timeout*
    seconds unreachable).  SeasonError (nothing sent) with the sentence when refused or cut
    off."""
    events, lg = read_file(path)
    db = connect(conninfo, "push", timeout)
    try:
        schema.check_version(db)
        with db.transaction():
            return _push(db, events, lg)
    except psycopg.Error as err:
        raise SeasonError(failed(err, "push"))
    finally:
        db.close()


def _push(db: psycopg.Connection[Any], events: list[LoggedEvent], lg: League) -> Pushed:
    row = db.execute("SELECT name, last_seq, last_event FROM venues WHERE role = current_user"
                     " AND NOT revoked FOR UPDATE").fetchone()
    if row is None:
        raise SeasonError("This login is not a venue of the league (an organiser's login, or "
                          "a revoked venue): nothing was sent.")
    venue, last, last_digest = str(row[0]), int(row[1]), row[2]
    league = schema.league_name(db)
    if lg.name and league and lg.name != league:
        raise SeasonError("This league file is %s's, not %s's: nothing was sent." % (
            lg.name, league))
    by_seq = {ev.seq: ev for ev in events}
    if last and (last not in by_seq or event_digest(by_seq[last]) != last_digest):
        raise SeasonError("The league already holds %s's events up to #%d, and this league "
                          "file's differ (restored from an older backup, or another venue's "
                          "file?): nothing was sent; ask the league's organiser." % (venue, last))
    new = [ev for ev in events if ev.seq > last]
    if not new:
        return Pushed("Nothing new to push: the league has all %d events of %s." % (
            last, venue), last, _notices.for_venue(db, venue))
    uids = {ev.tournament: tournament_uid(ev) for ev in events if ev.action == "new"}
    setups = {ev.tournament: ev.payload["setup"] for ev in events if ev.action == "new"}
    touched = sorted({ev.tournament for ev in new})
    for number in touched:
        _claim(db, venue, number, uids[number], setups[number], lg)
    with db.cursor() as cur:
        cur.executemany(
            "INSERT INTO events (venue, seq, tournament, at, action, payload, undoes, batch) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [(venue, ev.seq, uids[ev.tournament], ev.at, ev.action,
              Jsonb(ev.payload), ev.undoes, ev.batch) for ev in new])
    numbers, notes, by_name = _members(db, venue, [lg.tournaments[n] for n in touched
                                                   if n in lg.tournaments], lg)
    db.execute("DELETE FROM entrants WHERE tournament = ANY(%s)", ([uids[n] for n in touched],))
    db.execute("DELETE FROM number_clashes WHERE tournament = ANY(%s)",
               ([uids[n] for n in touched],))
    rows, clashes = [], []
    for number in touched:
        if number in lg.tournaments:
            rows += _entrants(venue, uids[number], lg, number, numbers)
            clashes += [(uids[number], venue, by_name[key], entry.name)
                        for key, entry in sorted(lg.tournaments[number].players.items())
                        if key in by_name and entry.member]
    with db.cursor() as cur:
        cur.executemany("INSERT INTO entrants (tournament, venue, key, name, member, place, "
                        "place_text, points) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", rows)
        # a member number given to another name than the league's: the organiser's page and
        # this venue's console say so (tdhost.season.notices)
        cur.executemany("INSERT INTO number_clashes VALUES (%s, %s, %s, %s)", clashes)
    db.execute("DELETE FROM member_totals WHERE venue = %s", (venue,))
    db.execute(_standings.TOTALS.format(where="e.venue = %(venue)s"), {"venue": venue})
    db.execute("UPDATE venues SET last_seq = %s, last_event = %s, pushed_at = now() "
               "WHERE role = current_user", (new[-1].seq, event_digest(new[-1])))
    return Pushed(" ".join(["Pushed %d event%s of %s (tournament%s %s) to the league %s." % (
        len(new), "" if len(new) == 1 else "s", venue, "" if len(touched) == 1 else "s",
        ", ".join(str(n) for n in touched), league)] + notes), new[-1].seq,
        _notices.for_venue(db, venue))


def _claim(db: psycopg.Connection[Any], venue: str, number: int, uid: str,
           setup: dict[str, Any], lg: League) -> None:
    """The tournament *number* recorded as this venue's (refused when another venue's)."""
    tournament = lg.tournaments.get(number)
    finished = bool(tournament is not None and tournament.ended)
    entries = tournament.entry_count() if tournament is not None else 0
    owner = db.execute("SELECT venue FROM tournaments WHERE uid = %s", (uid,)).fetchone()
    if owner is not None and owner[0] != venue:
        raise SeasonError("Tournament %d (%s, %s) is %s's in the league, so %s cannot push it "
                          "(is this league file a copy of %s's?): nothing was sent." % (
                              number, setup["name"], setup["date"], owner[0], venue, owner[0]))
    if owner is None:
        db.execute("INSERT INTO tournaments (uid, venue, number, name, date, profile, entries,"
                   " finished) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                   (uid, venue, number, setup["name"], str(setup["date"]), setup["profile"],
                    entries, finished))
    else:
        db.execute("UPDATE tournaments SET entries = %s, finished = %s WHERE uid = %s",
                   (entries, finished, uid))


def _members(db: psycopg.Connection[Any], venue: str, tournaments: list[Any], lg: League
             ) -> tuple[dict[str, int], list[str], dict[str, str]]:
    """({player key: member number} of the members entered in *tournaments*, notes): a
    member number the league knows leads to its member whatever the spelling, a new number
    makes a new member (even when the name is another member's), and a player without a
    number goes by the name key as before; a new member takes this venue's spelling.  A
    number the league gives another name is that member's still (the first venue wins):
    the player counts by name, a note says so, and the third part maps the player's key to
    that number."""
    names: dict[str, str] = {}
    for tournament in tournaments:
        for key, entry in tournament.players.items():
            if entry.member:
                names.setdefault(key, entry.name)
    if not names:
        return {}, [], {}
    numbers = {key: no for no, key in sorted(lg.numbers.items()) if key in names}
    with db.cursor() as cur:
        # (not asking for a number when the row is there: no gap in the members' numbers)
        cur.executemany("INSERT INTO members (key, name, first_venue, member_no) SELECT "
                        "%(k)s, %(n)s, %(v)s, %(no)s WHERE NOT EXISTS (SELECT 1 FROM members "
                        "WHERE member_no = %(no)s) ON CONFLICT (member_no) "
                        "WHERE member_no IS NOT NULL DO NOTHING",
                        [{"k": key, "n": names[key], "v": venue, "no": no}
                         for key, no in sorted(numbers.items())])
    owners = {str(no): (int(number), str(name)) for no, number, name in db.execute(
        "SELECT member_no, number, name FROM members WHERE member_no = ANY(%s)",
        (sorted(set(numbers.values())),))}
    found: dict[str, int] = {}
    notes = []
    by_name: dict[str, str] = {}
    for key, no in sorted(numbers.items()):
        number, name = owners[no]
        if player_key(name) == key or same_person(name, names[key]):
            found[key] = number  # the league's spelling: the venue's comes with a pull
        else:
            by_name[key] = no
            notes.append("%s is the member number of #%d %s in the league, so %s's %s counts"
                         " by name: give %s their own number." % (
                             no.upper(), number, name, venue, names[key], names[key]))
    rest = sorted(key for key in names if key not in found)
    merged = {str(key): int(number) for key, number in db.execute(
        "SELECT key, number FROM member_keys WHERE key = ANY(%s)", (rest,))}
    with db.cursor() as cur:  # a merged member's key leads to the member kept
        cur.executemany("INSERT INTO members (key, name, first_venue) SELECT %(k)s, %(n)s, "
                        "%(v)s WHERE NOT EXISTS (SELECT 1 FROM members WHERE key = %(k)s) "
                        "ON CONFLICT (key) WHERE member_no IS NULL DO NOTHING",
                        [{"k": key, "n": names[key], "v": venue} for key in rest
                         if key not in merged])
    # by name: the member of that name without a number, else the oldest of that name
    for key, number in db.execute(
            "SELECT DISTINCT ON (key) key, number FROM members WHERE key = ANY(%s) "
            "ORDER BY key, member_no IS NOT NULL, number", (rest,)).fetchall():
        found.setdefault(str(key), int(number))
    return found | merged, notes, by_name


def _entrants(venue: str, uid: str, lg: League, number: int,
              members: dict[str, int]) -> list[tuple[Any, ...]]:
    """The entrants rows of tournament *number*: every player registered (standby too),
    with place and points once it has finished."""
    tournament = lg.tournaments[number]
    placed: dict[str, dict[str, Any]] = {player_key(r["name"]): r for r in tournament.results()}
    rows = []
    for key, entry in sorted(tournament.players.items()):
        result: Optional[dict[str, Any]] = placed.get(key)
        rows.append((uid, venue, key, entry.name, members.get(key) if entry.member else None,
                     result["first"] if result else None,
                     result["place"] if result else entry.state,
                     result["points"] if result else None))
    return rows
