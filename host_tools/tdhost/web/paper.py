"""The night on paper: the printouts as print-ready HTML pages, from a Live snapshot
(docs/host.md §12).  One renderer for both ways to print: ``tdhost print PART`` writes the
page to a file (the stylesheet inlined), the console's ``/td/print/PART`` serves it (the
stylesheet linked, a print button).  HTML, not PDF: every browser prints it and saves a
PDF from its print dialog, so the host needs no PDF library.

Parts (PARTS): ``seats`` the alphabetical seat list and the seat cards, ``tables`` a sheet
a table, ``results``, ``league``, ``signin`` the sign-in sheet.  Only tables with players
print: a broken or empty table, or any table once the tournament is over, prints nothing.
"""

import datetime
import os
from html import escape
from typing import Any

from tdhost.league.text import ordinal

PARTS = {
    "seats": "Seat list and seat cards",
    "tables": "Table sheets",
    "results": "Results",
    "league": "League table",
    "signin": "Sign-in sheet",
}
CSS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static", "print.css")
MIN_SEATS = 8  # a table sheet lists at least this many seats (the Ace-8 draw's table)
SIGNIN_SPARE = 8  # blank lines at the end of the sign-in sheet, for walk-ins


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def over(snap: dict[str, Any]) -> bool:
    """True once the tournament is finished: no seat prints any more."""
    return (snap.get("tournament") or {}).get("state") == "finished"


def playing_tables(snap: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables with players on them (none once the tournament is over)."""
    if over(snap):
        return []
    return [t for t in snap.get("tables") or [] if not t.get("broken") and t.get("seats")]


def seated(snap: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(name, table, seat) of every seated player, alphabetically (by name, any case)."""
    rows = [(p["name"], int(t["table"]), int(seat)) for t in playing_tables(snap)
            for seat, p in (t.get("seats") or {}).items()]
    return sorted(rows, key=lambda r: (_key(r[0]), r[1], r[2]))


def _title(snap: dict[str, Any]) -> str:
    t = snap.get("tournament") or {}
    return " · ".join(x for x in (snap.get("event") or "", t.get("name") or "") if x)


def _printed(snap: dict[str, Any]) -> str:
    now = snap.get("now_ms")
    if not isinstance(now, int):
        return ""
    at = datetime.datetime.fromtimestamp(now / 1000)
    return "printed %s" % at.strftime("%d %b %Y %H:%M")


def _table(head: list[tuple[str, str]], rows: list[list[tuple[str, str]]],
           cls: str = "pr-table") -> str:
    """An HTML table: head and rows of (css class, text)."""
    th = "".join('<th class="%s">%s</th>' % (c, _e(x)) for c, x in head)
    body = "".join("<tr>%s</tr>" % "".join('<td class="%s">%s</td>' % (c, _e(x))
                                            for c, x in row) for row in rows)
    return '<table class="%s"><thead><tr>%s</tr></thead><tbody>%s</tbody></table>' % (
        cls, th, body)


def _none(text: str) -> str:
    return '<p class="empty">%s</p>' % _e(text)


def _seats(snap: dict[str, Any]) -> str:
    rows = seated(snap)
    if not rows:
        return _none("The tournament is over: there are no seats to print." if over(snap)
                     else "Nobody is seated yet: the seat list comes with the draw.")
    tname = (snap.get("tournament") or {}).get("name") or ""
    listing = _table([("", "Player"), ("num", "Table"), ("num", "Seat")],
                     [[("", n), ("num", str(t)), ("num", str(s))] for n, t, s in rows],
                     "pr-table seat-list")
    by_seat = sorted(rows, key=lambda r: (r[1], r[2]))
    cards = "".join(
        '<div class="card-seat"><div class="where">Table %d · Seat %d</div>'
        '<div class="who">%s</div><div class="what">%s</div></div>' % (t, s, _e(n), _e(tname))
        for n, t, s in by_seat)
    return ('<section class="part"><h2 class="pr-h">Seats by name (%d players)</h2>%s'
            '</section><section class="part cards-part"><h2 class="pr-h">Seat cards</h2>'
            '<div class="cards">%s</div></section>' % (len(rows), listing, cards))


def _tables(snap: dict[str, Any]) -> str:
    tables = playing_tables(snap)
    if not tables:
        return _none("The tournament is over: there are no tables to print." if over(snap)
                     else "No table has players yet: the sheets come with the draw.")
    tname = (snap.get("tournament") or {}).get("name") or ""
    per = max([MIN_SEATS] + [int(s) for t in tables for s in (t.get("seats") or {})])
    out = []
    for t in tables:
        seats = t.get("seats") or {}
        rows = [[("num", str(n)), ("", seats[str(n)]["name"]) if str(n) in seats
                 else ("empty", "empty")] for n in range(1, per + 1)]
        out.append('<div class="sheet"><h2>Table %d</h2><div class="what">%s · %d players'
                   '</div>%s</div>' % (int(t["table"]), _e(tname), len(seats),
                                       _table([("num", "Seat"), ("", "Player")], rows)))
    return "".join(out)


def _results(snap: dict[str, Any]) -> str:
    rows = snap.get("results") or []
    if not rows:
        return _none("Nobody is out yet.")
    money = bool(snap.get("money"))
    head = [("", "Place"), ("", "Player"), ("num", "Points")] + (
        [("num", "Prize")] if money else [])
    body = []
    for r in rows:
        place = ordinal(r["place"]) + ("=" if r.get("tied") else "") if r.get("place") \
            else "in play"
        row = [("", place), ("", r["name"]),
               ("num", "" if r.get("points") is None else str(r["points"]))]
        if money:
            row.append(("num", r.get("prize") or ""))
        body.append(row)
    note = "" if over(snap) else '<p class="what">So far: the tournament is still on.</p>'
    rulings = "".join('<p class="what">%s</p>' % escape(line, quote=True)
                      for line in snap.get("rulings") or ())  # asked of the league
    return note + _table(head, body) + rulings


def _league(snap: dict[str, Any]) -> str:
    rows = snap.get("leaderboard") or []
    if not rows:
        return _none("No tournament of this league has finished yet.")
    return _table([("num", "Rank"), ("", "Player"), ("num", "Played"), ("num", "Points")],
                  [[("num", str(r["rank"])), ("", r["name"]), ("num", str(r["played"])),
                    ("num", str(r["points"]))] for r in rows])


def _signin(snap: dict[str, Any]) -> str:
    names = [(r["name"], bool(r.get("member")), r.get("seat") or "")
             for r in snap.get("registration") or []]
    names += [(r["name"], False, "standby") for r in snap.get("standby") or []]
    names.sort(key=lambda r: _key(r[0]))
    rows = [[("", n), ("", "member" if m else ""),
             ("", s.replace(".", " · ") if s != "standby" else s), ("box", ""), ("sign", "")]
            for n, m, s in names]
    rows += [[("", ""), ("", ""), ("", ""), ("box", ""), ("sign", "")]] * SIGNIN_SPARE
    return ('<p class="what">%d registered. Tick "paid" and sign on arrival; walk-ins on '
            'the blank lines.</p>' % len(names)) + _table(
        [("", "Player"), ("", "Member"), ("", "Table · seat"), ("box", "Paid"),
         ("sign", "Signature")], rows, "pr-table signin")


RENDER = {"seats": _seats, "tables": _tables, "results": _results, "league": _league,
          "signin": _signin}


def render(part: str, snap: dict[str, Any], web: bool = False) -> str:
    """The whole HTML page of *part* (a key of PARTS; KeyError otherwise).  ``web``: the
    console's page (stylesheet linked, a bar with the print button and the other parts);
    else a file that stands alone (the stylesheet inlined)."""
    body = RENDER[part](snap)
    title = _title(snap)
    if web:
        head = ('<link rel="stylesheet" href="/static/style.css">'
                '<link rel="stylesheet" href="/static/print.css">'
                '<script src="/static/print.js" defer></script>')
        bar = ('<nav class="pr-bar no-print"><button type="button" id="print">Print</button> '
               + " ".join('<a href="/td/print/%s"%s>%s</a>' % (
                   p, ' aria-current="page"' if p == part else "", _e(w))
                   for p, w in PARTS.items())
               + ' <span class="hint">The print dialog also saves a PDF. '
                 '<a href="/td">Back to the console</a></span></nav>')
    else:
        with open(CSS, encoding="utf-8") as f:
            head = "<style>%s</style>" % f.read()
        bar = ""
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>%s – %s</title>%s</head><body class="pr pr-%s">%s'
            '<header class="pr-head"><h1>%s</h1><div class="what">%s%s</div></header>'
            '%s</body></html>' % (
                _e(PARTS[part]), _e(title), head, part, bar, _e(PARTS[part]), _e(title),
                _e(" · " + _printed(snap)) if _printed(snap) else "", body))


def index(snap: dict[str, Any]) -> str:
    """The console's list of printouts (/td/print): a link a part."""
    items = "".join('<li><a href="/td/print/%s">%s</a></li>' % (p, _e(w))
                    for p, w in PARTS.items())
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>Printouts – %s</title><link rel="stylesheet" href="/static/style.css">'
            '<link rel="stylesheet" href="/static/print.css"></head><body class="pr">'
            '<header class="pr-head"><h1>Printouts</h1><div class="what">%s</div></header>'
            '<ul class="pr-index">%s</ul><p class="hint">Each opens as a page: print it with '
            'its button (or Ctrl+P). From the command line: <code>tdhost print PART</code>. '
            '<a href="/td">Back to the console</a></p></body></html>'
            % (_e(_title(snap)), _e(_title(snap)), items))
