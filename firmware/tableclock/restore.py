"""A table rebuilt from its power-loss record: ``load`` (through
record.load, the tags of record.py's values).  Only at the box's boot:
record.load drops this module and recordcheck.py after use (issue #20:
their code is not held while the table runs).
"""

from . import recordcheck
from .betting import Street
from .hand import Hand
from .record import _TAGS, FIELDS, OBJECTS
from .state import state
from .table import Table

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Tuple  # noqa: F401 (type comments)


def _new_hand(table):
    return Hand(table, 0, (0, 0, 0, 0), [])


def _new_street(table):
    return Street(0, table.profile["min_raise"], 0)


FACTORY = {"Hand": _new_hand, "Street": _new_street}


def _tag(v):
    """The tag of an encoded value, or None for a plain value."""
    if isinstance(v, dict) and len(v) == 1:
        for k in v:
            if k[:1] in _TAGS:
                return k
    return None


def _dec(v, table, refs):
    if isinstance(v, list):
        return [_dec(x, table, refs) for x in v]
    if not isinstance(v, dict):
        return v
    tag = _tag(v)
    if tag is None:
        d = {}
        for k in v:
            d[k] = _dec(v[k], table, refs)
        return d
    body = v[tag]
    c = tag[0]
    if c == "(":
        return tuple([_dec(x, table, refs) for x in body])
    if c == "#":
        d = {}
        for i in range(0, len(body), 2):
            d[body[i]] = _dec(body[i + 1], table, refs)
        return d
    if c == "^":
        return refs[body]
    if c == "{":
        d = {}
        for k in body:
            d[k] = _dec(body[k], table, refs)
        return d
    make = FACTORY.get(tag[1:])
    if make is None:
        raise ValueError("Cannot rebuild a %s" % tag[1:])
    o = make(table)
    _fill(o, body, table, refs)
    return o


def _fill(o, body, table, refs):
    fields = FIELDS[type(o).__name__]
    for f in body:
        if f not in fields:  # never a derived or unknown attribute
            raise ValueError("Bad record: %s has no field %r" % (type(o).__name__, f))
        setattr(o, f, _dec(body[f], table, refs))


def _level_in(e):
    if isinstance(e, list):
        if len(e) == 1:
            return {"break": e[0]}
        if len(e) == 4:
            return {"sb": e[0], "bb": e[1], "ante": e[2], "minutes": e[3]}
    return e


def _setup_in(setup):
    levels = setup.get("levels")
    if not isinstance(levels, list):
        return setup
    out = {}
    for k in setup:
        out[k] = setup[k]
    out["levels"] = [_level_in(e) for e in levels]
    return out


def load(rec):  # type: (Any) -> Tuple[Table, Any]
    """``(table, extra)`` rebuilt from *rec* (record.load, which drops this
    module after): ValueError when the record cannot be a table."""
    try:
        recordcheck.shape(rec, FIELDS["Table"])
        table, extra = _load(rec)
        recordcheck.check(table)
        state(table)  # what the screen reads first: any surprise shows here
        return table, extra
    except ValueError:
        raise
    except Exception as e:  # noqa: BLE001 -- any surprise in a record is a bad record
        raise ValueError("Bad record: %r" % (e,))


def _load(rec):
    table = Table(_setup_in(rec["setup"]))
    d = rec["table"]
    refs = {}  # type: dict
    for f in OBJECTS:  # the objects first: the rest may refer to them
        if f not in d:
            continue
        v = d[f]
        tag = _tag(v)
        cur = getattr(table, f, None)
        if tag is not None and cur is not None and "@" + type(cur).__name__ == tag:
            _fill(cur, v[tag], table, refs)  # the table's own clock, books
        else:
            setattr(table, f, _dec(v, table, refs))
        refs[f] = getattr(table, f)
    for f in d:
        if f not in OBJECTS:
            setattr(table, f, _dec(d[f], table, refs))
    return table, rec.get("extra")
