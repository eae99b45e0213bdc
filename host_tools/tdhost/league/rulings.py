"""A player's request for a ruling by the league, recorded against the tournament (LPPL's
house rules: a player who does not agree with the TD's decision says so to the TD, "giving
reasons why, and that they wish the TD to get a ruling. This ruling will be provided by LPPL
either immediately (on the end of the phone) or if not available then before the next
scheduled LPPL event. However, play on the night will in no circumstances be held up nor
will any 'overruling' of the TD's decision affect the outcome of any event
retrospectively").  ``decide_ruling`` makes the ``ruling`` event (the TD's action
``ruling``: tdhost.actions); the tournament keeps them in ``rulings``, its results show them,
a push takes them to the league server, whose page lists them for the organiser
(docs/league.md, "Rulings the league gives").
"""

import datetime
from typing import Any, Sequence

from tdhost.league.refusal import ActionRefused
from tdhost.league.text import clean_name
from tdhost.league.times import clock_time, iso
from tdhost.league.tournament import Payload, Tournament

TEXT_MAX = 500  # characters of the TD's decision or the player's reasons


def _text(what: str, value: str) -> str:
    text = " ".join(value.split())
    if len(text) > TEXT_MAX:
        raise ActionRefused("%s is %d characters long: keep it to %d" % (
            what, len(text), TEXT_MAX))
    return text


def decide_ruling(tournament: Tournament, name: str, decision: str, reasons: str | None,
                  when: datetime.datetime) -> Payload:
    """The ``ruling`` event: player *name* of *tournament* disputes the TD's *decision*
    (with *reasons*) at *when* and asks for the league's ruling.  Play is not held up and
    nothing of the tournament changes (ActionRefused for a player not in it)."""
    entry = tournament.need(clean_name(name))
    return {"name": entry.name, "decision": _text("the decision", decision),
            "reasons": _text("the reasons", reasons or ""), "time": iso(when)}


def ruling_sentence(payload: Payload, league: str = "") -> str:
    """A recorded ``ruling``, as the TD reads it."""
    return ("%s asks %s for a ruling on the TD's decision \"%s\"%s (at %s): play goes on, "
            "the league gives its ruling before its next event, and tonight's results stand"
            % (payload["name"], league or "the league", payload["decision"],
               ", because %s" % payload["reasons"] if payload["reasons"] else "",
               clock_time(payload["time"])))


def rulings_lines(rulings: Sequence[Any], league: str = "") -> list[str]:
    """The rulings asked of the league in a tournament, one line each (for its results)."""
    return ["Ruling asked of %s at %s: %s disputes the TD's decision \"%s\"%s." % (
        league or "the league", clock_time(r["time"]), r["name"], r["decision"],
        " (%s)" % r["reasons"] if r["reasons"] else "") for r in rulings]
