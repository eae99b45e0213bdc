"""Before the cards are in the air: `tdhost new` (a tournament from its file), `register`,
`unregister` (a registration made in error), `standby` (the list and its seat offers),
`lock` and `unlock` (a seat fixed before the draw).  Players from a CSV file:
tdhost.cli.csvimport.  docs/host.md §1-§2.
"""

import datetime
import os

import click

from tdhost import tournamentfile
from tdhost.actions import (
    ANOTHER_PLAYER,
    standby_pass_sentence,
    standby_take_sentence,
    unregister_sentence,
)
from tdhost.cli.league_access import read, tournament_of, write
from tdhost.cli.names import ask, declined, resolve_all
from tdhost.cli.options import (
    at_option,
    db_option,
    league_options,
    plain_option,
    seat_value,
    when_value,
    yes_option,
)
from tdhost.cli.output import echo_lines, fail, say, show_table
from tdhost.league import pulled as _pulled
from tdhost.league.entries import (
    decide_registers,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
    decide_unregister,
)
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import decide_lock, decide_unlock
from tdhost.league.text import player_key, quote_name, seat_text
from tdhost.league.times import now
from tdhost.league.transaction import Decision
from tdhost.rules import draw as _draw


def _toml_of(lg: League, number: int) -> str | None:
    for event in lg.events:
        if event.action == "new" and event.tournament == number:
            return event.payload.get("toml")
    return None


@click.command("new")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--again", is_flag=True,
              help="Set up another tournament from the same file even if the last one "
                   "from it has not started.")
@db_option
def new(file: str, again: bool, db: str) -> None:
    """Set up a tournament from FILE (TOML) in the league file (created if missing)."""
    try:
        setup, text = tournamentfile.load(file)
    except tournamentfile.FileError as err:
        fail("new", str(err))

    def decide(lg: League, seq: int) -> Decision:
        if lg.name is not None and lg.name != setup["league"]:
            raise ActionRefused("%s is the league file of %r; %s is for %r" % (
                db, lg.name, file, setup["league"]))
        last = lg.tournaments[max(lg.tournaments)] if lg.tournaments else None
        if last is not None and not again and last.started is None and not last.players \
                and _toml_of(lg, last.number) == text:
            raise ActionRefused("tournament %d was set up from this file a moment ago and "
                                "nothing has happened in it yet: use it (`tdhost new --again` "
                                "makes another)" % last.number)
        number = max(lg.tournaments, default=0) + 1
        payload = {"setup": setup, "file": os.path.basename(file), "toml": text}
        return [(number, "new", payload, None)], number

    _, number = write("new", db, decide, create=True)
    late = setup["late"]
    lines = ["Tournament %d of %s: %s (%s, profile %s)." % (
        number, setup["league"], setup["name"], setup["date"] or "no date", setup["profile"])]
    cap = ("up to %d players" % setup["max_players"] if setup["max_players"]
           else "no player cap")
    if setup["standby"]:
        cap += " and %d on standby" % setup["standby"]
    lines.append("%d seats per table, %s, %d chips%s." % (
        setup["seats_per_table"], cap, setup["starting_stack"],
        " (deepstack)" if setup["deepstack"] else ""))
    if late["until_level"]:
        lines.append("Late entry before level %d%s%s." % (
            late["until_level"], ", with at least %d players" % late["min_players"]
            if late["min_players"] else "",
            "; deductions %s" % "/".join(map(str, late["deductions"]))
            if late["deductions"] else ""))
    else:
        lines.append("No late entry.")
    lines.append("League file: %s." % db)
    if os.environ.get("TDHOST_DB") != db:
        lines.append("The next commands use it with --db %s, or once for all: "
                     "`export TDHOST_DB=%s` (Windows: `set TDHOST_DB=%s`)." % (
                         quote_name(db), quote_name(db), quote_name(db)))
    echo_lines(lines)


@click.command("register")
@click.argument("names", nargs=-1, required=True)
@click.option("--member", is_flag=True, help="League member (kept for later events).")
@click.option("--member-no", "member_no", metavar="NUMBER", default=None,
              help="The member number of the one NAME (as on the member's card): their "
                   "identity in the league, checked as the CSV import checks it.")
@click.option("--allow-duplicate", "allow", metavar="NAME", multiple=True,
              help="Register NAME although it may be a player already in (the same but "
                   "for accents, a close spelling).")
@league_options
def register(names: tuple[str, ...], member: bool, member_no: str | None,
             allow: tuple[str, ...], db: str, number: int | None) -> None:
    """Register players (NAME...); past the cap they go on the standby list.  A name that
    may be a player already in (the same but for accents, a close spelling) is refused
    until --allow-duplicate NAME says it is another player; a member number already
    another player's is refused."""
    known = _pulled.members(db)  # the league's members, as last pulled (docs/league.md)
    allowed = {player_key(name) for name in allow}

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        done = decide_registers(tournament, lg, list(names), member, member_no, allowed,
                                known, now(), seq, ANOTHER_PLAYER["cli"])
        return [(tournament.number, "register", payload, None) for payload, _ in done], \
            [msg for _, msg in done]

    _, out = write("register", db, decide)
    spelled = [_pulled.spelling_note(known, typed) for typed in names]
    echo_lines(out + [note for note in spelled if note])


@click.command("standby")
@click.argument("name", required=False)
@click.option("--member", is_flag=True, help="With NAME: a league member.")
@click.option("--take", metavar="NAME", default=None,
              help="NAME takes the seat offered to them.")
@click.option("--pass", "pass_", metavar="NAME", default=None,
              help="NAME is not available: offer the seat to the next standby player.")
@click.option("--seat", default=None, metavar="T.S",
              help="With --take: the seat the TD directs (default: the freed seat).")
@at_option
@league_options
@plain_option
@yes_option
def standby(name: str | None, member: bool, take: str | None, pass_: str | None,
            seat: str | None, at: str | None, db: str, number: int | None, plain: bool,
            yes: bool) -> None:
    """Show the standby list and seat offers; NAME adds a player to the list."""
    command = "standby"
    if sum(x is not None for x in (name, take, pass_)) > 1:
        fail(command, "give one of NAME, --take NAME and --pass NAME")
    directed = seat_value(command, seat)
    if take is not None:
        take = resolve_all(command, db, number, [take], ("standby",), yes)[0]
    if pass_ is not None:
        pass_ = resolve_all(command, db, number, [pass_], ("standby",), yes)[0]
    if directed and not take:
        fail(command, "--seat goes with --take NAME")
    when = when_value(command, at)
    if name is not None:
        _standby_add(name, member, db, number)
    elif take is not None:
        _standby_take(take, when, directed, db, number)
    elif pass_ is not None:
        _standby_pass(pass_, db, number)
    else:
        _standby_list(db, number, plain)


def _standby_add(name: str, member: bool, db: str, number: int | None) -> None:
    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload, msg = decide_standby_add(tournament, name, member, lg)
        return [(tournament.number, "register", payload, None)], [msg]
    _, out = write("standby", db, decide)
    echo_lines(out)


def _standby_take(take: str, when: datetime.datetime, seat: list[int] | None, db: str,
                  number: int | None) -> None:
    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_standby_take(tournament, take, when, seat)
        return [(tournament.number, "standby_take", payload, None)], payload
    _, payload = write("standby", db, decide)
    echo_lines([standby_take_sentence(payload)] + payload["reasons"])


def _standby_pass(pass_: str, db: str, number: int | None) -> None:
    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_standby_pass(tournament, pass_)
        return [(tournament.number, "standby_pass", payload, None)], payload
    lg, payload = write("standby", db, decide)
    tournament = lg.current(number)
    following = [key for offer, key in tournament.offer_pairs()
                 if offer["seat"] == payload["offer"]]
    echo_lines([standby_pass_sentence(payload),
                "The seat is offered to %s." % tournament.players[following[0]].name
                if following and following[0]
                else "No other standby player is left for the seat."])


def _standby_list(db: str, number: int | None, plain: bool) -> None:
    tournament = tournament_of("standby", read("standby", db), number)
    players = tournament.players
    offers = {key: offer for offer, key in tournament.offer_pairs() if key}
    rows = [[i, players[key].name, "member" if players[key].member else "",
             "offered %s" % seat_text(offers[key]["seat"]) if key in offers else ""]
            for i, key in enumerate(tournament.standby, 1)]
    show_table(["#", "standby", "member", "offer"], rows, plain,
               title="Standby list, tournament %d (%d of %d)" % (
                   tournament.number, len(tournament.standby), tournament.setup["standby"]))
    for offer, key in tournament.offer_pairs():
        if key is None:
            say("%s (freed by %s): no standby player left to offer it to."
                % (seat_text(offer["seat"]).capitalize(), offer["freed_by"]))


@click.command("lock")
@click.argument("name")
@click.option("--table", type=click.IntRange(1), required=True,
              help="The table (at most the tables max_players fills).")
@click.option("--seat", type=int, required=True, help="The seat at that table.")
@click.option("--reason", default="TD", show_default=True, help="Why, e.g. accessibility.")
@league_options
@yes_option
def lock(name: str, table: int, seat: int, reason: str, db: str, number: int | None,
         yes: bool) -> None:
    """Lock a registered player's seat for the draw (accessibility, the TD).

    The table must be one the tournament can have (max_players); one the players
    registered now do not fill yet is accepted with a warning."""
    name = resolve_all("lock", db, number, [name], ("registered",), yes,
                       lambda tournament, found: decide_lock(
                           tournament, found[0], table, seat, reason))[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_lock(tournament, name, table, seat, reason)
        return [(tournament.number, "lock", payload, None)], payload
    lg, payload = write("lock", db, decide)
    say("%s is locked to table %d seat %d (%s)." % (
        payload["name"], payload["table"], payload["seat"], payload["reason"]))
    tournament = lg.current(number)
    seats_per_table = tournament.setup["seats_per_table"]
    players = len(tournament.entries("registered"))
    tables = _draw.table_count(players, seats_per_table)
    if payload["table"] > tables:
        say("Table %d is not in the draw yet: %d registered player%s fill %d table%s; "
            "it is drawn from %d players on (the draw refuses the lock until then)."
            % (payload["table"], players, "" if players == 1 else "s", tables,
               "" if tables == 1 else "s", (payload["table"] - 1) * seats_per_table + 1))


@click.command("unlock")
@click.argument("name")
@league_options
@yes_option
def unlock(name: str, db: str, number: int | None, yes: bool) -> None:
    """Take back NAME's seat lock (before the start; draw again to use it)."""
    name = resolve_all("unlock", db, number, [name], ("registered",), yes,
                       lambda tournament, found: decide_unlock(tournament, found[0]))[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_unlock(tournament, name)
        return [(tournament.number, "unlock", payload, None)], payload
    _, payload = write("unlock", db, decide)
    say("%s is no longer locked to table %d seat %d: the draw seats them at random."
        % (payload["name"], payload["table"], payload["seat"]))


@click.command("unregister")
@click.argument("name")
@league_options
@yes_option
def unregister(name: str, db: str, number: int | None, yes: bool) -> None:
    """Take back NAME's registration made in error (registered, on the standby list, or
    never seated after the start); asks first, `tdhost undo` registers them again."""
    name = resolve_all("unregister", db, number, [name], ("registered", "standby", "in"), yes,
                       lambda tournament, found: decide_unregister(tournament, found[0]))[0]
    if not ask("Unregister %s?" % name, yes):
        declined("unregister")

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_unregister(tournament, name)
        return [(tournament.number, "unregister", payload, None)], payload
    _, payload = write("unregister", db, decide)
    say(unregister_sentence(payload) + ".")


COMMANDS = (new, register, unregister, standby, lock, unlock)
