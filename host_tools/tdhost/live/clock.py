"""The master clock of the live night (docs/host.md, "The live night", "The clock").

The host's tournament clock is the boxes' own ``tableclock.clock.LevelClock``, rebuilt from
the league log at any moment: level 1 from "shuffle up and deal", then the latest ``clock``
event (its reading: entry index, milliseconds left, paused, and the Unix ms it was taken
at) runs on from there (``Tournament.clock_at``).  Every TD change -- pause, resume, a jump
to a level, time added or removed -- is a ``clock`` event with the reading after it, so a
host restarted from the same file has the same clock.  Levels that end as time passes are
no events: the reading runs on, the same arithmetic as on the boxes.

All times are integer milliseconds.
"""

from tableclock import profiles
from tableclock.clock import ClockError
from tdhost.league.refusal import ActionRefused
from tdhost.league.times import iso


def reading(clock):
    """What a box needs of the clock (docs/protocol.md ``clock``, without host_ms)."""
    return {"level_index": clock.index, "ms_left": clock.left_ms, "paused": clock.paused}


def _minutes(ms):
    m = ms / 60000
    return int(m) if m == int(m) else round(m, 2)


def _entry(e):
    """A structure entry (sb, bb, ante, ms, number) as the snapshot shows it."""
    return {"sb": e[0], "bb": e[1], "ante": e[2], "is_break": e[4] == 0,
            "minutes": _minutes(e[3])}


def colour_up_text(c):
    if not c:
        return None
    remove = c.get("remove") or []
    chip = c.get("chip")
    parts = []
    if remove:
        parts.append("remove the %s chips" % ", ".join(str(x) for x in remove))
    if chip:
        parts.append("the smallest chip is now %d" % chip)
    return "Colour-up after level %s: %s" % (c.get("after_level"),
                                             "; ".join(parts) or "as announced")


def view(clock):
    """The snapshot's ``clock`` dict (docs/host.md "snapshot()")."""
    levels = clock.levels
    i = clock.index
    e = levels[i]
    _, sb, bb, ante = clock.blinds()  # on a break: the next level's
    nxt = _entry(levels[i + 1]) if i + 1 < len(levels) else None
    break_in = None
    acc = clock.left_ms
    for j in range(i + 1, len(levels)):
        if levels[j][4] == 0:
            break_in = acc
            break
        acc += levels[j][3]
    return {"level_index": i, "level": e[4] or None, "sb": sb, "bb": bb, "ante": ante,
            "is_break": e[4] == 0, "ms_left": clock.left_ms, "paused": clock.paused,
            "next": nxt, "break_in_ms": break_in,
            "colour_up": colour_up_text(clock.colour_up())}


def payload(clock, op, now_ms, when, text):
    """The ``clock`` event recording *clock*'s reading after a change at *now_ms*."""
    return {"op": op, "index": clock.index, "left_ms": clock.left_ms,
            "paused": clock.paused, "at_ms": now_ms, "time": iso(when), "text": text}


def decide(t, op, arg, now_ms, when):
    """The ``clock`` payload for a TD's *op* (pause, resume, level N, adjust S seconds)
    at *now_ms*; ActionRefused (nothing changes) when it makes no sense."""
    if t.ended:
        raise ActionRefused("tournament %d has finished" % t.number)
    if t.started is None:
        raise ActionRefused("the clock starts with \"shuffle up and deal\" (start)")
    clock = t.clock_at(now_ms)
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
            clock.drop_after = profiles.get(t.setup["profile"])["drop_levels_after"]
            clock.jump(arg)
            text = "level %d starts now%s" % (arg, " (clock paused)" if clock.paused else "")
        elif op == "adjust":
            if isinstance(arg, bool) or not isinstance(arg, int) or arg == 0:
                raise ActionRefused("give whole seconds to add (or, negative, remove), not %r"
                                    % (arg,))
            clock.adjust(arg * 1000)
            text = "%s %d s %s this level: %s left" % (
                "added" if arg > 0 else "removed", abs(arg), "to" if arg > 0 else "from",
                _left(clock))
        else:
            raise ActionRefused("unknown clock change %r" % op)
    except ClockError as err:
        raise ActionRefused(str(err)[:1].lower() + str(err)[1:])
    return payload(clock, op, now_ms, when, text)


def _left(clock):
    s = (clock.left_ms + 999) // 1000
    lv = clock.levels[clock.index][4]
    return "%d:%02d of %s" % (s // 60, s % 60, "level %d" % lv if lv else "the break")


def started(t, now_ms, when):
    """The ``clock`` event written with "shuffle up and deal": level 1, full time, running."""
    clock = t.clock_at(now_ms)  # paused at level 1 before the start
    clock.paused = False
    return payload(clock, "start", now_ms, when, "clock started: level 1")
