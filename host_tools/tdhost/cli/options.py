"""The options many commands share (one decorator each, so no option is written twice) and
the parsing of the values the TD types: seats (T.S), times (--at), NAME=VALUE lists.
docs/host.md §1.
"""

import datetime
from typing import Any, Callable, Sequence, TypeVar, overload

import click

from tdhost.actions import seat_of
from tdhost.cli.output import fail
from tdhost.league.refusal import ActionRefused
from tdhost.league.times import now, parse_when

Command = TypeVar("Command", bound=Callable[..., Any])


def db_option(command: Command) -> Command:
    """--db: the league file (also $TDHOST_DB)."""
    return click.option("--db", "db", default="league.sqlite", envvar="TDHOST_DB",
                        show_default=True, type=click.Path(dir_okay=False),
                        help="The league file (SQLite); also $TDHOST_DB.")(command)


def tournament_option(command: Command) -> Command:
    """--tournament/-t: the tournament's number (default: the latest)."""
    return click.option("--tournament", "-t", "number", type=int, default=None,
                        help="Tournament number (default: the latest).")(command)


def at_option(command: Command) -> Command:
    """--at: when it happened (default: now)."""
    return click.option("--at", "at", default=None, metavar="TIME",
                        help="When it happened: HH:MM[:SS] today or an ISO time "
                             "(default: now).")(command)


def plain_option(command: Command) -> Command:
    """--plain: tables as plain text."""
    return click.option("--plain", is_flag=True, envvar="TDHOST_PLAIN",
                        help="Plain text tables (also $TDHOST_PLAIN=1).")(command)


def yes_option(command: Command) -> Command:
    """--yes/-y: do not ask."""
    return click.option("--yes", "-y", "yes", is_flag=True,
                        help="Do not ask: take a short or misspelt name's one match, "
                             "record a plan's moves.")(command)


def league_options(command: Command) -> Command:
    """--db and --tournament: which league file and which of its tournaments."""
    return db_option(tournament_option(command))


def key_id_option(command: Command) -> Command:
    """--key-id: the event key's name."""
    return click.option("--key-id", default=None,
                        help="A name for the key (default: k- and 8 hex digits of its "
                             "SHA-256, as `tdhost pair`).")(command)


def mqtt_event_option(command: Command) -> Command:
    """--mqtt-event: the event's MQTT topic name."""
    return click.option("--mqtt-event", default=None, metavar="ID",
                        help="The event's MQTT topic name (default: the key id, as the boxes "
                             "use unless paired with another; docs/mqtt.md).")(command)


@overload
def seat_value(command: str, value: str) -> list[int]: ...
@overload
def seat_value(command: str, value: str | None) -> list[int] | None: ...
def seat_value(command: str, value: str | None) -> list[int] | None:
    """TABLE.SEAT (or T:S, T/S) as [table, seat] (tdhost.actions.seat_of); None stays
    None."""
    if value is None:
        return None
    try:
        return seat_of(value)  # the console's check (tdhost.actions)
    except ActionRefused as err:
        fail(command, str(err))


def when_value(command: str, at: str | None) -> datetime.datetime:
    """--at as a time (now without it)."""
    ref = now()
    if at is None:
        return ref
    try:
        when: datetime.datetime = parse_when(at, ref)
    except ActionRefused as err:
        fail(command, str(err))
    return when


def buttons_value(command: str, values: Sequence[str]) -> dict[int, int]:
    """--button T.S...: {table: seat of the button now}."""
    out = {}
    for value in values:
        table, seat = seat_value(command, value) or (0, 0)
        out[table] = seat
    return out


def pairs_value(command: str, names: Sequence[str], values: Sequence[str],
                what: str) -> dict[str, str]:
    """Values of a repeated option: NAME=VALUE anywhere, or one per NAME in order."""
    out = {}
    plain = [value for value in values if "=" not in value]
    if plain and len(plain) != len(values):
        fail(command, "give every %s as NAME=VALUE or none of them" % what)
    if plain:
        if len(plain) != len(names):
            fail(command, "%d players and %d %s: give one per player, in the same order, "
                          "or NAME=VALUE" % (len(names), len(plain), what))
        return dict(zip(names, plain))
    for value in values:
        name, _, text = value.partition("=")
        out[name.strip()] = text.strip()
    return out
