"""Helpers for the portable core tests (CPython, MicroPython)."""

import json

from tableclock.table import Table

LEVELS = [
    {"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
    {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
    {"break": 10},
    {"sb": 75, "bb": 150, "ante": 0, "minutes": 20},
]


def table(profile, stacks, button=1, seats=None, levels=None, **extra):
    """A table with *stacks* {seat: chips} (int keys are fine)."""
    setup = {
        "profile": profile,
        "seats": seats or max(stacks),
        "players": {str(s): stacks[s] for s in stacks},
        "button": button,
        "levels": levels or LEVELS,
    }
    for k in extra:
        setup[k] = extra[k]
    return Table(setup)


def level(sb, bb, ante=0, minutes=20):
    return [{"sb": sb, "bb": bb, "ante": ante, "minutes": minutes}]


def do(t, what, **kw):
    """Apply one event; fail the test if it is refused.  Returns the state."""
    ev = {"do": what}
    for k in kw:
        ev[k] = kw[k]
    st = t.apply(ev)
    if st["error"] is not None:
        raise AssertionError("%s refused: %s" % (ev, st["error"]))
    return st


def refused(t, what, **kw):
    """Apply an event that must be refused; check nothing changed."""
    before = frozen(t.state())
    ev = {"do": what}
    for k in kw:
        ev[k] = kw[k]
    st = t.apply(ev)
    assert st["error"], "%s was accepted" % ev
    assert frozen(st) == before, "refused %s changed the state" % ev
    return st["error"]


def frozen(st):
    """The state without its error, in a canonical comparable form."""
    out = []
    for k in sorted(st):
        if k not in ("error",):
            out.append((k, json.dumps(st[k])))
    return out


def posts(st):
    """Posts as a sorted list of (seat, amount, kind)."""
    return sorted((p["seat"], p["amount"], p["kind"]) for p in st["posts"])


def fold_round(t):
    """Everyone folds to the big blind (or whoever is left): the hand ends."""
    st = t.state()
    while st["street"] is not None:
        st = do(t, "fold")
    return st


def stack(st, seat):
    return st["stacks"].get(str(seat))
