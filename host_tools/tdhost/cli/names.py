"""The question that confirms which player a TD means by a name typed short or misspelt
(docs/host.md, "Names"; the rule itself is ``tdhost.league.text.match``, which the console
shares)."""

from typing import Callable, NoReturn, Sequence

import click

from tdhost.cli.league_access import read, tournament_of
from tdhost.cli.output import fail, say
from tdhost.league.refusal import ActionRefused
from tdhost.league.text import match, names_text
from tdhost.league.tournament import Tournament
from tdhost.safetext import printable


def ask(question: str, yes: bool) -> bool:
    """True when the TD says yes (or gave --yes); no answer (end of input) is a no."""
    if yes:
        return True
    try:
        return click.confirm(printable(question), default=False, err=True)
    except click.Abort:
        say("", err=True)  # no answer: end the question's line
        return False


def declined(command: str) -> NoReturn:
    """The TD said no: nothing recorded, exit code 1."""
    say("tdhost %s: nothing recorded." % command, err=True)
    click.get_current_context().exit(1)


def resolve(command: str, tournament: Tournament, typed: str,
            states: Sequence[str]) -> tuple[str, str | None]:
    """(name, question or None): the player the name *typed* means in *tournament*: the
    exact name as is; the one player with it as a whole word or whose name (or a word of
    it) starts with it, or the one close spelling, with the question that confirms it;
    several: refused, listing them.  Players in *states* are looked at first, then
    everyone.  No candidate: *typed* (the decision refuses it)."""
    players = tournament.players.values()
    pool = [entry.name for entry in players if entry.state in states]
    how, found = match(typed, pool)
    if how is None:
        how, found = match(typed, [entry.name for entry in players])
    if how is None or how == "exact":
        return (found[0] if found else typed), None
    if len(found) > 1:
        fail(command, "%s could be %s: type more of the name" % (
            typed, names_text(found)))
    return found[0], "%s: %s %s?" % (typed, "do you mean" if how == "prefix"
                                     else "no such name; do you mean", found[0])


def resolve_all(command: str, db: str, number: int | None, typed: Sequence[str],
                states: Sequence[str], yes: bool,
                check: Callable[[Tournament, list[str]], object] | None = None) -> list[str]:
    """The full names of *typed* (``resolve``).  Before asking about any of them, each
    must be in *states* and ``check(tournament, names)`` must not refuse: a command that
    will be refused anyway is refused at once."""
    tournament = tournament_of(command, read(command, db), number)
    found = [resolve(command, tournament, name, states) for name in typed]
    names = [name for name, _ in found]
    try:
        for name, question in found:
            if question is not None:
                tournament.need(name, states)
        if check is not None:
            check(tournament, names)
    except ActionRefused as err:
        fail(command, "refused: %s" % err)
    for _, question in found:
        if question is not None and not ask(question, yes):
            declined(command)
    return names
