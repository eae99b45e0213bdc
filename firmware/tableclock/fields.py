"""Reading event and setup fields, and the two refusals.

Every rejected event or setup raises one of these with a sentence a dealer
or tournament director understands; nothing else escapes the engine.
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, Optional  # noqa: F401 (type comments)


MAX_CHIPS = 10**12


class SetupError(ValueError):
    """The setup makes no sense; the message says what is wrong."""


class Refused(Exception):
    """An event that cannot be applied; ``str()`` is the sentence shown to the dealer.

    ``Refused(sentence)``, or ``Refused(n, *values)``: sentence *n* of
    refusals.TEXT (each raise names it in a comment), filled with the values
    when the refusal is shown.  The modules that check every event number
    theirs, so that their sentences are loaded at the first refusal rather than
    held with their code (issue #20: 5.3 KB of heap, .mpy; numbers, not names:
    46 new interned names tipped tests/core's test_app into a 1,280-entry
    qstr pool that its heap did not have)."""

    def __str__(self):
        n = self.args[0] if self.args else ""
        if not isinstance(n, int):
            return str(n)
        from .refusals import TEXT  # at the first refusal shown

        return TEXT[n] % self.args[1:] if len(self.args) > 1 else TEXT[n]


def as_int(v):  # type: (Any) -> Optional[int]
    """An int from an int or a short string of digits, else None (bools and
    floats are refused: chips and seats are whole numbers)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and 0 < len(v) < 16:
        for ch in v:  # ASCII digits only ("²".isdigit() is true)
            if ch < "0" or ch > "9":
                return None
        return int(v)
    return None


# event fields that are whole numbers: chips and seats (docs/replay.md)
WHOLE = ("to", "seat", "stack", "chips", "level", "hands", "rounds", "chip")


def check_whole(ev):  # type: (Dict[str, Any]) -> None
    """Refuse an event whose amount, seat or count is not a whole number:
    "200" (text), 200.0 and true are refused, never read as 200 or 1.
    Each value is checked where it lies, no tuple built around it (issue
    #20: those tuples were 608 B of every event, a tick's 704 B)."""
    for k in WHOLE:
        _whole(k, ev.get(k, 0))
    r = ev.get("ranking")
    if isinstance(r, list):  # places, each a seat or a list of seats (a tie)
        for x in r:
            if isinstance(x, list):
                for y in x:
                    _whole("ranking", y)
            else:
                _whole("ranking", x)


def _whole(k, y):
    if (isinstance(y, bool) or not isinstance(y, int)) and not (y is None and k == "chip"):
        raise Refused(44, k, y)  # "%s" must be a whole number, not %r


def setup_int(setup, key, lo, hi, default=None):
    # type: (Dict[str, Any], str, int, int, Any) -> int
    n = as_int(setup.get(key, default))
    if n is None or n < lo or n > hi:
        raise SetupError("%s must be a whole number from %d to %d" % (key, lo, hi))
    return n


def ms_of(v, unit):  # type: (float, int) -> int
    """*v* (an int or a float) times *unit* milliseconds, as an int rounded
    to the nearest ms without float rounding: the boards' floats are 30-bit,
    so ``int(v * 1000 + 0.5)`` is up to 224 ms wrong above 8,388 s.  Whole
    numbers stay ints; only the fraction of a float is scaled."""
    if isinstance(v, int):
        return v * unit
    whole = int(v)
    return whole * unit + (int((v - whole) * (2 * unit)) + 1) // 2


def seconds(ev, key, lo, hi, whole=False):
    # type: (Dict[str, Any], str, int, int, bool) -> Any
    """A number of seconds from *ev* within [lo, hi]."""
    v = ev.get(key)
    # two isinstance calls, no (int, float) tuple built per call (issue #20: a tick's 32 B)
    ok = not isinstance(v, bool) and (isinstance(v, int) or (not whole and isinstance(v, float)))
    if not ok or not (lo <= v <= hi):  # also refuses NaN
        # This needs "%s": %sseconds from %d to %d
        raise Refused(45, key, "whole " if whole else "", lo, hi)
    return v
