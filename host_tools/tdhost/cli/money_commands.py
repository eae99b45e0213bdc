"""Money at the command line (docs/host.md §11): `tdhost rebuy`, `addon`, `knockout` and
`payouts`, each a ``money`` event decided by tdhost.league.money_decisions.decide_money -- the
console's decision and sentences (tdhost.actions declares them for both paths).  `tdhost
undo` takes one back; a free tournament refuses them all.
"""

from typing import Any, Sequence

import click

from tdhost.cli.league_access import write
from tdhost.cli.names import resolve_all
from tdhost.cli.options import at_option, league_options, when_value, yes_option
from tdhost.cli.output import say
from tdhost.league.money_decisions import decide_money, money_sentence
from tdhost.league.replay import League
from tdhost.league.transaction import Decision


def _record(command: str, kind: str, args: dict[str, Any], at: str | None, db: str,
            number: int | None) -> None:
    when = when_value(command, at)

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_money(tournament, kind, args, when)
        return [(tournament.number, "money", payload, None)], payload
    _, payload = write(command, db, decide)
    say("%s." % money_sentence(payload))


def _player(command: str, db: str, number: int | None, name: str, states: Sequence[str],
            yes: bool) -> str:
    return resolve_all(command, db, number, [name], states, yes)[0]


@click.command("rebuy")
@click.argument("name")
@at_option
@league_options
@yes_option
def rebuy(name: str, at: str | None, db: str, number: int | None, yes: bool) -> None:
    """NAME re-buys ([money.rebuy]: its price, chips, levels and limit a player)."""
    _record("rebuy", "rebuy", {"name": _player("rebuy", db, number, name, ("in",), yes)},
            at, db, number)


@click.command("addon")
@click.argument("name")
@at_option
@league_options
@yes_option
def addon(name: str, at: str | None, db: str, number: int | None, yes: bool) -> None:
    """NAME takes the add-on ([money.addon]: once a player, in its levels)."""
    _record("addon", "addon", {"name": _player("addon", db, number, name, ("in",), yes)},
            at, db, number)


@click.command("knockout")
@click.argument("name")
@click.option("--by", "by", required=True, metavar="NAME",
              help="Who knocked NAME out: the bounty on NAME goes to them.")
@at_option
@league_options
@yes_option
def knockout(name: str, by: str, at: str | None, db: str, number: int | None,
             yes: bool) -> None:
    """The bounty on NAME (out already: `tdhost bust` first) goes to --by."""
    victim = _player("knockout", db, number, name, ("out",), yes)
    winner = _player("knockout", db, number, by, ("in", "out"), yes)
    _record("knockout", "knockout", {"name": victim, "by": winner}, at, db, number)


@click.command("payouts")
@click.argument("places", nargs=-1, required=True, type=float, metavar="PERCENT...")
@at_option
@league_options
def payouts(places: tuple[float, ...], at: str | None, db: str, number: int | None) -> None:
    """Tonight's payouts, in percent for 1st, 2nd, ... (e.g. 60 40): instead of the
    file's table."""
    _record("payouts", "payouts", {"places": [int(x) if x == int(x) else x for x in places]},
            at, db, number)


COMMANDS = (rebuy, addon, knockout, payouts)
