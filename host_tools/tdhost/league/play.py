"""The TD's decisions on the night's course: "shuffle up and deal" (who is absent, who
replaces them) and a level's start.  Each returns the payload of the event that records
it, or raises ActionRefused (docs/host.md §4.2)."""

import datetime
from typing import Iterable

from tableclock.levels import parse_levels
from tdhost.league.refusal import ActionRefused
from tdhost.league.text import names_text, seat_text
from tdhost.league.times import iso
from tdhost.league.tournament import Payload, Tournament


def decide_start(tournament: Tournament, when: datetime.datetime, awol: Iterable[str],
                 away: Iterable[str]) -> tuple[Payload, list[str]]:
    tournament.refuse_if_finished()
    if tournament.started:
        raise ActionRefused("the tournament started at %s already" % tournament.started.strftime(
            "%H:%M:%S"))
    if not tournament.draw:
        raise ActionRefused("draw the seats first (`tdhost draw`)")
    reg = tournament.entries("registered")
    unseated = [entry.name for entry in reg if not entry.seat]
    if unseated:
        raise ActionRefused("%s %s no seat: `tdhost draw --again`" % (
            names_text(unseated), "has" if len(unseated) == 1 else "have"))
    awol = [tournament.need(n, ("registered",)).name for n in awol]
    away = [tournament.need(n, ("registered",)).name for n in away]
    both = set(awol) & set(away)
    if both:
        raise ActionRefused("%s cannot be both absent (AWOL) and away" % names_text(sorted(both)))
    if len(set(awol)) != len(awol) or len(set(away)) != len(away):
        raise ActionRefused("a player is named twice")
    late = tournament.setup["late"]
    replaced, notes = [], []
    cap = tournament.setup["max_players"]
    full = cap is not None and tournament.field_size() >= cap
    if late["standby_replaces_absent"] and full and tournament.standby:
        for absent, standby_key in zip(awol, list(tournament.standby)):
            standby = tournament.players[standby_key].name
            replaced.append([absent, standby])
            notes.append("%s takes %s's seat (%s) with %d chips; %s goes on the standby "
                         "list in %s's place" % (standby, absent, seat_text(
                             tournament.need(absent).seat or ()),
                             tournament.setup["starting_stack"], absent, standby))
    gone = {absent for absent, _ in replaced}
    still_awol = [absent for absent in awol if absent not in gone]
    for absent in still_awol:
        if late["absent_deductions"] and tournament.deductions():
            chips = tournament.deductions()
            notes.append("%s is not seated: blinds are posted when due; %d chips are "
                         "removed after %d minutes%s" % (
                             absent, chips[0], late["grace_minutes"],
                             " and %d more when level 2 starts" % chips[1] if len(chips) > 1
                             else ""))
        else:
            notes.append("%s is not seated: blinds are posted when due" % absent)
    for absent in away:
        notes.append("%s is away (whereabouts known): blinds are posted when due, no "
                     "chips are removed" % absent)
    started = len(reg) - len(still_awol)
    return {"time": iso(when), "awol": still_awol, "away": away, "replaced": replaced,
            "started_on_time": started}, notes



def decide_level(tournament: Tournament, level: int, when: datetime.datetime) -> Payload:
    tournament.start_time()
    numbers = [entry[4] for entry in parse_levels(tournament.setup["levels"]) if entry[4]]
    if level not in numbers:
        raise ActionRefused("there is no level %d (levels 1 to %d)" % (level, numbers[-1]))
    if tournament.anchors and tournament.anchors[-1][0] == level:
        raise ActionRefused("level %d was already set to start at %s" % (
            level, tournament.anchors[-1][1].strftime("%H:%M:%S")))
    tournament.refuse_if_before_start(when)
    return {"level": level, "time": iso(when)}
