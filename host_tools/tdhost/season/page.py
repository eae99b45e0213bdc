"""The league's page (`tdhost season serve`): the season's standings straight from the league
server, for the whole league, an area or a venue, as a printable HTML page in the big
screen's style (tdhost/web/static/style.css) and as CSV (every text cell made safe for a
spreadsheet: tdhost.safetext.csv_cell).  Each request reads the league in one read-only
transaction with the login given to the command.  docs/league.md, "The league's page".
"""

import csv
import io
from html import escape
from typing import Any
from urllib.parse import quote

import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tdhost.rules.points import points_text
from tdhost.safetext import csv_cell
from tdhost.season import schema, standings as _standings
from tdhost.season.connection import SeasonError, connect, failed
from tdhost.web.app import STATIC

FIELDS = ("rank", "name", "member", "events", "wins", "best", "points")
_STYLE = """
body.league { padding: 1.5em; font-size: 16px; }
body.league nav a { color: var(--accent); margin-right: 0.8em; }
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
            return {"league": schema.league_name(db), "venues": venues, "rows": rows}
    except psycopg.Error as err:
        raise SeasonError(failed(err, "look-up"))
    finally:
        db.close()


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
            '<tbody>%s</tbody></table>%s</body></html>' % (
                _e(title), _STYLE, " ".join(nav), _e(title), _e(csv_url), body,
                "" if got["rows"] else '<p class="hint">No finished tournament yet.</p>'))


def _csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(FIELDS)
    writer.writerows([csv_cell(r[f] if r[f] is not None else "") for f in FIELDS]
                     for r in rows)
    return out.getvalue()


def make_app(conninfo: str) -> Starlette:
    """The league's page on the league server *conninfo* (a login that may read the league)."""

    def page(request: Request) -> Response:
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
                                     else 503)
        if as_csv:
            name = "%s standings.csv" % (where or got["league"] or "league")
            return PlainTextResponse(_csv(got["rows"]), media_type="text/csv", headers={
                "Content-Disposition": "attachment; filename=\"%s\"" % name.replace('"', "")})
        title = {"league": "Standings of %s" % got["league"], "area": "Standings of area %s"
                 % where, "venue": "Standings of %s" % where}[scope]
        csv_url = "/league.csv" if scope == "league" else "/%s/%s.csv" % (scope, quote(where))
        return HTMLResponse(_html(got, title, csv_url))

    return Starlette(routes=[
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/", page), Route("/league.csv", page),
        Route("/{scope:str}/{where:str}", page),
    ])
