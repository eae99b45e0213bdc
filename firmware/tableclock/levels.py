"""A setup's level list read into the clock's compact tuples (``parse_levels``).

Setup-only code: config.py imports it for ``Table(setup)`` and
``table.drop_setup_code`` drops it with config.py (issue #20: not held while
the table runs; about 1.3 KB of heap, .mpy).  The clock itself: clock.py.
"""

from .clock import ClockError
from .fields import ms_of

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, List, Tuple  # noqa: F401 (type comments)
    _Level = Tuple[int, int, int, int, int]  # (sb, bb, ante, ms, number)


def _int(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise ClockError("%s must be a whole number" % what)
    return v


def _minutes(v, what):
    """A positive, finite number of minutes (NaN and infinity refused)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (0 < v <= 10000):
        raise ClockError(what)
    return ms_of(v, 60000)


def parse_levels(raw):  # type: (Any) -> List[_Level]
    """Validate a level list and return it as a list of compact tuples.

    Each entry is ``(sb, bb, ante, ms, number)`` for a level or
    ``(0, 0, 0, ms, 0)`` for a break (number 0 marks a break).
    """
    if not isinstance(raw, list) or not raw:
        raise ClockError("levels must be a non-empty list")
    out = []
    number = 0
    for i, entry in enumerate(raw):
        where = "levels[%d]" % i
        if not isinstance(entry, dict):
            raise ClockError(where + " must be an object")
        if "break" in entry:
            ms = _minutes(entry["break"], where + ": a break needs a positive number of minutes")
            out.append((0, 0, 0, ms, 0))
            continue
        sb = _int(entry.get("sb"), where + ".sb")
        bb = _int(entry.get("bb"), where + ".bb")
        ante = _int(entry.get("ante", 0), where + ".ante")
        ms = _minutes(entry.get("minutes"), where + ": minutes must be a positive number")
        if bb <= 0 or sb < 0 or ante < 0:
            raise ClockError(where + ": blinds must be positive and the ante not negative")
        if sb > bb:
            raise ClockError(where + ": the small blind %d is bigger than the big blind %d"
                             % (sb, bb))
        number += 1
        out.append((sb, bb, ante, ms, number))
    if number == 0:
        raise ClockError("levels must contain at least one level that is not a break")
    if out[-1][4] == 0:
        raise ClockError("the structure cannot end with a break")
    return out
