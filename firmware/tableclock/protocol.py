"""The host <-> box wire protocol: signed one-line JSON frames (docs/protocol.md).

    frame = encode({"kind": "ping"}, key, 1)          # bytes, ends with b"\\n"
    msg = decode(frame, key)                          # {"kind": "ping", "v": "1.0", ...}
    msg = Receiver(key, me="tc-01").accept(frame)     # per-peer anti-replay; None: a duplicate

A refusal raises ProtocolError (Forged, Stale) saying why; the JSON itself is
canonjson.py's.  A field spec in KINDS is "name:type" ("name?:type" optional;
the types: ``_is``); fields not in the table are kept.
"""

from binascii import hexlify

from .canonjson import (
    ProtocolError,
    _enc,
    _q,
    _TooLarge,
    parse,
)
from .hmac256 import hmac_sha256, same

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, List, Mapping, Optional  # noqa: F401 (type comments)

VERSION = "1.3"  # the protocol this side speaks
MAJOR = 1
MINOR = 3
BASE = "1.0"  # what a sender writes in "v" unless its frame needs a later minor (BOTH_WAYS)
MAX_FRAME = 4096  # bytes, newline included; longer frames are refused unread
MAX_COUNTER = 2**31 - 1  # boot counters and sequence numbers
MIN_KEY = 16  # bytes
WINDOW = 64  # anti-replay window: the last 64 sequence numbers of a peer
BROADCAST = "*"
HOST = "host"

_TAIL = b',"mac":"'  # the frame ends with _TAIL + 64 hex digits + b'"}'
_TAIL_LEN = 8 + 64 + 2
_ENVELOPE = ("v", "kind", "from", "to", "boot", "seq")  # added to a decoded message
_RESERVED = ("v", "kind", "from", "to", "boot", "seq", "body", "mac")

# kind: (recipient, fields).  "box" kinds go from the host to a box, "host"
# kinds from a box to the host.  Only the kinds in _ANYONE may be addressed to
# BROADCAST when they go to a box; the others name the box (so a frame for
# one table cannot be replayed to another).
KINDS = {
    # host -> box
    "config": ("box", "table:pos profile:str seats:pos levels:list/dict key_id:id"
                      " event?:str chip?:pos shot_clock?:dict colour_ups?:list/dict"
                      " late_entry_until_level?:?pos nonce?:id"),
    "clock": ("box", "level_index:nat ms_left:nat paused:bool host_ms:nat"),
    "seating": ("box", "names:dict/str stacks?:dict/nat button?:?pos keep?:bool"
                       " history?:dict/dict sv?:nat"),
    "instruction": ("box", "id:id action:str"),
    "ack": ("box", "ids:list/id"),
    "ping": ("box", "t?:nat"),
    # over USB only: the event key for a box (self-signed with that key, see
    # docs/protocol.md "USB serial"); settings: Wi-Fi/MQTT placeholders
    # keys "box": the key is this box's own (box_key), not the event's: a box
    # paired without it is told to pair again on Wi-Fi (docs/mqtt.md)
    "pair": ("box", "key:str key_id:id table:pos event?:str settings?:dict keys?:str"),
    # box -> host
    "hello": ("host", "fw:str table?:?pos key_id?:id nonce?:id"),
    "status": ("host", "state:dict table?:?pos sv?:nat"),
    "event": ("host", "id:id what:str"),
    "pong": ("host", "t?:nat host_ms?:nat"),
}
_ANYONE = ("ping", "pair")  # a pair frame reaches the one box on a USB port

# Since 1.1 these kinds also go the other way (docs/protocol.md "Versions"):
# a box pings the host, and the host's pong carries host_ms (its Unix ms when
# it answered) for the box's clock sync.  kind: the minor version that added
# the other direction; a frame going that way is written with "v":"1.<minor>".
BOTH_WAYS = {"ping": 1, "pong": 1}

# Subkinds a later minor added: (kind, value of its SUBKINDS field): minor.
# A frame carrying one is written with "v":"1.<minor>".
ADDED = {("instruction", "withdraw"): 2, ("instruction", "deduct"): 2,
         ("instruction", "take_out"): 3}

# A box that has never been paired signs its hello with this well-known key
# (key_id UNPAIRED_KEY_ID), so the host can read who is on a USB port before
# pairing.  It authenticates nothing; a box accepts only ping and pair with it.
UNPAIRED_KEY = b"tableclock-unpaired-box-key-v1"
UNPAIRED_KEY_ID = "unpaired"
BOX_KEYS = "box"  # a pair's "keys": the box's own key (below), the Wi-Fi pairing since 1.3


def box_key(key, box_id):  # type: (bytes, str) -> bytes
    """The key of box *box_id* under the event *key*: HMAC-SHA256(key,
    "tc-box-key:" + box id).  The host derives it; a box holds only its own,
    so it can never sign as another box (docs/mqtt.md, "Threats")."""
    return hmac_sha256(key, b"tc-box-key:" + box_id.encode())

# Kinds whose fields depend on one field's value: kind: (field, {value: fields}).
SUBKINDS = {
    "instruction": ("action", {
        "move_out": "seat:pos to_table:pos to_seat:pos sv?:nat after?:id",
        "receive": "seat:pos name:str stack?:nat from_table?:pos away_used?:bool"
                   " warnings?:nat slow_play?:nat penalties?:nat sv?:nat after?:id",
        "break_table": "",
        "redraw": "deal?:bool",
        "hand_for_hand_start": "",
        "hand_for_hand_stop": "",
        "next_hand": "",
        "pause": "",
        "resume": "",
        "message": "text:str",
        "withdraw": "instr:id",
        "deduct": "seat:pos chips:pos",
        "take_out": "seat:pos name?:str sv?:nat after?:id",
    }),
    "event": ("what", {
        "hand_started": "hand:nat button?:?pos",
        "hand_ended": "hand:nat winners?:dict/nat",
        "bust": "seat:pos chips_start:nat hand?:nat",
        "away": "seat:pos",
        "back": "seat:pos",
        "clock_called": "seat:pos",
        "instruction": "instr:id result:acknowledged|done|refused reason?:str"
                       " stack?:nat",
        "error": "text:str",
    }),
}


class Forged(ProtocolError):
    """The MAC does not match: wrong key, or the frame was altered."""


class Stale(ProtocolError):
    """A replayed frame: an older boot, or a sequence number behind the window."""


# ---------------------------------------------------------------------------
# Field types


def _is_int(v):
    return not isinstance(v, bool) and isinstance(v, int)


def _is_id(v):
    if not isinstance(v, str) or not 0 < len(v) <= 32:
        return False
    for ch in v:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in "._:-"):
            return False
    return True


def _is(v, typ):
    if typ[0] == "?":
        if v is None:
            return True
        typ = typ[1:]
    if "|" in typ:
        return isinstance(v, str) and v in typ.split("|")
    if "/" in typ:
        cont, item = typ.split("/")
        if cont == "list":
            if not isinstance(v, list):
                return False
            for x in v:
                if not _is(x, item):
                    return False
            return True
        if not isinstance(v, dict):
            return False
        for k in v:
            if not _is(v[k], item):
                return False
        return True
    if typ == "int":
        return _is_int(v)
    if typ == "nat":
        return _is_int(v) and v >= 0
    if typ == "pos":
        return _is_int(v) and v >= 1
    if typ == "str":
        return isinstance(v, str)
    if typ == "id":
        return _is_id(v)
    if typ == "bool":
        return isinstance(v, bool)
    if typ == "list":
        return isinstance(v, list)
    if typ == "dict":
        return isinstance(v, dict)
    raise ProtocolError("unknown field type " + typ)  # a bug in the tables above


_WORDS = {
    "int": "a whole number", "nat": "a whole number >= 0", "pos": "a whole number >= 1",
    "str": "text", "id": "an id (1 to 32 letters, digits or . _ : -)", "bool": "true or false",
    "list": "a list", "dict": "an object",
}


def _describe(typ):
    if typ[0] == "?":
        return _describe(typ[1:]) + " or null"
    if "|" in typ:
        return "one of " + ", ".join(typ.split("|"))
    if "/" in typ:
        cont, item = typ.split("/")
        return ("a list of " if cont == "list" else "an object of ") + _describe(item) + " items"
    return _WORDS.get(typ, typ)


def _check_fields(body, spec, what):
    for f in spec.split():
        name, typ = f.split(":")
        if name[-1] == "?":
            name = name[:-1]
            if name not in body:
                continue
        elif name not in body:
            raise ProtocolError('%s needs the field "%s"' % (what, name))
        if not _is(body[name], typ):
            raise ProtocolError('%s: "%s" must be %s' % (what, name, _describe(typ)))


def check_body(kind, body, version=VERSION):  # type: (str, Dict[str, Any], str) -> None
    """Check a message body (a dict without envelope fields) against KINDS."""
    entry = KINDS.get(kind)
    if entry is None:
        if _minor(version) > MINOR:
            raise ProtocolError("unknown message kind %s (sent with protocol %s; this side"
                                " speaks %s)" % (_q(kind), version, VERSION))
        raise ProtocolError("unknown message kind %s" % _q(kind))
    for k in _RESERVED:
        if k in body:
            raise ProtocolError('a message body cannot have the field "%s" (it is part of'
                                ' the envelope)' % k)
    what = "%s %s message" % (_a(kind), kind)
    _check_fields(body, entry[1], what)
    sub = SUBKINDS.get(kind)
    if sub is not None:
        field, table = sub
        spec = table.get(body[field])
        if spec is None and _minor(version) > MINOR:
            raise ProtocolError('%s: unknown %s %s (sent with protocol %s; this side speaks'
                                ' %s)' % (what, field, _q(body[field]), version, VERSION))
        if spec is None:
            raise ProtocolError('%s: unknown %s %s (known: %s)' % (
                what, field, _q(body[field]), ", ".join(sorted(table))))
        _check_fields(body, spec, "%s %s %s" % (_a(body[field]), body[field], kind))


def _minor(version):
    """The minor number of a "major.minor" version string (0 if unreadable)."""
    i = version.find(".")
    m = version[i + 1:] if i >= 0 else ""
    return int(m) if _digits(m) else 0


def _reversed(kind, sender):
    """True for a frame of a BOTH_WAYS kind going against its KINDS direction
    (a box's ping, the host's pong)."""
    return kind in BOTH_WAYS and (KINDS[kind][0] == "box") != (sender == HOST)


def version_of(kind, sender, body=None):  # type: (str, str, Optional[Dict[str, Any]]) -> str
    """The version a sender writes for *kind* (with *body*): BASE, or
    "1.<minor>" for a direction a later minor added (a box's ping, the
    host's pong: "1.1") or a subkind it added (ADDED: "1.2")."""
    if _reversed(kind, sender):
        return "%d.%d" % (MAJOR, BOTH_WAYS[kind])
    sub = SUBKINDS.get(kind)
    if sub is not None and body is not None:
        m = ADDED.get((kind, body.get(sub[0])))
        if m is not None:
            return "%d.%d" % (MAJOR, m)
    return BASE


def _a(word):
    return "an" if word[0] in "aeiou" else "a"


# ---------------------------------------------------------------------------
# Frames


def _check_key(key):
    if not isinstance(key, (bytes, bytearray)) or len(key) < MIN_KEY:
        raise ProtocolError("the key must be at least %d bytes" % MIN_KEY)


def _check_counter(name, v):
    if not _is_int(v) or not 0 <= v <= MAX_COUNTER:
        raise ProtocolError('"%s" must be a whole number from 0 to %d' % (name, MAX_COUNTER))


def _check_address(kind, sender, to):
    if not _is_id(sender):
        raise ProtocolError('"from" must be %s' % _WORDS["id"])
    if to != BROADCAST and not _is_id(to):
        raise ProtocolError('"to" must be %s or "*"' % _WORDS["id"])
    if to == BROADCAST and (KINDS[kind][0] == "box" or sender == HOST) \
            and kind not in _ANYONE:
        raise ProtocolError('%s %s message must be addressed to one box, not to "*"'
                            % (_a(kind), kind))


def _mac_hex(key, unsigned, n):
    """The hex MAC of unsigned[:n] + b"}" (the frame without its MAC)."""
    return hexlify(hmac_sha256(key, (memoryview(unsigned)[:n], b"}")))


def encode(msg, key, seq, sender=HOST, boot=0, to=BROADCAST):
    # type: (Mapping[str, Any], bytes, int, str, int, str) -> bytes
    """The frame (bytes, newline-terminated) carrying *msg*.

    *msg* is a dict with "kind" and the body fields; the envelope fields a
    decoded message carries ("v", "from", "to", "boot", "seq") are ignored,
    so a decoded message can be sent on.  Raises ProtocolError."""
    _check_key(key)
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be an object with a kind")
    kind = msg.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise ProtocolError("unknown message kind %s" % _q(kind))
    _check_counter("seq", seq)
    _check_counter("boot", boot)
    _check_address(kind, sender, to)
    body = {}
    for k in msg:
        if k not in _ENVELOPE:
            body[k] = msg[k]
    check_body(kind, body)
    out = bytearray(('{"v":"%s","kind":"%s","from":"%s","to":"%s","boot":%d,"seq":%d,"body":'
                     % (version_of(kind, sender, body), kind, sender, to, boot, seq)).encode())
    try:
        _enc(body, out, 2, MAX_FRAME - _TAIL_LEN - 1)
    except _TooLarge:
        raise ProtocolError("the %s message is too large (the limit is %d bytes)"
                            % (kind, MAX_FRAME))
    n = len(out)  # the frame up to the body's closing brace
    size = n + _TAIL_LEN + 1
    if size > MAX_FRAME:
        raise ProtocolError("the %s message is too large: %d bytes (the limit is %d)"
                            % (kind, size, MAX_FRAME))
    mac = hexlify(hmac_sha256(key, (out, b"}")))
    out += _TAIL
    out += mac
    out += b'"}\n'
    return bytes(out)


def _version(frame, n, me):
    """The version string at the start of the frame; refuses other majors."""
    if frame[:6] != b'{"v":"':
        raise ProtocolError('not a Table Clock frame (it must start with {"v":")')
    end = frame.find(b'"', 6, min(n, 14))
    if end < 0:
        raise ProtocolError("the protocol version is missing or malformed")
    v = str(frame[6:end], "ascii") if _ascii(frame, 6, end) else ""
    parts = v.split(".")
    if len(parts) != 2 or not _digits(parts[0]) or not _digits(parts[1]):
        raise ProtocolError("the protocol version is missing or malformed")
    if int(parts[0]) != MAJOR:
        raise ProtocolError("protocol version %s is not supported (this %s speaks %d.x)"
                            % (v, "host" if me == HOST else "box", MAJOR))
    return v


def _ascii(b, i, j):
    for k in range(i, j):
        if not 0x20 <= b[k] <= 0x7E:
            return False
    return True


def _digits(s):
    if not 0 < len(s) <= 3:
        return False
    for ch in s:
        if not "0" <= ch <= "9":
            return False
    return True


def decode(frame, key, me=None):  # type: (bytes, bytes, Optional[str]) -> Any
    """The message in *frame* (bytes): the body's fields plus "kind", "v",
    "from", "to", "boot" and "seq".  With *me* (HOST or a box id) only the
    kinds meant for that side and frames addressed to it (or to "*") are
    accepted.  Raises ProtocolError (Forged for a bad MAC)."""
    _check_key(key)
    if isinstance(frame, (bytearray, memoryview)):
        if len(frame) > MAX_FRAME:
            raise ProtocolError("the frame is too large: %d bytes (the limit is %d)"
                                % (len(frame), MAX_FRAME))
        frame = bytes(frame)
    if not isinstance(frame, bytes):
        raise ProtocolError("a frame must be bytes")
    n = len(frame)
    if n > MAX_FRAME:
        raise ProtocolError("the frame is too large: %d bytes (the limit is %d)"
                            % (n, MAX_FRAME))
    if n and frame[n - 1] == 0x0A:
        n -= 1
        if n and frame[n - 1] == 0x0D:
            n -= 1
    version = _version(frame, n, me)
    if n < 6 + _TAIL_LEN or frame[n - _TAIL_LEN:n - 66] != _TAIL or frame[n - 2:n] != b'"}':
        raise ProtocolError('the frame does not end with its MAC (,"mac":"<64 hex digits>"})')
    mac = frame[n - 66:n - 2]
    if not same(mac, _mac_hex(key, frame, n - _TAIL_LEN)):
        raise Forged("bad MAC: the frame was not signed with this key or was altered")
    env = parse(frame, n)
    if not isinstance(env, dict) or env.get("mac") != str(mac, "ascii"):
        raise ProtocolError("malformed frame: the MAC is not the last field")
    kind = env.get("kind")
    if not isinstance(kind, str):
        raise ProtocolError('the frame needs a "kind" (text)')
    if not isinstance(env.get("body"), dict):
        raise ProtocolError('the frame needs a "body" (an object)')
    sender = env.get("from")
    to = env.get("to")
    _check_counter("boot", env.get("boot"))
    _check_counter("seq", env.get("seq"))
    msg = env["body"]
    check_body(kind, msg, version)
    _check_address(kind, sender, to)
    if me is not None:
        side = KINDS[kind][0]
        if (side == "host") != (me == HOST) and kind not in BOTH_WAYS:
            raise ProtocolError("%s %s message is for %s, not for %s" % (
                _a(kind), kind, "the host" if side == "host" else "a box",
                "the host" if me == HOST else "a box"))
        if to != me and to != BROADCAST:
            raise ProtocolError("the frame is addressed to %s, not to %s" % (to, me))
    msg["kind"] = kind
    msg["v"] = version
    msg["from"] = sender
    msg["to"] = to
    msg["boot"] = env["boot"]
    msg["seq"] = env["seq"]
    return msg


class Sender:
    """Numbers the frames of one sender: seq 1, 2, 3, ... within a boot."""

    def __init__(self, key, sender=HOST, boot=0, seq=0):  # type: (bytes, str, int, int) -> None
        _check_key(key)
        self.key = key
        self.sender = sender
        self.boot = boot
        self.seq = seq

    def encode(self, msg, to=BROADCAST):  # type: (Mapping[str, Any], str) -> bytes
        if self.seq >= MAX_COUNTER:
            raise ProtocolError("sequence numbers are used up: start a new boot")
        frame = encode(msg, self.key, self.seq + 1, self.sender, self.boot, to)
        self.seq += 1
        return frame


class Receiver:
    """Decodes frames and refuses replays, per sender (IPsec-style window).

    For each sender it keeps the boot counter, the highest sequence number
    seen and a WINDOW-bit map of the sequence numbers just below it.  A newer
    boot resets the window; an older boot, or a sequence number WINDOW or more
    behind the highest, is Stale; a sequence number already seen is a
    duplicate (accept() returns None).  Counters: accepted, duplicates,
    stale, forged, invalid."""

    def __init__(self, key, me=None, max_peers=16):  # type: (bytes, Optional[str], int) -> None
        _check_key(key)
        self.key = key
        self.me = me
        self.max_peers = max_peers
        # sender: [boot, highest seq, bytearray bitmap by seq % WINDOW]
        self.peers = {}  # type: Dict[str, List[Any]]
        self.accepted = 0
        self.duplicates = 0
        self.stale = 0
        self.forged = 0
        self.invalid = 0

    def accept(self, frame):  # type: (bytes) -> Any
        """The decoded message, or None for a duplicate.  Raises ProtocolError."""
        try:
            msg = decode(frame, self.key, self.me)
        except Forged:
            self.forged += 1
            raise
        except ProtocolError:
            self.invalid += 1
            raise
        sender = msg["from"]
        boot = msg["boot"]
        seq = msg["seq"]
        peer = self.peers.get(sender)
        if peer is None:
            if len(self.peers) >= self.max_peers:
                self.invalid += 1
                raise ProtocolError("too many senders (%d): frame from %s refused"
                                    % (self.max_peers, sender))
            peer = [boot, seq, bytearray(WINDOW // 8)]
            self.peers[sender] = peer
        elif boot < peer[0]:
            self.stale += 1
            raise Stale("stale frame from %s: boot %d is older than its boot %d (a replay?)"
                        % (sender, boot, peer[0]))
        elif boot > peer[0]:  # the peer restarted
            peer[0] = boot
            peer[1] = seq
            _clear(peer[2])
        elif seq > peer[1]:
            top = peer[1]
            if seq - top >= WINDOW:
                _clear(peer[2])
            else:
                for s in range(top + 1, seq):
                    _unmark(peer[2], s)
            peer[1] = seq
        elif peer[1] - seq >= WINDOW:
            self.stale += 1
            raise Stale("stale frame from %s: seq %d is %d or more behind its newest (%d)"
                        % (sender, seq, WINDOW, peer[1]))
        elif _seen(peer[2], seq):
            self.duplicates += 1
            return None
        _mark(peer[2], seq)
        self.accepted += 1
        return msg

    def pin(self, sender, boot, seq):  # type: (str, int, int) -> None
        """Start *sender*'s window at (boot, seq), everything up to seq counting
        as seen (e.g. after a config that echoed this box's hello nonce)."""
        peer = self.peers.get(sender)
        if peer is None:
            peer = [0, 0, bytearray(WINDOW // 8)]
            self.peers[sender] = peer
        peer[0] = boot
        peer[1] = seq
        bits = peer[2]
        for i in range(len(bits)):
            bits[i] = 0xFF

    def forget(self, sender):  # type: (str) -> None
        """Drop *sender*'s window (its next frame is accepted whatever its numbers)."""
        if sender in self.peers:
            del self.peers[sender]


def _clear(bits):
    for i in range(len(bits)):
        bits[i] = 0


def _mark(bits, seq):
    s = seq % WINDOW
    bits[s >> 3] |= 1 << (s & 7)


def _unmark(bits, seq):
    s = seq % WINDOW
    bits[s >> 3] &= 0xFF ^ (1 << (s & 7))


def _seen(bits, seq):
    s = seq % WINDOW
    return bits[s >> 3] & (1 << (s & 7)) != 0
