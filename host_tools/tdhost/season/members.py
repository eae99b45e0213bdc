"""The league's members as the organiser mends them: two member records of one person merged
into one (``merge``), the merged record's entries moved to the member kept, its key kept as
a way to the member kept (table member_keys, read by each push), its member number too
(two members with two numbers are two people: refused), and an audit row
(member_merges: when, which login, both numbers, the merged name and key, how many entries
moved).  docs/league.md, "Members".
"""

from typing import Any

import psycopg

from tdhost.season import schema
from tdhost.season.connection import SeasonError, failed
from tdhost.season.standings import TOTALS, find_member


def merge(db: psycopg.Connection[Any], keep: str, drop: str) -> str:
    """Merge member *drop* into member *keep* (each a number or a name) in one transaction;
    the sentence saying what was done.  SeasonError (nothing changed) when refused."""
    schema.check_version(db)
    try:
        return _merge(db, keep, drop)
    except psycopg.Error as err:
        raise SeasonError(failed(err, "merge"))


def _merge(db: psycopg.Connection[Any], keep: str, drop: str) -> str:
    with db.transaction():
        kept, merged = _member(db, keep), _member(db, drop)
        if kept[0] == merged[0]:
            raise SeasonError("#%d %s and #%d %s are one member already: nothing was merged."
                              % (kept + merged))
        db.execute("SELECT 1 FROM members WHERE number IN (%s, %s) FOR UPDATE",
                   (kept[0], merged[0]))
        both = db.execute(
            "SELECT t.name, t.date FROM entrants a JOIN entrants b USING (tournament) "
            "JOIN tournaments t ON t.uid = a.tournament WHERE a.member = %s AND b.member = %s "
            "ORDER BY t.date LIMIT 1", (kept[0], merged[0])).fetchone()
        if both is not None:
            raise SeasonError("#%d %s and #%d %s both played %s on %s, so they are two people:"
                              " nothing was merged." % (kept + merged + (both[0], both[1])))
        nos = dict(db.execute("SELECT number, member_no FROM members WHERE number IN (%s, %s)",
                              (kept[0], merged[0])).fetchall())
        if nos[kept[0]] and nos[merged[0]]:
            raise SeasonError("#%d %s and #%d %s have two member numbers (%s and %s), so they "
                              "are two people: nothing was merged." % (
                                  kept + merged + (nos[kept[0]].upper(),
                                                   nos[merged[0]].upper())))
        row = db.execute("SELECT key FROM members WHERE number = %s", (merged[0],)).fetchone()
        assert row is not None  # locked above
        key = str(row[0])
        moved = db.execute("UPDATE entrants SET member = %s WHERE member = %s",
                           (kept[0], merged[0])).rowcount
        db.execute("UPDATE member_keys SET number = %s WHERE number = %s",
                   (kept[0], merged[0]))
        db.execute("INSERT INTO member_merges (kept, merged, name, key, entries) "
                   "VALUES (%s, %s, %s, %s, %s)", (kept[0], merged[0], merged[1], key, moved))
        db.execute("DELETE FROM member_totals WHERE member IN (%s, %s)", (kept[0], merged[0]))
        db.execute(TOTALS.format(where="e.member = %(member)s"), {"member": kept[0]})
        db.execute("DELETE FROM members WHERE number = %s", (merged[0],))
        if nos[merged[0]]:  # the merged member's number now leads to the member kept
            db.execute("UPDATE members SET member_no = %s WHERE number = %s",
                       (nos[merged[0]], kept[0]))
        db.execute("INSERT INTO member_keys VALUES (%s, %s)", (key, kept[0]))
    return ("Member #%d %s is merged into #%d %s: %d entr%s moved, and a venue's %s now counts"
            " as #%d (recorded in the league's merges)." % (
                merged[0], merged[1], kept[0], kept[1], moved, "y" if moved == 1 else "ies",
                merged[1], kept[0]))


def _member(db: psycopg.Connection[Any], who: str) -> tuple[int, str]:
    found = find_member(db, who)
    if found is None:
        raise SeasonError("The league has no member %s: nothing was merged." % who)
    return found
