"""The power-loss record (tableclock/record.py) written as JSON straight from
the table's objects into a stream: no dict of the whole table is built (issue
#20: offering the record allocated 27 KB per offer that way; now a few small
objects).  ``record.dump`` and ``record.Saver`` use it; the tags and the
attributes recorded are recordfields.py's (``FIELDS``, ``OBJECTS``, ``TAGS``).

Only scalars go through json.dump; the structure is written here.
MicroPython's json.dump writes into an io.BytesIO; CPython's writes str, into
a StringIO (``BYTES``).  A module of its own so that MicroPython compiles it
apart from the loader: the record as one module no longer compiled in the
256K heap of the tests beside the link.
"""

import io
import json
import sys

from .recordfields import ABSENT, FIELDS, LEVEL_KEYS, OBJECTS, PAST, SEPARATORS, TAGS

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .table import Table  # noqa: F401


_SCALAR = (bool, int, float, str)
_SEQ = (list, tuple)
_NUM = (int, float)

BYTES = sys.implementation.name != "cpython"  # json.dump into a BytesIO (not CPython's)


def _plain(v, out):
    """Plain JSON data (the setup's parts, the app's extra) as it is."""
    try:
        json.dump(v, out, separators=SEPARATORS)
    except TypeError:  # a json without separators=: larger, still valid
        json.dump(v, out)


def _w(out, v, table):
    """Write value *v* of *table* (its OBJECTS go as references)."""
    if v is None or isinstance(v, _SCALAR):
        json.dump(v, out)
    elif isinstance(v, _SEQ):
        tup = isinstance(v, tuple)
        out.write('{"(":[' if tup else "[")
        first = True
        for x in v:
            if not first:
                out.write(",")
            first = False
            _w(out, x, table)
        out.write("]}" if tup else "]")
    elif isinstance(v, dict):
        _w_dict(out, v, table)
    else:
        for name in OBJECTS:
            if getattr(table, name, None) is v:
                out.write('{"^":')
                json.dump(name, out)
                out.write("}")
                return
        _w_obj(out, v, None, table, False)


def _w_dict(out, v, table):
    if not v:
        out.write("{}")
        return
    ints = 0
    for k in v:
        if isinstance(k, int) and not isinstance(k, bool):
            ints += 1
        elif not isinstance(k, str):
            raise ValueError("Cannot record a dict key %r" % (k,))
    if ints == len(v):
        # ascending keys (canonical: the same dict gives the same bytes
        # everywhere), found by scanning rather than by a sorted list
        out.write('{"#":[')
        last = None
        for i in range(ints):
            k = None
            for c in v:
                if (last is None or c > last) and (k is None or c < k):
                    k = c
            if i:
                out.write(",")
            json.dump(k, out)
            out.write(",")
            _w(out, v[k], table)
            last = k
        out.write("]}")
        return
    if ints:
        raise ValueError("Cannot record a dict with int and str keys")
    wrap = False
    if len(v) == 1:
        for k in v:
            wrap = k != "" and k[0] in TAGS  # a plain dict that would look tagged
    if wrap:
        out.write('{"{":')
    out.write("{")
    first = True
    for k in v:
        if not first:
            out.write(",")
        first = False
        json.dump(k, out)
        out.write(":")
        _w(out, v[k], table)
    out.write("}")
    if wrap:
        out.write("}")


def _w_obj(out, o, fields, table, quiet):
    """``{"@Class": {attribute: value}}`` for the attributes in *fields* (None:
    FIELDS of its class); *quiet*: without ``left_ms`` (Saver's fingerprint)."""
    cls = type(o).__name__
    if cls not in FIELDS:
        raise ValueError("Cannot record a %s" % cls)
    out.write('{"@')
    out.write(cls)
    out.write('":{')
    first = True
    for f in fields or FIELDS[cls]:
        if quiet and f == "left_ms":
            continue
        v = getattr(o, f, ABSENT)
        if v is ABSENT:  # an attribute this engine version lacks
            continue
        if not first:
            out.write(",")
        first = False
        json.dump(f, out)
        out.write(":")
        _w(out, v, table)
    out.write("}}")


def _num(v):
    return not isinstance(v, bool) and isinstance(v, _NUM)


def _w_level(out, e):
    """A level ``{"sb", "bb", "ante", "minutes"}`` as ``[sb, bb, ante,
    minutes]`` and a break ``{"break": m}`` as ``[m]``; anything else (an
    extra key, a missing ante) stays as it is, so the setup comes back equal."""
    if isinstance(e, dict):
        if len(e) == 1 and _num(e.get("break")):
            out.write("[")
            json.dump(e["break"], out)
            out.write("]")
            return
        short = len(e) == 4
        for k in LEVEL_KEYS:
            short = short and _num(e.get(k))
        if short:
            sep = "["
            for k in LEVEL_KEYS:
                out.write(sep)
                json.dump(e[k], out)
                sep = ","
            out.write("]")
            return
    _plain(e, out)


def _w_setup(out, setup):
    """The setup with its level list in short form (its largest part)."""
    out.write("{")
    first = True
    for k in setup:
        if not first:
            out.write(",")
        first = False
        json.dump(k, out)
        out.write(":")
        v = setup[k]
        if k == "levels" and isinstance(v, list):
            out.write("[")
            for i in range(len(v)):
                if i:
                    out.write(",")
                _w_level(out, v[i])
            out.write("]")
        else:
            _plain(v, out)
    out.write("}")


def write(out, table, extra, quiet):  # type: (Any, Table, Any, bool) -> None
    """The record of *table* as JSON into *out*; *quiet*: without the
    running clocks' times and the refusal (Saver's fingerprint)."""
    out.write('{"setup":')
    _w_setup(out, table.setup)
    out.write(',"table":{')
    first = True
    for f in FIELDS["Table"]:
        if quiet and f == "error":
            continue
        v = getattr(table, f, ABSENT)
        if v is ABSENT:
            continue
        if not first:
            out.write(",")
        first = False
        json.dump(f, out)
        out.write(":")
        if f in OBJECTS and v is not None:
            _w_obj(out, v, PAST if f == "last_hand" else None, table, quiet)
        else:
            _w(out, v, table)
    out.write("}")
    if extra is not None:
        out.write(',"extra":')
        _plain(extra, out)
    out.write("}")


def text(table, extra, quiet=False):  # type: (Table, Any, bool) -> str
    out = io.StringIO()
    write(out, table, extra, quiet)
    v = out.getvalue()
    return v if isinstance(v, str) else v.decode("utf-8")
