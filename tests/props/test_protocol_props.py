"""Property tests of the wire protocol (CPython only): docs/protocol.md, tableclock.protocol.

(a) HMAC-SHA256 equals CPython's hmac on random keys and messages (also fed in parts).
(b) canonical() equals json.dumps(sort_keys=True, separators=(",", ":")) (ensure_ascii), and
    parse() reads back what canonical() and json.dumps write.
(c) Random valid messages, built from the schema tables themselves, round-trip through
    encode()/decode(), and the frame is what CPython's json + hmac give for the same envelope.
(d) decode() and Receiver.accept() raise nothing but ProtocolError on random bytes, on mutated
    frames, and on correctly signed frames with random (often invalid) contents.
(e) The Receiver's window agrees with a simple set-based model of the same rules.
(f) docs/protocol.md: its test vectors are the portable test's, its examples are valid messages.
"""

import hashlib
import hmac
import json
import os
import re

from hypothesis import assume, given, settings, strategies as st

import test_protocol  # tests/core/test_protocol.py (portable test vectors)
from tableclock.canonjson import MAX_INT, ProtocolError, canonical, parse
from tableclock.hmac256 import hmac_sha256
from tableclock.protocol import (
    ADDED,
    KINDS,
    MAX_FRAME,
    SUBKINDS,
    WINDOW,
    Receiver,
    Stale,
    check_body,
    decode,
    encode,
    version_of,
)

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "protocol.md")
KEY = bytes(range(32))
RESERVED = ("v", "kind", "from", "to", "boot", "seq", "body", "mac")


def _sign(key, unsigned):
    mac = hmac.new(key, unsigned, hashlib.sha256).hexdigest().encode()
    return unsigned[:-1] + b',"mac":"' + mac + b'"}\n'


# ---------------------------------------------------------------------------
# (a) HMAC


@given(st.binary(max_size=200), st.binary(max_size=600), st.data())
def test_hmac_matches_cpython(key, msg, data):
    want = hmac.new(key, msg, hashlib.sha256).digest()
    assert hmac_sha256(key, msg) == want
    cut = data.draw(st.integers(0, len(msg)))
    assert hmac_sha256(key, [msg[:cut], memoryview(msg)[cut:]]) == want


# ---------------------------------------------------------------------------
# (b) canonical JSON

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)  # no lone surrogates
ints = st.integers(-MAX_INT + 1, MAX_INT - 1) | st.sampled_from([0, -1, MAX_INT - 1])
scalars = st.none() | st.booleans() | ints | text
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(text, inner, max_size=5),
    max_leaves=25)


def _depth(v):
    if isinstance(v, list):
        return 1 + max([_depth(x) for x in v] or [0])
    if isinstance(v, dict):
        return 1 + max([_depth(x) for x in v.values()] or [0])
    return 0


@given(values)
def test_canonical_is_cpython_json_dumps(v):
    assume(_depth(v) <= 8)
    want = json.dumps(v, sort_keys=True, separators=(",", ":")).encode()
    assert canonical(v) == want
    assert parse(want) == v
    assert parse(json.dumps(v).encode()) == v  # ", " and ": " separators


@given(st.recursive(scalars | st.floats(), lambda inner: st.lists(inner, max_size=3),
                    max_leaves=6))
def test_canonical_refuses_floats_anywhere(v):
    try:
        out = canonical(v)
    except ProtocolError as e:
        assert "whole" in str(e)
    else:
        assert not _has_float(v)
        assert json.loads(out) == v
    if _has_float(v):
        try:
            canonical(v)
        except ProtocolError:
            return
        raise AssertionError("a float was encoded")


def _has_float(v):
    if isinstance(v, float):
        return True
    return isinstance(v, list) and any(_has_float(x) for x in v)


@given(st.binary(max_size=64))
def test_parse_never_raises_anything_else(b):
    try:
        v = parse(b)
    except ProtocolError:
        return
    assert json.loads(b) == v  # what it accepts, CPython's json reads the same


# ---------------------------------------------------------------------------
# (c) round trips of random valid messages, built from KINDS/SUBKINDS

ids = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-", min_size=1,
              max_size=32)
BASE = {"int": ints, "nat": st.integers(0, MAX_INT - 1), "pos": st.integers(1, MAX_INT - 1),
        "str": text, "id": ids, "bool": st.booleans(),
        "list": st.lists(scalars, max_size=3), "dict": st.dictionaries(text, values, max_size=3)}


def _strategy(typ):
    if typ[0] == "?":
        return st.none() | _strategy(typ[1:])
    if "|" in typ:
        return st.sampled_from(typ.split("|"))
    if "/" in typ:
        cont, item = typ.split("/")
        if cont == "list":
            return st.lists(_strategy(item), max_size=3)
        return st.dictionaries(text, _strategy(item), max_size=3)
    return BASE[typ]


@st.composite
def _fields(draw, spec):
    out = {}
    for f in spec.split():
        name, typ = f.split(":")
        if name.endswith("?"):
            if not draw(st.booleans()):
                continue
            name = name[:-1]
        out[name] = draw(_strategy(typ))
    return out


@st.composite
def messages(draw):
    kind = draw(st.sampled_from(sorted(KINDS)))
    msg = draw(_fields(KINDS[kind][1]))
    if kind in SUBKINDS:
        field, table = SUBKINDS[kind]
        msg[field] = draw(st.sampled_from(sorted(table)))
        msg.update(draw(_fields(table[msg[field]])))
    extra = draw(st.dictionaries(text.filter(lambda k: k not in RESERVED and k not in msg),
                                 values, max_size=2))
    msg.update(extra)
    msg["kind"] = kind
    return msg


@settings(max_examples=300)
@given(messages(), st.binary(min_size=16, max_size=100), st.integers(0, 2**31 - 1),
       st.integers(0, 2**31 - 1), ids, ids)
def test_round_trip_random_messages(msg, key, seq, boot, sender, box):
    assume(_depth(msg) <= 7)
    to_box = KINDS[msg["kind"]][0] == "box"
    to = box if to_box else "host"
    try:
        frame = encode(msg, key, seq, sender, boot, to)
    except ProtocolError as e:
        assert "too large" in str(e)
        return
    assert len(frame) <= MAX_FRAME and frame.endswith(b"}\n") and frame.count(b"\n") == 1
    frame.decode("ascii")
    got = decode(frame, key, to if to_box else "host")
    # 1.1 added a box's ping and the host's pong; everything else is still written 1.0
    newer = ((msg["kind"] == "ping" and sender != "host")
             or (msg["kind"] == "pong" and sender == "host"))
    sub = SUBKINDS.get(msg["kind"])
    added = ADDED.get((msg["kind"], msg.get(sub[0]))) if sub else None  # 1.2: withdraw, deduct
    v = "1.1" if newer else ("1.%d" % added if added else "1.0")
    assert version_of(msg["kind"], sender, msg) == v
    want = dict(msg, v=v, to=to, boot=boot, seq=seq)
    want["from"] = sender
    assert got == want
    # the same bytes from CPython's json and hmac
    body = {k: msg[k] for k in msg if k != "kind"}
    unsigned = ('{"v":"%s","kind":"%s","from":"%s","to":"%s","boot":%d,"seq":%d,"body":%s}'
                % (v, msg["kind"], sender, to, boot, seq,
                   json.dumps(body, sort_keys=True, separators=(",", ":")))).encode()
    assert frame == _sign(key, unsigned)


# ---------------------------------------------------------------------------
# (d) fuzzing decode


def _decode_only_protocol_errors(frame, me=None):
    try:
        decode(frame, KEY, me)
    except ProtocolError:
        pass


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_decode_random_bytes(b):
    _decode_only_protocol_errors(b)
    _decode_only_protocol_errors(b'{"v":"1.0",' + b)
    rx = Receiver(KEY, "tc-01")
    try:
        rx.accept(b)
    except ProtocolError:
        pass


VALID = [v[6] for v in test_protocol.VECTORS if v[0] == KEY]


@settings(max_examples=300)
@given(st.sampled_from(VALID), st.data())
def test_decode_mutated_frames(frame, data):
    b = bytearray(frame)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        i = data.draw(st.integers(0, max(len(b) - 1, 0)))
        if op == "flip" and b:
            b[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "insert":
            b.insert(i, data.draw(st.integers(0, 255)))
        elif b:
            del b[i]
    if bytes(b) != frame:
        try:
            decode(bytes(b), KEY)
        except ProtocolError:
            return
        # only a change that keeps the same JSON can survive: e.g. the newline
        assert bytes(b).rstrip(b"\r\n") == frame.rstrip(b"\n")


json_ish = st.text(st.sampled_from('{}[]":,.-+0123456789eE tfnrulasx\\/u\x7f\x00\xe9\t'),
                   max_size=60)
junk_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=10)


@settings(max_examples=400)
@given(st.sampled_from(sorted(KINDS) + ["nope", ""]), json_ish | junk_values.map(json.dumps),
       st.sampled_from(["1.0", "1.9", "2.0", "1", "x"]),
       st.sampled_from(['"host"', '"tc-01"', '"*"', '""', "5", "null"]),
       st.sampled_from(["0", "-1", "2147483648", "true", "1.0", '"3"']))
def test_decode_signed_junk(kind, body, v, to, num):
    """Correctly signed frames whose contents are anything: never a crash."""
    unsigned = ('{"v":"%s","kind":"%s","from":"host","to":%s,"boot":%s,"seq":1,"body":%s}'
                % (v, kind, to, num, body)).encode("utf-8", "surrogatepass")
    frame = _sign(KEY, unsigned)
    for me in (None, "host", "tc-01"):
        _decode_only_protocol_errors(frame, me)


@given(messages(), st.sampled_from([None, "host", "tc-01"]))
def test_decode_signed_schema_violations(msg, me):
    """Valid JSON, wrong fields: drop one field or change its type."""
    body = {k: msg[k] for k in msg if k != "kind"}
    if body:
        k = sorted(body)[0]
        body[k] = [body[k]]
    unsigned = ('{"v":"1.0","kind":"%s","from":"host","to":"tc-01","boot":0,"seq":1,"body":%s}'
                % (msg["kind"], json.dumps(body))).encode()
    _decode_only_protocol_errors(_sign(KEY, unsigned), me)


# ---------------------------------------------------------------------------
# (e) the replay window against a model


class Model:
    def __init__(self):
        self.peers = {}

    def accept(self, sender, boot, seq):
        p = self.peers.get(sender)
        if p is None or boot > p["boot"]:
            self.peers[sender] = {"boot": boot, "top": seq, "seen": {seq}}
            return "ok"
        if boot < p["boot"]:
            return "stale"
        if seq <= p["top"] - WINDOW:
            return "stale"
        if seq in p["seen"]:
            return "dup"
        p["seen"].add(seq)
        p["top"] = max(p["top"], seq)
        p["seen"] = {s for s in p["seen"] if s > p["top"] - WINDOW}
        return "ok"


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(["host", "h2"]), st.integers(0, 3),
                          st.integers(0, 3 * WINDOW)), max_size=80))
def test_receiver_matches_model(frames):
    rx = Receiver(KEY)
    model = Model()
    for sender, boot, seq in frames:
        want = model.accept(sender, boot, seq)
        try:
            got = "ok" if rx.accept(encode({"kind": "ping"}, KEY, seq, sender, boot)) else "dup"
        except Stale:
            got = "stale"
        assert got == want, (sender, boot, seq)
    assert rx.accepted + rx.duplicates + rx.stale == len(frames)


# ---------------------------------------------------------------------------
# (f) docs/protocol.md


def _doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def test_doc_vectors_are_the_portable_tests_and_cpython_agrees():
    doc = _doc()
    found = re.findall(r"key `([0-9a-f]+)` *\n`encode\(.*\)`\n\n```text\n(.+?)\n```", doc)
    assert len(found) == len(test_protocol.VECTORS)
    for (key_hex, line), vec in zip(found, test_protocol.VECTORS):
        key, msg, seq, sender, boot, to, frame = vec
        assert bytes.fromhex(key_hex) == key
        assert line.encode() + b"\n" == frame
        env = json.loads(line)
        assert list(env) == ["v", "kind", "from", "to", "boot", "seq", "body", "mac"]
        unsigned = line[:line.rindex(',"mac":')] + "}"
        assert hmac.new(key, unsigned.encode(), hashlib.sha256).hexdigest() == env["mac"]
        assert env["body"] == {k: msg[k] for k in msg if k != "kind"}
        assert json.dumps(env["body"], sort_keys=True, separators=(",", ":")) in line


def test_doc_examples_are_valid_messages():
    doc = _doc()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    seen = set()
    for block in blocks:
        for line in block.splitlines():
            msg = json.loads(line)
            kind = msg.pop("kind")
            check_body(kind, msg)
            seen.add(kind)
            if kind in SUBKINDS:
                field = SUBKINDS[kind][0]
                seen.add(kind + ":" + msg[field])
    want = set(KINDS)
    for kind in SUBKINDS:
        field, table = SUBKINDS[kind]
        want.update(kind + ":" + v for v in table)
    missing = want - seen
    # hand_for_hand_stop etc. each have an example; every kind and subkind is covered
    assert not missing, missing


def test_doc_mentions_every_kind_in_its_tables():
    doc = _doc()
    for kind in KINDS:
        assert "| `%s` |" % kind in doc, kind
    for kind in SUBKINDS:
        for v in SUBKINDS[kind][1]:
            assert "`%s`" % v in doc, v
