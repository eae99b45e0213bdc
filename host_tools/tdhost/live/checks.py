"""The console's look before it asks: which players the names typed in the bust box mean,
and whether the host would take a bust or a level jump, decided as the action decides it
but never written (``Live.check``; docs/web.md §4).  The console shows its "Are you sure?"
only for what passes, with the names resolved to one player each.
"""

import copy
import datetime
from typing import Any, Dict, List, Tuple

from tdhost.actions import ACTIONS
from tdhost.league import pulled as _pulled
from tdhost.league.busts import decide_bust
from tdhost.league.entries import decide_reenter, decide_registers
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import decide_draw
from tdhost.league.text import (
    match,  # the rule for a short or misspelt name
    names_text,
    player_key,
)
from tdhost.league.tournament import Tournament
from tdhost.live import master_clock as _clock

CHECKED = ("bust", "level", "register", "reenter", "final_draw")


def who(tournament: Tournament, typed: str) -> str:
    """The one player in play that *typed* means (the whole name, a whole word of it, or
    the start of one); ActionRefused naming the candidates when it is not one."""
    playing = [entry.name for entry in tournament.players.values() if entry.state == "in"]
    how, found = match(typed, playing)
    if how in ("exact", "prefix") and len(found) == 1:
        return found[0]
    shown = " ".join(str(typed).split())[:40]
    if how == "prefix":
        raise ActionRefused("%s could be %s: type more of the name" % (
            shown, names_text(found)))
    if how == "close":
        raise ActionRefused("nobody called %s is playing; do you mean %s?" % (
            shown, names_text(found)))
    raise ActionRefused("nobody called %s is playing" % shown)


def check(lg: League, tournament: Tournament, now: int, when: datetime.datetime,
          action: str, args: Dict[str, Any], path: str = "") -> Dict[str, Any]:
    """{"ok": True, "names": [...]} (the full names, for a bust; for a registration
    "doubts": the names that may be players already in, [{"name", "why"}]; a level, a
    re-entry or the final-table draw: "ok" only) when the host would take *action* with
    *args* at *now* (Unix ms; *when* the same as a datetime; *path* the league file, for
    its members as last pulled); ActionRefused with its sentence otherwise.  Writes
    nothing."""
    if action not in CHECKED:
        raise ActionRefused("only %s and %s can be checked" % (", ".join(CHECKED[:-1]),
                                                               CHECKED[-1]))
    if action == "register":
        return {"ok": True, "doubts": register_doubts(lg, tournament, when, args, path)}
    if action == "final_draw":  # how many remain, drawn already (the seed: any, unwritten)
        decide_draw(tournament, ACTIONS["final_draw"].check(args)["seed"] or 0, False, False,
                    True)
        return {"ok": True}
    if action == "reenter":  # the file's [reentry]: how many, until when (never written)
        decide_reenter(tournament, ACTIONS["reenter"].check(args)["name"], when, 0)
        return {"ok": True}
    if action == "level":
        _clock.decide(tournament, "level", args.get("level"), now, when)
        return {"ok": True}
    typed = args.get("names")
    if not isinstance(typed, list) or not typed or not all(isinstance(n, str) for n in typed):
        raise ActionRefused("type the name of the player who is out")
    names: List[str] = [who(tournament, n) for n in typed]
    chips = args.get("chips")
    chip_map = dict(zip(names, chips)) if isinstance(chips, list) \
        and len(chips) == len(names) and all(isinstance(c, int) for c in chips) else {}
    if chips is not None and not chip_map:
        raise ActionRefused("give the chips once for each player, as whole numbers, "
                            "in the same order")
    decide_bust(tournament, list(names), chip_map, None, None, when, lg)
    return {"ok": True, "names": names}


def register_doubts(lg: League, tournament: Tournament, when: datetime.datetime,
                    args: Dict[str, Any], path: str) -> List[Dict[str, str]]:
    """The console's Register looked at before it asks: the names that may be a player
    already in ([{"name", "why"}]: the console asks whether each is another player, then
    registers with ``allow_duplicate``); ActionRefused for any other refusal.  Decided on
    copies of the league (each name sees the ones before it); writes nothing."""
    checked = ACTIONS["register"].check(args)
    trial = scratch(lg, tournament)
    found: List[Tuple[str, str]] = []
    decide_registers(trial.tournaments[tournament.number], trial, checked["names"],
                     checked["member"], checked["member_no"],
                     {player_key(name) for name in checked["allow_duplicate"]},
                     _pulled.members(path) if path else _pulled.Members({}, {}), when, 0,
                     "%s", found)
    return [{"name": name, "why": why} for name, why in found]


def scratch(lg: League, tournament: Tournament) -> League:
    """A copy of *lg* a registration may be decided on and thrown away: its own player
    names, members and member numbers, and its own copy of *tournament* (not of the whole
    log: a season's league is large)."""
    out = copy.copy(lg)
    out.members, out.names = set(lg.members), dict(lg.names)
    out.numbers, out.number_keys = dict(lg.numbers), dict(lg.number_keys)
    out.tournaments = dict(lg.tournaments)
    out.tournaments[tournament.number] = copy.deepcopy(tournament)
    return out
