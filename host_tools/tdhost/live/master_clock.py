"""The master clock of the live night (docs/host.md §10.9): the boxes' own
``tableclock.clock.LevelClock`` rebuilt from the league log (``Tournament.clock_at``);
every TD change is a ``clock`` event with the reading after it.  Integer milliseconds."""

import datetime
import os
from typing import Any, Callable, Dict, Optional, Tuple

from tableclock import profiles
from tableclock.clock import ClockError
from tdhost.clocks import monotonic_ms, unix_ms
from tdhost.league.refusal import ActionRefused
from tdhost.league.times import iso, now, to_unix_ms
from tdhost.league.tournament import Tournament

Level = Tuple[int, int, int, int, int]  # a structure entry: (sb, bb, ante, ms, number)
LEFT_MAX_MS = 24 * 3600 * 1000  # a level or break never has more than a day left: what the
#                                 TD adds is bounded so every clock frame can be written


def live_clock() -> Callable[[], int]:
    """The live night's clock in Unix ms: the computer's, or, when TDHOST_NOW is set, one
    that runs from that time (the CLI's `start` and `level` were written at TDHOST_NOW:
    serve on the same file carries on at their level and time left, not at the computer's
    date)."""
    if not os.environ.get("TDHOST_NOW"):
        return unix_ms
    start, mono0 = to_unix_ms(now()), monotonic_ms()
    return lambda: start + monotonic_ms() - mono0


def reading(clock: Any) -> Dict[str, Any]:
    """What a box needs of the clock (docs/protocol.md ``clock``, without host_ms)."""
    return {"level_index": clock.index, "ms_left": clock.left_ms, "paused": clock.paused}


def _minutes(ms: int) -> float:
    m = ms / 60000
    return int(m) if m == int(m) else round(m, 2)


def _entry(level: Level) -> Dict[str, Any]:
    """A structure entry (sb, bb, ante, ms, number) as the snapshot shows it."""
    return {"sb": level[0], "bb": level[1], "ante": level[2], "is_break": level[4] == 0,
            "minutes": _minutes(level[3])}


def colour_up_text(colour: Optional[Dict[str, Any]]) -> Optional[str]:
    if not colour:
        return None
    remove = colour.get("remove") or []
    chip = colour.get("chip")
    parts = []
    if remove:
        parts.append("remove the %s chips" % ", ".join(str(x) for x in remove))
    if chip:
        parts.append("the smallest chip is now %d" % chip)
    return "Colour-up after level %s: %s" % (colour.get("after_level"),
                                             "; ".join(parts) or "as announced")


def view(clock: Any) -> Dict[str, Any]:
    """The snapshot's ``clock`` dict (docs/host.md "snapshot()")."""
    levels = clock.levels
    i = clock.index
    level = levels[i]
    _, sb, bb, ante = clock.blinds()  # on a break: the next level's
    nxt = _entry(levels[i + 1]) if i + 1 < len(levels) else None
    break_in = None
    acc = clock.left_ms
    for j in range(i + 1, len(levels)):
        if levels[j][4] == 0:
            break_in = acc
            break
        acc += levels[j][3]
    return {"level_index": i, "level": level[4] or None, "sb": sb, "bb": bb, "ante": ante,
            "is_break": level[4] == 0, "ms_left": clock.left_ms, "paused": clock.paused,
            "next": nxt, "break_in_ms": break_in,
            "colour_up": colour_up_text(clock.colour_up())}


def payload(clock: Any, op: str, now_ms: int, when: datetime.datetime,
            text: str) -> Dict[str, Any]:
    """The ``clock`` event recording *clock*'s reading after a change at *now_ms*."""
    return {"op": op, "index": clock.index, "left_ms": clock.left_ms,
            "paused": clock.paused, "at_ms": now_ms, "time": iso(when), "text": text}


def decide(tournament: Tournament, op: str, arg: Any, now_ms: int,
           when: datetime.datetime) -> Dict[str, Any]:
    """The ``clock`` payload for a TD's *op* (pause, resume, level N, adjust S seconds)
    at *now_ms*; ActionRefused (nothing changes) when it makes no sense."""
    if tournament.ended:
        raise ActionRefused("tournament %d has finished" % tournament.number)
    if tournament.started is None:
        raise ActionRefused("the clock starts with \"shuffle up and deal\" (start)")
    clock = tournament.clock_at(now_ms)
    try:
        if op == "pause":
            clock.pause()
            text = "clock paused at %s" % _left(clock)
        elif op == "resume":
            clock.resume()
            text = "clock running from %s" % _left(clock)
        elif op == "level":
            if isinstance(arg, bool) or not isinstance(arg, int):
                raise ActionRefused("give the level as a whole number, e.g. {\"level\": 4}")
            # the boxes' rule on skipping levels (LPPL: only after the second chip-up)
            clock.drop_after = profiles.get(tournament.setup["profile"])["drop_levels_after"]
            clock.jump(arg)
            text = "level %d starts now%s" % (arg, " (clock paused)" if clock.paused else "")
        elif op == "adjust":
            if isinstance(arg, bool) or not isinstance(arg, int) or arg == 0:
                raise ActionRefused("give whole seconds to add (or, negative, remove), not %r"
                              % (arg,))
            if arg > 0 and clock.left_ms + arg * 1000 > LEFT_MAX_MS:
                raise ActionRefused("%d s cannot be added: a level has at most 24 hours left"
                                    % arg)
            clock.adjust(arg * 1000)
            text = "%s %d s %s this level: %s left" % (
                "added" if arg > 0 else "removed", abs(arg), "to" if arg > 0 else "from",
                _left(clock))
        else:
            raise ActionRefused("unknown clock change %r" % op)
    except ClockError as err:
        raise ActionRefused(str(err)[:1].lower() + str(err)[1:])
    return payload(clock, op, now_ms, when, text)


def _left(clock: Any) -> str:
    seconds = (clock.left_ms + 999) // 1000
    number = clock.levels[clock.index][4]
    return "%d:%02d of %s" % (seconds // 60, seconds % 60,
                              "level %d" % number if number else "the break")


def started(tournament: Tournament, now_ms: int, when: datetime.datetime) -> Dict[str, Any]:
    """The ``clock`` event written with "shuffle up and deal": level 1, full time, running."""
    clock = tournament.clock_at(now_ms)  # paused at level 1 before the start
    clock.paused = False
    return payload(clock, "start", now_ms, when, "clock started: level 1")
