"""What the league server sees of the season: standings for the league, an area or a venue
(from the entrants' points as each venue's tournament file gave them), a member's history
across venues (what only the league sees is tdhost.season.notices's).
docs/league.md, "The season".
"""

from typing import Any, Optional

import psycopg

# league and area: members only (people across the league), summed from each member's totals
# per venue (member_totals, kept by each push: TOTALS); a venue: everyone who played there, a
# non-member by the name that venue knows them by
_BY_MEMBER = """
    SELECT m.name, s.member, sum(s.events), sum(s.wins), min(s.best), sum(s.points)
    FROM member_totals s JOIN members m ON m.number = s.member
         JOIN venues v ON v.name = s.venue
    WHERE {where} GROUP BY s.member, m.name"""
_BY_VENUE = """
    SELECT coalesce(m.name, min(e.name)), e.member, count(*),
           count(*) FILTER (WHERE e.place = 1), min(e.place), sum(e.points)
    FROM entrants e JOIN tournaments t ON t.uid = e.tournament
         LEFT JOIN members m ON m.number = e.member
    WHERE t.finished AND e.points IS NOT NULL AND e.venue = %(venue)s
    GROUP BY e.member, m.name, CASE WHEN e.member IS NULL THEN e.key END"""
_QUERIES = {"league": _BY_MEMBER.format(where="true"),
            "area": _BY_MEMBER.format(where="v.area = %(area)s"),
            "venue": _BY_VENUE}
# a member's totals at a venue, from its entrants (%(venue)s and %(members)s: which to count)
TOTALS = """
    INSERT INTO member_totals
    SELECT e.member, e.venue, count(*), count(*) FILTER (WHERE e.place = 1), min(e.place),
           sum(e.points)
    FROM entrants e JOIN tournaments t ON t.uid = e.tournament
    WHERE t.finished AND e.points IS NOT NULL AND e.member IS NOT NULL AND {where}
    GROUP BY e.member, e.venue"""


def standings(db: psycopg.Connection[Any], scope: str, area: str = "",
              venue: str = "") -> list[dict[str, Any]]:
    """[{"rank", "name", "member", "events", "wins", "best", "points"}], most points first
    (ties share a rank, as on a venue's own leaderboard: tdhost.league.replay)."""
    query = _QUERIES[scope]
    rows = [{"name": name, "member": member, "events": int(events), "wins": int(wins),
             "best": best, "points": round(float(points), 6)}
            for name, member, events, wins, best, points
            in db.execute(query, {"area": area, "venue": venue}).fetchall()]
    return ranked(rows)


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*rows* sorted best first, each given its "rank"."""
    out = sorted(rows, key=lambda row: (-row["points"], -row["wins"], row["best"] or 10**9,
                                        row["name"].casefold()))
    rank = 0
    for i, row in enumerate(out):
        if i == 0 or row["points"] != out[i - 1]["points"]:
            rank = i + 1
        row["rank"] = rank
    return out


def find_member(db: psycopg.Connection[Any], who: str) -> Optional[tuple[int, str]]:
    """(number, name) of the member *who* (the league's number "#12", a venue's member
    number "M1042", or a name in any case), or None.  A name two members share finds the
    one without a member number, else the oldest: their numbers tell them apart."""
    if who.strip().lstrip("#").isdigit():
        row = db.execute("SELECT number, name FROM members WHERE number = %s",
                         (int(who.strip().lstrip("#")),)).fetchone()
    else:  # a merged member's key leads to the member kept
        row = db.execute(
            "SELECT number, name FROM (SELECT 0 AS pick, number, name, false AS numbered "
            "FROM members WHERE member_no = %(k)s UNION ALL SELECT 1, number, name, "
            "member_no IS NOT NULL FROM members WHERE key = %(k)s UNION ALL SELECT 2, "
            "m.number, m.name, false FROM member_keys k JOIN members m USING (number) "
            "WHERE k.key = %(k)s) found ORDER BY pick, numbered, number LIMIT 1",
            {"k": " ".join(who.split()).casefold()}).fetchone()
    return (int(row[0]), str(row[1])) if row else None


def history(db: psycopg.Connection[Any], number: int) -> list[dict[str, Any]]:
    """Member *number*'s tournaments across venues, oldest first."""
    rows = db.execute(
        "SELECT t.date, e.venue, t.name, e.place_text, e.points, t.entries FROM entrants e "
        "JOIN tournaments t ON t.uid = e.tournament WHERE e.member = %s "
        "ORDER BY t.date, e.venue, t.number", (number,)).fetchall()
    return [{"date": str(date), "venue": venue, "tournament": name, "place": place,
             "points": points, "entries": entries}
            for date, venue, name, place, points, entries in rows]
