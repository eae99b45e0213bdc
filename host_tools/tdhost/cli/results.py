"""What a night and a season come to: `tdhost results` (finishing order, points, prizes)
and `tdhost league` (the leaderboard), on screen and as CSV or JSON files.
docs/host.md §1 and §11.
"""

from typing import Any, Callable

import click

from tdhost.cli.league_access import read, tournament_of
from tdhost.cli.options import db_option, league_options, plain_option
from tdhost.cli.output import say, show_table, write_csv, write_json
from tdhost.league import rulings as _rulings
from tdhost.league.replay import League
from tdhost.league.text import ordinal
from tdhost.league.times import now
from tdhost.live import money_events as _livemoney
from tdhost.rules.points import points_text


@click.command("results")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the results to this CSV file.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the results to this JSON file.")
@league_options
@plain_option
def results(csv_file: str | None, json_file: str | None, db: str, number: int | None,
            plain: bool) -> None:
    """The tournament's finishing order and points (and prizes, when it has money)."""
    lg = read("results", db)
    tournament = tournament_of("results", lg, number)
    rows = tournament.results()
    fields = ["place", "name", "member", "entry", "points"]
    # a tournament with money: what each player won (docs/host.md §11)
    prize = _livemoney.prizes(tournament, int(now().timestamp() * 1000)) \
        if tournament.setup.get("money") else None
    if prize is not None:
        fields.append("prize")
    extra: Callable[[dict[str, Any]], list[Any]] = (
        (lambda row: [prize.get(row["name"], "")]) if prize is not None else (lambda row: []))
    if csv_file:
        write_csv("results", csv_file, fields, [
            [row["place"], row["name"], "yes" if row["member"] else "no", row["entry"],
             "" if row["points"] is None else row["points"]] + extra(row) for row in rows])
    status = ("final" if tournament.ended
              else "so far, %d players in" % len(tournament.remaining()))
    show_table(fields, [[row["place"], lg.identity(row["name"])[1],
                         _member_text(lg, row["name"], row["member"]), row["entry"],
                         points_text(row["points"]) if row["points"] is not None else ""]
                        + extra(row) for row in rows], plain,
               title="Results of tournament %d, %s (%s; %d entries)" % (
                   tournament.number, tournament.setup["name"], status,
                   tournament.entry_count()))
    for line in _rulings.rulings_lines(tournament.rulings, lg.name or ""):
        say(line)  # asked of the league: tonight's results stand (tdhost.league.rulings)
    if csv_file:
        say("Written to %s." % csv_file)
    if json_file:
        setup = tournament.setup
        write_json("results", json_file, {
            "league": lg.name, "tournament": tournament.number, "name": setup["name"],
            "date": setup["date"], "profile": setup["profile"],
            "finished": bool(tournament.ended), "entries": tournament.entry_count(),
            "results": [dict({"place": row["first"], "place_text": row["place"],
                              "name": lg.identity(row["name"])[1], "played_as": row["name"],
                              "member_no": _member_no(lg, row["name"]), "member": row["member"],
                              "entry": row["entry"], "points": row["points"]},
                             **({"prize": prize.get(row["name"])} if prize is not None
                                else {})) for row in rows],
            "rulings": [dict(r) for r in tournament.rulings]})


def _member_no(lg: League, name: str) -> str | None:
    """*name*'s league member number as the TD typed it (upper case), or None."""
    number = lg.number_of(name)
    return number.upper() if number else None


def _member_text(lg: League, name: str, member: bool) -> str:
    """The member column: the member number, else "yes" for a member."""
    return _member_no(lg, name) or ("yes" if member else "")


@click.command("league")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the leaderboard to this CSV file.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the leaderboard to this JSON file.")
@click.option("--members", is_flag=True, help="League members only.")
@db_option
@plain_option
def league(csv_file: str | None, json_file: str | None, members: bool, db: str,
           plain: bool) -> None:
    """The league leaderboard over every finished tournament."""
    lg = read("league", db)
    rows = lg.standings()
    if members:
        rows = [row for row in rows if row["member"]]
    fields = ["rank", "name", "member", "events", "wins", "best", "points"]
    if csv_file:
        write_csv("league", csv_file, fields, [
            [row["rank"], row["name"], "yes" if row["member"] else "no", row["events"],
             row["wins"], row["best"], points_text(row["points"])] for row in rows])
    done = lg.finished()
    show_table(fields, [[row["rank"], row["name"],
                         row["member_no"] or ("yes" if row["member"] else ""), row["events"],
                         row["wins"], ordinal(row["best"]),
                         points_text(row["points"])] for row in rows], plain,
               title="%s leaderboard after %d tournament%s" % (
                   lg.name or "League", len(done), "" if len(done) == 1 else "s"))
    if csv_file:
        say("Written to %s." % csv_file)
    if json_file:
        write_json("league", json_file, {
            "league": lg.name, "tournaments": len(done), "members_only": bool(members),
            "standings": [{key: row[key] for key in ("rank", "name", "member", "member_no",
                                                     "events", "wins", "best", "points")}
                          for row in rows]})


COMMANDS = (results, league)
