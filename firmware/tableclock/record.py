"""The power-loss record: the whole table in one small, versioned, checked
frame (docs/box.md, "Power loss").  ``dump``/``load``: table <-> record
(``{"setup", "table", "extra"}``; attributes by recordfields.py's ``FIELDS``,
the rest ``DERIVED``); ``encode``/``decode``: record <-> frame bytes; ``Slots``: the
two-slot writer over a byte store (store.py); ``Saver``: when to write.
"""

import io
import json

from . import drop
from .betting import Street
from .hand import Hand
from .recordfields import FIELDS, OBJECTS, TAGS
from .state import state
from .table import Table

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, List, Optional, Tuple, Union  # noqa: F401 (type comments)


try:
    from binascii import crc32 as _bcrc32
except ImportError:  # a port without binascii.crc32: the table version below
    _bcrc32 = None

MAGIC = b"TC"
FORMAT = 1  # the frame layout and the record's keys; bump on any change
HEADER = 9  # magic 2 + version 1 + sequence 4 + length 2
TRAILER = 4  # CRC-32
MASK = 0xFFFFFFFF

_table32 = None


def _crc_py(data, crc=0):
    """CRC-32 (the zip/binascii one) in Python, for ports without binascii."""
    global _table32
    if _table32 is None:
        crcs = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            crcs.append(c)
        _table32 = crcs
    tab = _table32
    crc ^= MASK
    for b in data:
        crc = tab[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ MASK


def crc32(data, crc=0):  # type: (Union[bytes, bytearray, memoryview], int) -> int
    """CRC-32 of *data* (continuing from *crc*) as an unsigned int."""
    if _bcrc32 is not None:
        return _bcrc32(data, crc) & MASK
    return _crc_py(data, crc)


# ------------------------------------------------------------------ values
# (the attributes recorded and the tags of encoded values: recordfields.py)


def _new_hand(table):
    return Hand(table, 0, (0, 0, 0, 0), [])


def _new_street(table):
    return Street(0, table.profile["min_raise"], 0)


FACTORY = {"Hand": _new_hand, "Street": _new_street}



def _tag(v):
    """The tag of an encoded value, or None for a plain value."""
    if isinstance(v, dict) and len(v) == 1:
        for k in v:
            if k[:1] in TAGS:
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


# ------------------------------------------------------------------- setup


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


# ------------------------------------------------------------ dump / load
def dump(table, extra=None):  # type: (Table, Any) -> Dict[str, Any]
    """The record of *table* (a JSON-ready dict); *extra*: the app's JSON.

    ValueError when the table holds something this module cannot record.
    (The box writes the record without building it: ``Saver.offer``.)
    """
    from . import dumper  # tests and tools: not kept (the box's Saver holds its own)

    try:
        return json.loads(dumper.text(table, extra))
    finally:
        drop("tableclock.dumper")


def load(rec):  # type: (Any) -> Tuple[Table, Any]
    """Rebuild ``(table, extra)`` from a record made by :func:`dump`.

    The record is checked before it is trusted (its nesting, then the types
    and ranges of what the engine reads: recordcheck.py), and the rebuilt table
    must give its state.  Raises ValueError when the record cannot be a table
    (SetupError is one); nothing else escapes, whatever the record holds.
    """
    from . import recordcheck  # only at boot: the box drops it after (drop_loader)

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


def drop_loader():  # type: () -> None
    """Drop recordcheck.py once the box has restored its table: its code is
    not held while the table runs (issue #20).  Tests and tools that load
    many records keep it (a .py board would compile it again each time)."""
    import gc

    drop("tableclock.recordcheck")
    gc.collect()  # its code freed now, before the table's objects settle around it


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


# -------------------------------------------------------- encode / decode
def payload(rec):  # type: (Dict[str, Any]) -> bytes
    """The record as compact JSON bytes."""
    try:
        text = json.dumps(rec, separators=(",", ":"))
    except TypeError:  # a json without separators=: larger, still valid
        text = json.dumps(rec)
    return text.encode("utf-8")


def frame(body, seq):  # type: (bytes, int) -> bytes
    """Frame the payload bytes *body* with sequence number *seq*."""
    n = len(body)
    if n > 0xFFFF:
        raise ValueError("Record too large: %d bytes of JSON" % n)
    head = MAGIC + bytes([FORMAT]) + (seq & MASK).to_bytes(4, "big") + n.to_bytes(2, "big")
    crc = crc32(body, crc32(head))
    return head + body + crc.to_bytes(4, "big")


def encode(rec, seq=0):  # type: (Dict[str, Any], int) -> bytes
    """The frame bytes of record *rec* with sequence number *seq*."""
    return frame(payload(rec), seq)


def unframe(data):  # type: (Union[bytes, bytearray, memoryview]) -> Tuple[int, bytes]
    """Check a frame at the start of *data* (trailing bytes are ignored).

    Returns ``(seq, payload bytes)``; raises ValueError with the reason.
    """
    if len(data) < HEADER + TRAILER:
        raise ValueError("Record too short: %d bytes" % len(data))
    if bytes(data[0:2]) != MAGIC:
        raise ValueError("Not a record: bad magic %r" % bytes(data[0:2]))
    if data[2] != FORMAT:
        raise ValueError("Record format %d, this firmware reads %d" % (data[2], FORMAT))
    seq = int.from_bytes(bytes(data[3:7]), "big")
    n = int.from_bytes(bytes(data[7:9]), "big")
    end = HEADER + n
    if end + TRAILER > len(data):
        raise ValueError("Record length %d runs past the %d bytes read" % (n, len(data)))
    body = bytes(data[HEADER:end])
    want = int.from_bytes(bytes(data[end:end + TRAILER]), "big")
    if crc32(body, crc32(bytes(data[0:HEADER]))) != want:
        raise ValueError("Record damaged: CRC mismatch")
    return seq, body


def decode_seq(data):  # type: (Union[bytes, bytearray, memoryview]) -> Tuple[int, Any]
    """``(seq, record)`` from frame bytes; ValueError when damaged."""
    seq, body = unframe(data)
    try:
        return seq, json.loads(body.decode("utf-8"))
    except ValueError as e:  # a good CRC over bad JSON: written by a broken writer
        raise ValueError("Record payload is not JSON: %s" % e)


def decode(data):  # type: (Union[bytes, bytearray, memoryview]) -> Any
    """The record in frame bytes *data*; ValueError when damaged."""
    return decode_seq(data)[1]


def _newer(a, b):
    """Is sequence *a* after *b* (serial arithmetic: survives the wrap)?"""
    return a != b and ((a - b) & MASK) < 0x80000000


# ------------------------------------------------------------------ slots
class Slots:
    """Two alternating slots over a byte store (``read(offset, n)``,
    ``write(offset, data)``, ``size``: store.py).

    Each save writes one whole frame, in one ``write`` call (one nvm
    rewrite), into the slot that does not hold the newest good record, so a
    cut during the write leaves that record intact.
    """

    def __init__(self, store):  # type: (Any) -> None
        self.store = store
        self.half = store.size // 2
        self.seq = None  # type: Optional[int]  # newest good sequence number, None before any
        self.slot = None  # type: Optional[int]  # the slot holding it
        self._known = False  # seq/slot were read from the store

    def _frame_at(self, i):
        """``(seq, payload)`` of slot *i*, or None when empty or damaged."""
        base = i * self.half
        head = bytes(self.store.read(base, HEADER))
        if len(head) < HEADER or head[0:2] != MAGIC or head[2] != FORMAT:
            return None
        n = int.from_bytes(head[7:9], "big")
        if HEADER + n + TRAILER > self.half:
            return None
        data = head + bytes(self.store.read(base + HEADER, n + TRAILER))
        try:
            return unframe(data)
        except ValueError:
            return None

    def frames(self):  # type: () -> List[Tuple[int, int, bytes]]
        """Good frames, newest first: ``[(seq, slot, payload)]``."""
        out = []
        for i in (0, 1):
            f = self._frame_at(i)
            if f is not None:
                out.append((f[0], i, f[1]))
        if len(out) == 2 and _newer(out[1][0], out[0][0]):
            out = [out[1], out[0]]
        return out

    def records(self):  # type: () -> List[Tuple[int, Any]]
        """Good records, newest first: ``[(seq, record)]`` (an app whose
        newest record does not rebuild can fall back to the older one)."""
        out = []
        for seq, _slot, body in self.frames():
            try:
                out.append((seq, json.loads(body.decode("utf-8"))))
            except ValueError:
                pass
        return out

    def _scan(self, fr=None):
        if fr is None:
            fr = self.frames()
        if fr:
            self.seq, self.slot, _body = fr[0]
        else:
            self.seq = self.slot = None
        self._known = True

    def load(self):  # type: () -> Any
        """The newest good record, or None."""
        fr = self.frames()
        self._scan(fr)
        for _seq, _slot, body in fr:
            try:
                return json.loads(body.decode("utf-8"))
            except ValueError:
                continue
        return None

    def save(self, rec):  # type: (Dict[str, Any]) -> int
        """Write *rec* into the other slot; return the bytes written.

        ValueError when the frame does not fit a slot (nothing written).
        """
        return self._save(payload(rec))

    def _save(self, body):
        """Write the payload bytes *body* framed into the other slot."""
        n = len(body)
        buf = bytearray(HEADER + n + TRAILER)
        buf[HEADER:HEADER + n] = body
        return self.write_frame(buf, n)

    def write_frame(self, buf, n):  # type: (bytearray, int) -> int
        """Write the payload of *n* bytes at ``buf[HEADER:]`` framed in place
        (header and CRC filled in *buf*) into the other slot, in one store
        write.  Returns the bytes written; ValueError when it does not fit."""
        if not self._known:
            self._scan()
        end = HEADER + n
        if end + TRAILER > self.half:
            raise ValueError("Record of %d bytes does not fit a %d-byte slot"
                             % (end + TRAILER, self.half))
        seq = 1 if self.seq is None else (self.seq + 1) & MASK
        buf[0] = MAGIC[0]
        buf[1] = MAGIC[1]
        buf[2] = FORMAT
        for i in range(4):
            buf[3 + i] = (seq >> (24 - 8 * i)) & 0xFF
        buf[7] = n >> 8
        buf[8] = n & 0xFF
        mv = memoryview(buf)
        crc = crc32(mv[HEADER:end], crc32(mv[0:HEADER]))
        for i in range(4):
            buf[end + i] = (crc >> (24 - 8 * i)) & 0xFF
        slot = 0 if self.slot is None else 1 - self.slot
        self.store.write(slot * self.half, mv[0:end + TRAILER])
        self.seq, self.slot = seq, slot
        return end + TRAILER


# ------------------------------------------------------------------ saver
class Saver:
    """When the box writes: after any change of the table or of *extra*,
    except that the level and shot clocks running down write only once they
    are ``slack_ms`` away from the saved times (a new level, a pause, a
    clock called or stopped are changes and write at once), and that a
    refused event (only ``error`` changes) writes nothing: the refusal goes
    out with the next change.

    A cut therefore loses at most the last change, ``slack_ms`` of clock and
    the refusal sentence on the screen.  The change is found by the CRC-32
    of the record written without the clocks' times and the refusal (its
    fingerprint).
    """

    def __init__(self, slots, slack_ms=30000):  # type: (Slots, int) -> None
        self.slots = slots
        self.slack = slack_ms
        self.fp = None  # type: Optional[int]
        self.ms = None  # type: Optional[Tuple[int, int]]
        # Where the record is written: the JSON stream, kept between saves
        # (its buffer grows to the largest record once), and the frame, a
        # bytearray grown to the largest frame (256-byte steps, at most a
        # slot).  An offer then allocates a few small objects, not copies of
        # the record (issue #20: 27 KB an offer; the buffers hold about 4 KB).
        from . import dumper

        self.w = dumper
        self.buf = bytearray(0)
        self.out = io.BytesIO() if dumper.BYTES else None

    def _body(self, table, extra, quiet):
        """Write the record at ``buf[HEADER:]``; return its length in bytes
        (ValueError when it does not fit a slot)."""
        out = self.out
        if out is not None:
            out.seek(0)
            self.w.write(out, table, extra, quiet)
            n = out.tell()
        else:  # CPython (tests, the simulator): copies do not matter
            data = self.w.text(table, extra, quiet).encode("utf-8")
            n = len(data)
        need = HEADER + n + TRAILER
        if need > self.slots.half:
            raise ValueError("Record of %d bytes does not fit a %d-byte slot"
                             % (need, self.slots.half))
        if need > len(self.buf):
            self.buf = bytearray(min(self.slots.half, (need + 255) // 256 * 256))
        if out is not None:
            out.seek(0)
            out.readinto(memoryview(self.buf)[HEADER:HEADER + n])
        else:
            self.buf[HEADER:HEADER + n] = data
        return n

    def fingerprint(self, table, extra=None):  # type: (Table, Any) -> int
        """The CRC-32 of *table*'s record (with *extra*) without the clocks'
        times and the refusal: it changes when anything else does."""
        n = self._body(table, extra, True)
        return crc32(memoryview(self.buf)[HEADER:HEADER + n])

    def saved(self, table, extra=None):  # type: (Table, Any) -> None
        """Note *table* (with *extra*) as what the store holds (after a
        boot-time load)."""
        self.fp = self.fingerprint(table, extra)
        self.ms = (table.clock.left_ms, table.shot.left_ms)

    def _due(self, fp, table):
        if self.fp is None or fp != self.fp:
            return True
        return abs(table.clock.left_ms - self.ms[0]) >= self.slack or \
            abs(table.shot.left_ms - self.ms[1]) >= self.slack

    def offer(self, table, extra=None):  # type: (Table, Any) -> int
        """Write *table* if due; return the bytes written (0)."""
        fp = self.fingerprint(table, extra)
        if not self._due(fp, table):
            return 0
        n = self._body(table, extra, False)  # first: it may grow self.buf
        n = self.slots.write_frame(self.buf, n)
        self.fp = fp
        self.ms = (table.clock.left_ms, table.shot.left_ms)
        return n
