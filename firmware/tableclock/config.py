"""The table's setup: validated once, turned into the engine's parts.

The setup object is the replay contract's (docs/replay.md): profile, seats,
players, button, levels, and optional chip, shot_clock, colour_ups,
late_entry_until_level, absent and history.  Anything that makes no sense raises SetupError.
"""

from . import profiles
from .clock import ClockError, LevelClock
from .fields import MAX_CHIPS, Refused, SetupError, as_int, setup_int
from .floor import carry
from .levels import parse_levels
from .shotclock import ShotClock

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Container, Dict, List  # noqa: F401 (type comments)


def profile_of(setup):  # type: (Dict[str, Any]) -> Dict[str, Any]
    try:
        return profiles.get(setup.get("profile"))
    except ValueError as e:
        raise SetupError(str(e))


def seats_of(setup, n):  # type: (Dict[str, Any], int) -> Dict[int, int]
    """``{seat: chips}`` from the setup's players map."""
    players = setup.get("players")
    if not isinstance(players, dict) or len(players) < 2:
        raise SetupError("players must map at least two seats to their chips")
    stacks = {}
    for k in players:
        seat = as_int(k)
        chips = as_int(players[k])
        if seat is None or seat < 1 or seat > n:
            raise SetupError("players: %r is not a seat from 1 to %d" % (k, n))
        if chips is None or chips <= 0 or chips > MAX_CHIPS:
            raise SetupError("players: seat %d needs a positive whole number of chips" % seat)
        if seat in stacks:
            raise SetupError("players: seat %d is listed twice" % seat)
        stacks[seat] = chips
    return stacks


def clock_of(setup, profile):  # type: (Dict[str, Any], Dict[str, Any]) -> LevelClock
    try:
        levels = parse_levels(setup.get("levels"))
    except ClockError as e:
        raise SetupError(str(e))
    colour_ups = setup.get("colour_ups", profile["colour_ups"])
    if not isinstance(colour_ups, list):
        raise SetupError('colour_ups must be a list of {"after_level": n, "chip": c}')
    for colour_up in colour_ups:
        if not isinstance(colour_up, dict) or as_int(colour_up.get("after_level")) is None or (
                "chip" in colour_up and not as_int(colour_up.get("chip"))):
            raise SetupError('colour_ups must be a list of {"after_level": n, "chip": c}')
    late = setup.get("late_entry_until_level", profile["late_entry_until_level"])
    if late is not None:
        late = as_int(late)
        if late is None:
            raise SetupError("late_entry_until_level must be a level number")
    return LevelClock(levels, colour_ups, profile["drop_levels_after"], late)


def shot_clock_of(setup, profile):  # type: (Dict[str, Any], Dict[str, Any]) -> ShotClock
    shot = setup.get("shot_clock", {})
    if not isinstance(shot, dict):
        raise SetupError('shot_clock must be {"seconds": s, "warning": w}')
    limit = as_int(shot.get("seconds", profile["shot_clock"]))
    warn = as_int(shot.get("warning", profile["shot_warning"]))
    if limit is None or warn is None or limit < 1 or limit > 3600 or warn < 0 or warn >= limit:
        raise SetupError("shot_clock: seconds must be 1 to 3600 and the warning shorter")
    return ShotClock(limit, warn)


def chip_of(setup):  # type: (Dict[str, Any]) -> int
    return setup_int(setup, "chip", 1, 10**9, 1)


def absent_of(setup, stacks):  # type: (Dict[str, Any], Container[int]) -> List[int]
    """Seats of registered players not seated at the start (optional
    ``absent``): their blinds are posted when due until they arrive."""
    raw = setup.get("absent", [])
    if not isinstance(raw, list):
        raise SetupError("absent must be a list of seats")
    out = []
    for x in raw:
        seat = as_int(x)
        if seat is None or seat not in stacks:
            raise SetupError("absent: %r is not a seat with a player" % (x,))
        out.append(seat)
    return out


def history_into(table, setup):  # type: (Any, Dict[str, Any]) -> None
    """The optional ``history`` {seat: {"warnings": n, "slow_play": n,
    "penalties": n, "away_used": bool}}: what the players seated by a
    re-draw bring along (floor.carry)."""
    raw = setup.get("history", {})
    if not isinstance(raw, dict):
        raise SetupError("history must map seats to each player's warnings and penalties")
    for k in raw:
        seat = as_int(k)
        if seat is None or seat not in table.stacks or not isinstance(raw[k], dict):
            raise SetupError("history: %r is not a seat with a player" % (k,))
        try:
            carry(table, seat, raw[k])
        except Refused as e:
            raise SetupError("history: seat %d: %s" % (seat, e))
