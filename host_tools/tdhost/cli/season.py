"""`tdhost season`: the league across venues on a PostgreSQL league server.  The organiser
sets it up (`init`, `add-venue`, `revoke-venue`); a venue `push`es its league file and
`pull`s the league's members and standings into it; `standings` shows them offline
(without psycopg too),
`history` and `clashes` ask the server.  (`tdhost league` stays the venue's own
leaderboard.)  Needs the optional extra `tableclock-host[league]` (psycopg).
docs/league.md.
"""

import importlib.util
from typing import Any, Callable

import click

from tdhost.cli.options import db_option, plain_option, yes_option
from tdhost.cli.output import fail, say, show_table
from tdhost.league import pulled as _pulled
from tdhost.league.store import StoreError
from tdhost.rules.points import points_text

INSTALL = ("the league server needs psycopg, which is not installed: install it with "
           "`pip install 'tableclock-host[league]'` (or `pip install 'psycopg[binary]'`)")


def server_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--server: the league server's connection string (also $TDHOST_SEASON)."""
    return click.option("--server", "server", default="", envvar="TDHOST_SEASON",
                        metavar="URL", help="The league server: a postgresql:// URL or "
                        "key=value string with the login (also $TDHOST_SEASON).")(command)


def _need_driver(command: str) -> None:
    if importlib.util.find_spec("psycopg") is None:
        fail("season " + command, INSTALL)


@click.group("season")
def season() -> None:
    """The league across venues (a PostgreSQL league server; docs/league.md)."""


@season.command("init")
@click.argument("server", metavar="URL")
@click.option("--name", default=None, help="The league's name (as in its tournament files).")
def init(server: str, name: str | None) -> None:
    """Set up the league's schema on the server URL (an organiser's login), or migrate it."""
    _need_driver("init")
    from tdhost.season import connection as _server, schema
    try:
        db = _server.connect(server, "set-up")
        try:
            before, after = schema.init(db, name)
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season init", str(err))
    if before == 0:
        say("The league %s is set up (schema version %d); add its venues with `tdhost "
            "season add-venue NAME --area AREA`." % (name, after))
    elif before < after:
        say("The league's schema is migrated from version %d to %d." % (before, after))
    else:
        say("The league's schema is up to date (version %d)." % after)


@season.command("add-venue")
@click.argument("name")
@click.option("--area", required=True, help="The venue's area (for the area standings).")
@server_option
def add_venue(name: str, area: str, server: str) -> None:
    """Add venue NAME with a login of its own (--server: an organiser's login)."""
    _need_driver("add-venue")
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from tdhost.season import connection as _server, schema
    try:
        db = _server.connect(server, "set-up")
        try:
            role, password = schema.add_venue(db, name, area)
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season add-venue", str(err))
    keep = {k: str(v) for k, v in conninfo_to_dict(server).items()
            if k in ("host", "hostaddr", "port", "dbname", "sslmode") and v is not None}
    say("Venue %s is added in area %s. Its connection string, shown this once (give it to its"
        " TD, who sets TDHOST_SEASON to it):" % (" ".join(name.split()), area))
    say(make_conninfo("", **keep, user=role, password=password))


@season.command("revoke-venue")
@click.argument("name")
@server_option
def revoke_venue(name: str, server: str) -> None:
    """Take venue NAME's login away (what it pushed stays in the season)."""
    _need_driver("revoke-venue")
    from tdhost.season import connection as _server, schema
    try:
        db = _server.connect(server, "set-up")
        try:
            closed = schema.revoke_venue(db, name)
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season revoke-venue", str(err))
    say("Venue %s can no longer log in (%d open session%s closed); its tournaments stay in the"
        " season." % (name, closed, "" if closed == 1 else "s"))


@season.command("push")
@db_option
@server_option
def push(db: str, server: str) -> None:
    """Send the league file's events since the last push to the league server."""
    _need_driver("push")
    from tdhost.season import connection as _server, push as _push
    try:
        done = _push.push(db, server)
    except _server.SeasonError as err:
        fail("season push", str(err))
    say(done.sentence)
    for text in done.notices:
        say("The league tells this venue: %s" % text)


@season.command("pull")
@db_option
@server_option
def pull(db: str, server: str) -> None:
    """Bring the league's members and standings into the league file (for offline)."""
    _need_driver("pull")
    from tdhost.season import connection as _server, pull as _pull
    try:
        say(_pull.pull(db, server))
    except _server.SeasonError as err:
        fail("season pull", str(err))


@season.command("standings")
@click.option("--scope", type=click.Choice(["league", "area", "venue"]), default="area",
              show_default=True, help="The whole league, the venue's area, or the venue.")
@db_option
@plain_option
def standings(scope: str, db: str, plain: bool) -> None:
    """The league's standings as last pulled into the league file (offline)."""
    try:
        info, rows = _pulled.standings(db)
    except StoreError as err:
        fail("season standings", str(err))
    if not info:
        fail("season standings", "%s holds no league standings yet: `tdhost season pull` "
             "brings them from the league server" % db)
    where = {"league": info["league"], "area": "area " + info["area"],
             "venue": info["venue"]}[scope]
    show_table(["rank", "name", "member", "events", "wins", "best", "points"],
               [[r["rank"], r["name"], "#%d" % r["member"] if r["member"] else "", r["events"],
                 r["wins"], r["best"] or "", points_text(r["points"])] for r in rows[scope]], plain,
               title="Standings of %s (pulled %s)" % (where, info["at"]))


@season.command("history")
@click.argument("member")
@server_option
@plain_option
def history(member: str, server: str, plain: bool) -> None:
    """MEMBER's tournaments across the league's venues (the league's number, #12, a venue's
    member number, M1042, or a name)."""
    _need_driver("history")
    from tdhost.season import connection as _server, standings as _standings
    try:
        db = _server.connect(server, "look-up")
        try:
            found = _standings.find_member(db, member)
            rows = _standings.history(db, found[0]) if found else []
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season history", str(err))
    if found is None:
        fail("season history", "the league has no member %s" % member)
    show_table(["date", "venue", "tournament", "place", "points", "entries"],
               [[r["date"], r["venue"], r["tournament"], r["place"],
                 "" if r["points"] is None else points_text(r["points"]), r["entries"]]
                for r in rows], plain, title="Member #%d %s" % found)


@season.command("clashes")
@server_option
@plain_option
def clashes(server: str, plain: bool) -> None:
    """Members registered at two venues on the same night (LPPL ¶72)."""
    _need_driver("clashes")
    from tdhost.season import connection as _server, notices as _notices
    try:
        db = _server.connect(server, "look-up")
        try:
            rows = _notices.clashes(db)
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season clashes", str(err))
    if not rows:
        say("No member is registered at two venues on one night.")
        return
    show_table(["date", "member", "name", "venue", "registered", "out", "place"],
               [[r["date"], "#%d" % r["member"], r["name"], s["venue"], s["registered"],
                 s["out"] or "", s["place"]] for r in rows for s in r["venues"]], plain,
               title="Members registered at two venues on one night")


@season.command("serve")
@server_option
@click.option("--listen", default="127.0.0.1", show_default=True,
              help="The page's address (0.0.0.0: the whole network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8100, show_default=True,
              help="The page's port.")
@click.option("--token", default=None, envvar="TDHOST_SEASON_TOKEN",
              help="The organiser's token the page asks for (default: a new random one, "
                   "printed; also $TDHOST_SEASON_TOKEN).")
def serve(server: str, listen: str, port: int, token: str | None) -> None:
    """The league's page for the organiser (behind a token): standings per league, area and
    venue, printable and as CSV, members at two venues on one night, member numbers given
    to two names, rulings asked of the league."""
    _need_driver("serve")
    import uvicorn

    from tdhost.season import page as _page
    if not server:
        fail("season serve", "no league server given: pass --server with a login that may"
                             " read the league or set TDHOST_SEASON")
    token = token or _page.new_token()
    try:
        app = _page.make_app(server, token)
    except ValueError as err:
        fail("season serve", str(err))
    say("The league's page: http://%s:%d/?token=%s (Ctrl-C stops)." % (listen, port, token))
    say("Organiser's token: %s" % token)
    uvicorn.run(app, host=listen, port=port, log_level="warning")


@season.command("answer-ruling")
@click.argument("venue")
@click.argument("number", type=click.IntRange(1, None), metavar="NO.")
@click.argument("text")
@server_option
def answer_ruling(venue: str, number: int, text: str, server: str) -> None:
    """The league's ruling TEXT on the ruling VENUE's player asked for (NO.: its number on
    the league's page); the venue's TD reads it with the next pull (an organiser's login)."""
    _need_driver("answer-ruling")
    from tdhost.season import connection as _server, notices as _notices
    try:
        db = _server.connect(server, "answer")
        try:
            say(_notices.answer(db, venue, number, text))
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season answer-ruling", str(err))


@season.command("merge-members")
@click.argument("keep", metavar="KEPT")
@click.argument("drop", metavar="MERGED")
@server_option
@yes_option
def merge_members(keep: str, drop: str, server: str, yes: bool) -> None:
    """Merge member MERGED into member KEPT (one person with two records; each a number or a
    name): MERGED's entries count for KEPT, and an audit row records it (an organiser's
    login)."""
    _need_driver("merge-members")
    from tdhost.season import connection as _server, members as _members, standings as _standings
    try:
        db = _server.connect(server, "merge")
        try:
            if not yes:
                kept, merged = (_standings.find_member(db, keep),
                                _standings.find_member(db, drop))
                if kept and merged and not click.confirm(
                        "Merge #%d %s into #%d %s? It cannot be undone from here."
                        % (merged + kept)):
                    fail("season merge-members", "nothing was merged")
            say(_members.merge(db, keep, drop))
        finally:
            db.close()
    except _server.SeasonError as err:
        fail("season merge-members", str(err))


COMMANDS = (season,)
