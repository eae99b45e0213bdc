"""The league's page (`tdhost season serve`): the season's standings straight from the league
server, for the whole league, an area or a venue, as a printable HTML page in the big
screen's style (tdhost/web/static/style.css) and as CSV (every text cell made safe for a
spreadsheet: tdhost.safetext.csv_cell), with what only the league sees
(tdhost.season.notices: members at two venues on one night, member numbers given to two
names, rulings asked of the league).  Each request reads the league in one read-only
transaction with the login given to the command.  Nothing is served without the organiser's
token (a cookie once signed in, or ``Authorization: Bearer``), as the TD console
(tdhost.web.app).  docs/league.md, "The league's page".
"""

import csv
import hmac
import io
import secrets
from html import escape
from typing import Any
from urllib.parse import quote

import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tdhost.rules.points import points_text
from tdhost.safetext import csv_cell
from tdhost.season import notices as _notices, schema, standings as _standings
from tdhost.season.connection import SeasonError, connect, failed
from tdhost.web.app import STATIC

FIELDS = ("rank", "name", "member", "events", "wins", "best", "points")
COOKIE = "tdhost_league"
COOKIE_AGE_S = 7 * 24 * 3600  # the organiser's week
HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "same-origin", "Content-Security-Policy": "frame-ancestors 'none'"}
_STYLE = """
body.league { padding: 1.5em; font-size: 16px; }
body.league nav a { color: var(--accent); margin-right: 0.8em; }
body.league ul.flags li { margin: 0.3em 0; }
@media print { body.league { background: #fff; color: #000; } body.league nav,
  body.league .noprint { display: none; } table.grid th, table.grid td { color: #000; } }
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _read(conninfo: str, scope: str, where: str) -> dict[str, Any]:
    """The league's name, its areas and venues, and the standings of *scope* (*where*: the
    area's or venue's name)."""
    db = connect(conninfo, "look-up")
    try:
        schema.check_version(db)
        with db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            venues = db.execute("SELECT name, area FROM venues ORDER BY area, name").fetchall()
            if scope == "area" and where not in {a for _, a in venues}:
                raise SeasonError("The league has no area %s." % where)
            if scope == "venue" and where not in {v for v, _ in venues}:
                raise SeasonError("The league has no venue %s." % where)
            rows = _standings.standings(db, scope, area=where, venue=where)
            got = {"league": schema.league_name(db), "venues": venues, "rows": rows,
                   "clashes": [], "numbers": [], "rulings": []}
            if scope != "area":  # what only the league sees: all of it, or the venue's
                venue = where if scope == "venue" else None
                got["clashes"] = [_notices.clash_sentence(c, venue)
                                  for c in _notices.clashes(db, venue)]
                got["numbers"] = [_notices.number_sentence(r)
                                  for r in _notices.number_clashes(db, venue)]
                got["rulings"] = _notices.rulings(db, venue)
            return got
    except psycopg.Error as err:
        raise SeasonError(failed(err, "look-up"))
    finally:
        db.close()


def _flags(got: dict[str, Any]) -> str:
    """The sections of what only the league sees (empty ones left out)."""
    parts = []
    for head, items in (("Registered at two venues on one night (LPPL ¶72)", got["clashes"]),
                        ("Member numbers given to two names", got["numbers"])):
        if items:
            parts.append("<h2>%s</h2><ul class=\"flags\">%s</ul>" % (
                _e(head), "".join("<li>%s</li>" % _e(text) for text in items)))
    if got["rulings"]:
        parts.append(
            "<h2>Rulings asked of the league</h2><table class=\"grid\"><thead><tr><th>Date"
            "</th><th>Venue</th><th>Tournament</th><th>At</th><th>Player</th><th>The TD's "
            "decision</th><th>Their reasons</th><th>The league's ruling</th><th>No.</th>"
            "</tr></thead><tbody>%s</tbody></table><p class=\"hint noprint\">Give the league's "
            "ruling with <code>tdhost season answer-ruling VENUE NO. TEXT</code>: the venue "
            "reads it with its next pull.</p>" % "".join(
                "<tr>%s</tr>" % "".join("<td>%s</td>" % _e(r[k] if r[k] is not None else
                                                            "not given yet") for k in (
                    "date", "venue", "tournament", "at", "name", "decision", "reasons",
                    "answer", "seq"))
                for r in got["rulings"]))
    return "".join(parts)


def _html(got: dict[str, Any], title: str, csv_url: str) -> str:
    areas = sorted({a for _, a in got["venues"]})
    nav = ['<a href="/">The league</a>'] + [
        '<a href="/area/%s">Area %s</a>' % (_e(quote(a)), _e(a)) for a in areas] + [
        '<a href="/venue/%s">%s</a>' % (_e(quote(v)), _e(v)) for v, _ in got["venues"]]
    body = "".join(
        "<tr><td>%d</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td>"
        "</tr>" % (r["rank"], _e(r["name"]), "#%d" % r["member"] if r["member"] else "",
                   r["events"], r["wins"], r["best"] or "", _e(points_text(r["points"])))
        for r in got["rows"])
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title>'
            '<link rel="stylesheet" href="/static/style.css"><style>%s</style></head>'
            '<body class="td league"><nav>%s</nav><h1>%s</h1><p class="noprint">'
            '<a href="%s">CSV</a> · <button onclick="print()">Print</button></p>'
            '<table class="grid"><thead><tr><th>Rank</th><th>Name</th><th>Member</th>'
            '<th>Events</th><th>Wins</th><th>Best</th><th>Points</th></tr></thead>'
            '<tbody>%s</tbody></table>%s%s<p class="noprint"><a href="/logout">Sign out</a>'
            '</p></body></html>' % (
                _e(title), _STYLE, " ".join(nav), _e(title), _e(csv_url), body,
                "" if got["rows"] else '<p class="hint">No finished tournament yet.</p>',
                _flags(got)))


def _csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(FIELDS)
    writer.writerows([csv_cell(r[f] if r[f] is not None else "") for f in FIELDS]
                     for r in rows)
    return out.getvalue()


def new_token() -> str:
    """A fresh organiser's token: 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def _signed_in(request: Request, token: str) -> bool:
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer " and _same(header[7:].strip(), token):
        return True
    cookie = request.cookies.get(COOKIE)
    return cookie is not None and _same(cookie, token)


def _login_page(note: str, path: str) -> HTMLResponse:
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The league\'s '
        'page</title><link rel="stylesheet" href="/static/style.css"></head><body class="td '
        'login"><main><h1>The league\'s page</h1><p>%s</p><form method="get" action="%s">'
        '<label>Organiser\'s token <input name="token" type="password" autocomplete='
        '"current-password" autofocus></label> <button>Open</button></form><p class="hint">'
        'The token is printed by <code>tdhost season serve</code>.</p></main></body></html>'
        % (_e(note), _e(path)), status_code=401, headers=HEADERS)


def make_app(conninfo: str, token: str) -> Starlette:
    """The league's page on the league server *conninfo* (a login that may read the league),
    for whoever has the organiser's *token* (text of at least 8 characters)."""
    if not isinstance(token, str) or len(token) < 8:
        raise ValueError("the organiser's token must be text of at least 8 characters")

    def sign_in(request: Request) -> Response | None:
        """None when *request* is the organiser's; else the page that signs in (the token in
        the address sets the cookie and comes back without it)."""
        given = request.query_params.get("token")
        path = request.url.path
        if given is not None:
            if not _same(given, token):
                return _login_page("That token is not the organiser's token.", path)
            back = RedirectResponse(path, status_code=303, headers=HEADERS)
            back.set_cookie(COOKIE, token, max_age=COOKIE_AGE_S, path="/", httponly=True,
                            samesite="lax")
            return back
        if not _signed_in(request, token):
            return _login_page("The league's page needs the organiser's token.", path)
        return None

    def logout(request: Request) -> Response:
        gone = _login_page("Signed out.", "/")
        gone.delete_cookie(COOKIE, path="/")
        return gone

    def page(request: Request) -> Response:
        refused = sign_in(request)
        if refused is not None:
            return refused
        scope = request.path_params.get("scope", "league")
        where = str(request.path_params.get("where", ""))
        as_csv = where.endswith(".csv") or request.url.path == "/league.csv"
        where = where.removesuffix(".csv")
        if scope not in ("league", "area", "venue"):
            return PlainTextResponse("No such page: the league's pages are /, /area/NAME and"
                                     " /venue/NAME.\n", status_code=404)
        try:
            got = _read(conninfo, scope, where)
        except SeasonError as err:
            return PlainTextResponse(str(err) + "\n", status_code=404 if "has no" in str(err)
                                     else 503, headers=HEADERS)
        if as_csv:
            name = "%s standings.csv" % (where or got["league"] or "league")
            return PlainTextResponse(_csv(got["rows"]), media_type="text/csv", headers=dict(
                HEADERS, **{"Content-Disposition": "attachment; filename=\"%s\"" % name.replace(
                    '"', "")}))
        title = {"league": "Standings of %s" % got["league"], "area": "Standings of area %s"
                 % where, "venue": "Standings of %s" % where}[scope]
        csv_url = "/league.csv" if scope == "league" else "/%s/%s.csv" % (scope, quote(where))
        return HTMLResponse(_html(got, title, csv_url), headers=HEADERS)

    return Starlette(routes=[
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/", page), Route("/league.csv", page), Route("/logout", logout),
        Route("/{scope:str}/{where:str}", page),
    ])
