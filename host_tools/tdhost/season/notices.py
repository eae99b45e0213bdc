"""What only the league can see, and whom it tells: a member registered at two venues on one
night (LPPL ¶72: "players moving from one venue to another and trying to gain more points at
the venue they have left"), with when they registered and went out at each; a member number
a venue gave to another name than the league's (table number_clashes, kept by each push);
and the rulings the venues' players asked of the league (their ``ruling`` events).  The
organiser reads them all on the league's page; each venue gets the sentences about itself
after a push (the TD console) and a pull (the league file).  docs/league.md, "Clashes".
"""

from typing import Any, Optional

import psycopg

from tdhost.season.connection import SeasonError, failed

# members entered (standby too) at two or more venues on one date, each venue's entry with
# its registration time (the first of its register or late events not undone) and, once out,
# the time of the bust and the place
_ALL = """
        SELECT t.date, e.member FROM entrants e JOIN tournaments t ON t.uid = e.tournament
        WHERE e.member IS NOT NULL GROUP BY t.date, e.member
        HAVING count(DISTINCT e.venue) > 1"""
# one venue's: its members' entries elsewhere on its dates (the indexes on entrants by venue
# and by member), not the whole season grouped
_VENUE = """
        SELECT DISTINCT t.date, e.member FROM entrants e
            JOIN tournaments t ON t.uid = e.tournament
            JOIN entrants o ON o.member = e.member AND o.venue <> e.venue
            JOIN tournaments ot ON ot.uid = o.tournament AND ot.date = t.date
        WHERE e.venue = %(venue)s AND e.member IS NOT NULL"""
_CLASHES = """
    WITH c AS ({which})
    SELECT t.date, m.number, m.name, e.venue, t.name, e.place_text,
        (SELECT min(ev.at) FROM events ev WHERE ev.venue = e.venue AND ev.tournament = t.uid
         AND ev.action IN ('register', 'late') AND ev.payload->>'name' = e.name
         AND NOT EXISTS (SELECT 1 FROM events u WHERE u.venue = ev.venue
                         AND u.undoes = ev.seq)),
        (SELECT max(ev.payload->>'time') FROM events ev WHERE ev.venue = e.venue
         AND ev.tournament = t.uid AND ev.action = 'bust'
         AND ev.payload->'tiers' @> jsonb_build_array(jsonb_build_array(e.name))
         AND NOT EXISTS (SELECT 1 FROM events u WHERE u.venue = ev.venue
                         AND u.undoes = ev.seq))
    FROM c JOIN tournaments t ON t.date = c.date
         JOIN entrants e ON e.tournament = t.uid AND e.member = c.member
         JOIN members m ON m.number = c.member
    ORDER BY t.date DESC, m.name, m.number, 7, e.venue"""


def _hhmm(at: Optional[str]) -> str:
    """A time the log wrote (ISO 8601, the venue's own offset) as HH:MM."""
    return at[11:16] if at and len(at) >= 16 else "?"


def clashes(db: psycopg.Connection[Any], venue: Optional[str] = None
            ) -> list[dict[str, Any]]:
    """Members registered at two or more venues on one date (of *venue*, when given), newest
    date first: [{"date", "member", "name", "venues": [{"venue", "tournament", "registered",
    "out", "place"}]}]."""
    which = _ALL if venue is None else _VENUE
    out: list[dict[str, Any]] = []
    for date, number, name, at, tournament, place, registered, bust in db.execute(
            _CLASHES.format(which=which), {"venue": venue}).fetchall():
        if not out or (out[-1]["date"], out[-1]["member"]) != (str(date), number):
            out.append({"date": str(date), "member": number, "name": name, "venues": []})
        out[-1]["venues"].append({"venue": at, "tournament": tournament,
                                  "registered": _hhmm(registered),
                                  "out": _hhmm(bust) if bust else None, "place": place})
    return out


def stay_text(stay: dict[str, Any]) -> str:
    """One venue's part of a clash: "Crown (Crown Monday): registered 19:40, out 21:10 (9th)"."""
    if stay["out"]:
        then = ", out %s (%s)" % (stay["out"], stay["place"])
    else:
        then = ", %s" % stay["place"] if stay["place"] not in ("in", "registered") else \
            ", still %s" % ("playing" if stay["place"] == "in" else "registered")
    return "%s (%s): registered %s%s" % (stay["venue"], stay["tournament"], stay["registered"],
                                          then)


def clash_sentence(clash: dict[str, Any], venue: Optional[str] = None) -> str:
    """A clash as one sentence; for *venue*, its own entry first, said as "here"."""
    stays = sorted(clash["venues"], key=lambda s: s["venue"] != venue)
    return ("#%d %s was registered at %d venues on %s: %s (LPPL ¶72: check they are not "
            "playing for points at two venues)." % (
                clash["member"], clash["name"], len(stays), clash["date"],
                "; ".join(("here, " if s["venue"] == venue else "") + stay_text(s)
                          for s in stays)))


def number_clashes(db: psycopg.Connection[Any], venue: Optional[str] = None
                   ) -> list[dict[str, Any]]:
    """Member numbers a venue gave to another name than the league's member of that number
    (the player counts by name), newest tournament first: [{"venue", "date", "tournament",
    "member_no", "name", "member", "member_name"}]."""
    rows = db.execute(
        "SELECT c.venue, t.date, t.name, c.member_no, c.name, m.number, m.name "
        "FROM number_clashes c JOIN tournaments t ON t.uid = c.tournament "
        "LEFT JOIN members m ON m.member_no = c.member_no "
        "WHERE %(venue)s::text IS NULL OR c.venue = %(venue)s "
        "ORDER BY t.date DESC, c.venue, c.member_no, c.name", {"venue": venue}).fetchall()
    return [{"venue": v, "date": str(date), "tournament": tournament, "member_no": no.upper(),
             "name": name, "member": number, "member_name": member_name}
            for v, date, tournament, no, name, number, member_name in rows]


def number_sentence(row: dict[str, Any]) -> str:
    """A member number given to two names, as one sentence."""
    return ("%s gave %s the member number %s (%s, %s), but it is #%s %s's in the league: %s"
            " counts by name until they get their own number." % (
                row["venue"], row["name"], row["member_no"], row["tournament"], row["date"],
                row["member"], row["member_name"], row["name"]))


def rulings(db: psycopg.Connection[Any], venue: Optional[str] = None
            ) -> list[dict[str, Any]]:
    """The rulings asked of the league (``ruling`` events not undone; of *venue*, when
    given), newest first: [{"venue", "seq", "date", "tournament", "at", "name", "decision",
    "reasons", "answer"}] (answer: the league's, or None while it has not given one)."""
    rows = db.execute(
        "SELECT e.venue, e.seq, t.date, t.name, e.payload, a.answer FROM events e "
        "JOIN tournaments t ON t.uid = e.tournament LEFT JOIN ruling_answers a "
        "ON a.venue = e.venue AND a.seq = e.seq WHERE e.action = 'ruling' "
        "AND (%(venue)s::text IS NULL OR e.venue = %(venue)s) "
        "AND NOT EXISTS (SELECT 1 FROM events u WHERE u.venue = e.venue AND u.undoes = e.seq)"
        " ORDER BY t.date DESC, e.at DESC", {"venue": venue}).fetchall()
    return [{"venue": v, "seq": int(seq), "date": str(date), "tournament": tournament,
             "at": _hhmm(payload.get("time")), "name": payload.get("name", ""),
             "decision": payload.get("decision", ""), "reasons": payload.get("reasons", ""),
             "answer": answer}
            for v, seq, date, tournament, payload, answer in rows]


def answer_sentence(row: dict[str, Any]) -> str:
    """The league's answer to a ruling, as the venue's TD reads it."""
    return ("The league's ruling on %s's dispute of \"%s\" (%s, %s, %s): %s" % (
        row["name"], row["decision"], row["tournament"], row["date"], row["at"],
        row["answer"]))


def answer(db: psycopg.Connection[Any], venue: str, seq: int, text: str) -> str:
    """Record the league's answer *text* to the ruling asked at *venue* (its event *seq*), in
    one transaction (an organiser's login; a second answer replaces the first); the sentence
    saying so.  SeasonError when there is no such ruling."""
    text = " ".join(text.split())
    if not text:
        raise SeasonError("Give the league's answer as text: nothing was recorded.")
    try:
        with db.transaction():
            found = [r for r in rulings(db, venue) if r["seq"] == seq]
            if not found:
                raise SeasonError("%s has no ruling #%d asked of the league (the league's page"
                                  " lists them): nothing was recorded." % (venue, seq))
            db.execute("INSERT INTO ruling_answers (venue, seq, answer) VALUES (%s, %s, %s) "
                       "ON CONFLICT (venue, seq) DO UPDATE SET answer = excluded.answer, "
                       "at = now(), by_login = current_user", (venue, seq, text))
    except psycopg.Error as err:
        raise SeasonError(failed(err, "answer"))
    return ("Recorded: %s %s is told with its next pull." % (
        answer_sentence(dict(found[0], answer=text)), venue))


def for_venue(db: psycopg.Connection[Any], venue: str) -> list[str]:
    """The sentences the league has for *venue*'s TD: the league's answers to its players'
    rulings, its clashes, then its member numbers given to two names."""
    return [answer_sentence(r) for r in rulings(db, venue) if r["answer"]] + [
        clash_sentence(c, venue) for c in clashes(db, venue)] + [
        number_sentence(r) for r in number_clashes(db, venue)]
