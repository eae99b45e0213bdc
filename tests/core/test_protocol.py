"""The wire protocol (docs/protocol.md): HMAC, canonical JSON, frames, replay window.

Portable: runs under pytest and under tests/mpy_runner.py (MicroPython), and
the test vectors must come out byte for byte the same on both.
"""

from binascii import hexlify, unhexlify

from tableclock.canonjson import ProtocolError, canonical, parse
from tableclock.hmac256 import hmac_sha256, same, sha256
from tableclock.protocol import (
    ADDED,
    BOTH_WAYS,
    KINDS,
    MAX_FRAME,
    SUBKINDS,
    VERSION,
    WINDOW,
    Forged,
    Receiver,
    Sender,
    Stale,
    box_key,
    check_body,
    decode,
    encode,
    version_of,
)
from tc_util import table

KEY = bytes(range(32))
KEY2 = b"table-clock-test-key-" * 4  # 84 bytes: longer than a block, hashed first


def _raises(exc, fn, *args):
    """The exception *fn(*args)* raises (it must be an *exc*)."""
    try:
        fn(*args)
    except exc as e:
        return e
    raise AssertionError("no %s from %r" % (exc.__name__, args))


def _sign(key, unsigned):
    """A frame from hand-made bytes *unsigned* (the frame without its MAC,
    ending with "}"): for frames encode() would never produce."""
    mac = hexlify(hmac_sha256(key, unsigned))
    return unsigned[:-1] + b',"mac":"' + mac + b'"}\n'


def _env(kind, body, v="1.0", sender="host", to="tc-01", boot=0, seq=1, extra=""):
    return ('{"v":"%s","kind":"%s","from":"%s","to":"%s","boot":%d,"seq":%d%s,"body":%s}'
            % (v, kind, sender, to, boot, seq, extra, body)).encode()


# ---------------------------------------------------------------------------
# HMAC-SHA256: RFC 4231 test cases 1-4, 6, 7

RFC4231 = [
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131,
     b"This is a test using a larger than block-size key and a larger than block-size data."
     b" The key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]


def test_sha256_abc():
    h = sha256()
    h.update(b"abc")
    assert hexlify(h.digest()) == (
        b"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


def test_hmac_rfc4231_vectors():
    for key, data, want in RFC4231:
        assert hexlify(hmac_sha256(key, data)) == want.encode()


def test_box_key_is_the_event_keys_hmac_of_the_box_id():
    # CPython: hmac.new(bytes(range(32)), b"tc-box-key:tc-01", "sha256") (docs/protocol.md)
    key = bytes(range(32))
    assert hexlify(box_key(key, "tc-01")) == (
        b"204225e698b82e6225d686507cd4eb21a0b040ae7e61641238e2cb6e9541c7ba")
    assert box_key(key, "tc-02") != box_key(key, "tc-01") != key


def test_hmac_of_parts_is_hmac_of_concatenation():
    key, data, want = RFC4231[5]
    parts = (data[:10], memoryview(data)[10:77], data[77:])
    assert hexlify(hmac_sha256(key, parts)) == want.encode()
    assert hmac_sha256(key, [b"", data]) == hmac_sha256(key, data)


def test_same_compares_bytes():
    assert same(b"abc", b"abc")
    assert not same(b"abc", b"abd")
    assert not same(b"abc", b"ab")
    assert same(b"", b"")


def test_hexlify_is_lowercase_and_round_trips():
    assert hexlify(bytes([0, 15, 171, 255])) == b"000fabff"
    assert unhexlify("000fabff") == bytes([0, 15, 171, 255])


# ---------------------------------------------------------------------------
# Canonical JSON


def test_canonical_sorts_keys_without_spaces():
    assert canonical({"b": 1, "a": [True, False, None], "c": {"z": "", "y": -3}}) == (
        b'{"a":[true,false,null],"b":1,"c":{"y":-3,"z":""}}')
    assert canonical([]) == b"[]" and canonical({}) == b"{}"
    assert canonical((1, 2)) == b"[1,2]"


def test_canonical_escapes_like_json_dumps_ensure_ascii():
    s = 'q" b\\ n\n r\r t\t b\b f\f nul\x00 us\x1f del\x7f e\u00e9 \u20ac \U0001F600'
    assert canonical(s) == (
        b'"q\\" b\\\\ n\\n r\\r t\\t b\\b f\\f nul\\u0000 us\\u001f del\\u007f'
        b' e\\u00e9 \\u20ac \\ud83d\\ude00"')
    assert canonical({"\u00e9": 1, "z": 2, "a": 3}) == b'{"a":3,"z":2,"\\u00e9":1}'


def test_canonical_refuses_what_json_cannot_carry_exactly():
    assert "whole" in str(_raises(ProtocolError, canonical, 1.5))
    assert "whole" in str(_raises(ProtocolError, canonical, {"a": [0.0]}))
    assert "keys must be text" in str(_raises(ProtocolError, canonical, {1: 2}))
    assert "too large" in str(_raises(ProtocolError, canonical, 10**16))
    assert canonical(10**16 - 1) == b"9999999999999999"
    assert canonical(-(10**16) + 1) == b"-9999999999999999"
    _raises(ProtocolError, canonical, b"bytes")
    _raises(ProtocolError, canonical, {"a": {1}})
    deep = []
    for _ in range(8):
        deep = [deep]
    assert "deeply" in str(_raises(ProtocolError, canonical, deep))
    assert canonical(deep[0]) == b"[" * 8 + b"]" * 8


def test_parse_reads_json_integers_only():
    assert parse(b' {"a": [1, -2, 0, true, false, null, "x\\u00E9\\/\\n"] , "b" : {}} ') == {
        "a": [1, -2, 0, True, False, None, "x\u00e9/\n"], "b": {}}
    assert parse(b'"\\ud83d\\ude00"') == "\U0001F600"
    assert parse(b"9999999999999999") == 9999999999999999
    for bad in [b"1.5", b"1e3", b"-", b"01", b"[1,]", b'{"a":1,}', b'{"a":1,"a":2}', b"[1] 2",
                b'"\\ud83d"', b'"\\ude00"', b'"\\ud83dx"', b'"\\x"', b'"\x01"', b'"\xc3\xa9"',
                b"NaN", b"Infinity", b"[\t1]", b'{"a"}', b'{1:2}', b"tru", b"", b"   ",
                b"99999999999999999", b"[" * 9 + b"]" * 9, b'"abc', b'"\\u12']:
        assert "malformed" in str(_raises(ProtocolError, parse, bad)), bad
    assert parse(b"[" * 8 + b"]" * 8) == [[[[[[[[]]]]]]]]


# ---------------------------------------------------------------------------
# Test vectors (the same as in docs/protocol.md)

VECTORS = [
    (KEY, {"kind": "ping"}, 1, "host", 0, "*",
     b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":1,"body":{},'
     b'"mac":"ba0bec2c9646f8559ca48a534536a9e878a67b22554a9031b7e46051cdf29afe"}\n'),
    (KEY, {"kind": "clock", "level_index": 3, "ms_left": 754000, "paused": False,
           "host_ms": 1717171717000}, 42, "host", 5, "tc-01",
     b'{"v":"1.0","kind":"clock","from":"host","to":"tc-01","boot":5,"seq":42,"body":'
     b'{"host_ms":1717171717000,"level_index":3,"ms_left":754000,"paused":false},'
     b'"mac":"77f5e33793b844803ba1d89ff8187e2e3b7d2ce682213b71994a30f85494c018"}\n'),
    (KEY2, {"kind": "seating", "names": {"1": "Zo\u00eb", "4": 'O\'Brien "OB"',
                                         "7": "\U0001F0A1 Ace"},
            "stacks": {"1": 12000, "4": 8500}, "button": 7}, 43, "host", 5, "tc-01",
     b'{"v":"1.0","kind":"seating","from":"host","to":"tc-01","boot":5,"seq":43,"body":'
     b'{"button":7,"names":{"1":"Zo\\u00eb","4":"O\'Brien \\"OB\\"","7":"\\ud83c\\udca1 Ace"},'
     b'"stacks":{"1":12000,"4":8500}},'
     b'"mac":"5c73e47de97f8b50ed8df977c22a1571f9bf7b66a82100bca94830f47ed0721c"}\n'),
    (KEY, {"kind": "event", "id": "7-3", "what": "bust", "seat": 4, "chips_start": 3500,
           "hand": 57}, 3, "tc-01", 7, "host",
     b'{"v":"1.0","kind":"event","from":"tc-01","to":"host","boot":7,"seq":3,"body":'
     b'{"chips_start":3500,"hand":57,"id":"7-3","seat":4,"what":"bust"},'
     b'"mac":"527c597d37c12842dbccc0064e3df611f0ebd5f797ad8c9802d7452dbe86e406"}\n'),
    (KEY, {"kind": "instruction", "id": "i-12", "action": "move_out", "seat": 3, "to_table": 5,
           "to_seat": 8}, 44, "host", 5, "tc-01",
     b'{"v":"1.0","kind":"instruction","from":"host","to":"tc-01","boot":5,"seq":44,"body":'
     b'{"action":"move_out","id":"i-12","seat":3,"to_seat":8,"to_table":5},'
     b'"mac":"be3b474eade0dfa7b5dd774e5cecc4c1bf589e629d367059dfdadc5f8df469db"}\n'),
    (KEY, {"kind": "pair", "key": "000102030405060708090a0b0c0d0e0f"
                                  "101112131415161718191a1b1c1d1e1f",
           "key_id": "ev1-k1", "table": 4, "event": "WPH Spring",
           "settings": {"wifi_ssid": "club", "mqtt_host": "td.local", "mqtt_port": 1883}},
     1, "host", 0, "*",
     b'{"v":"1.0","kind":"pair","from":"host","to":"*","boot":0,"seq":1,"body":'
     b'{"event":"WPH Spring","key":"000102030405060708090a0b0c0d0e0f10111213141516171819'
     b'1a1b1c1d1e1f","key_id":"ev1-k1","settings":{"mqtt_host":"td.local","mqtt_port":1883,'
     b'"wifi_ssid":"club"},"table":4},'
     b'"mac":"a0c7b80e4542c93207d217ae947a874107ccad95c804faa1e62fe7f38aa51ca3"}\n'),
    # 1.1: the host answers a box's ping with its clock (written "1.1")
    (KEY, {"kind": "pong", "t": 8812, "host_ms": 1717171717000}, 45, "host", 5, "tc-01",
     b'{"v":"1.1","kind":"pong","from":"host","to":"tc-01","boot":5,"seq":45,"body":'
     b'{"host_ms":1717171717000,"t":8812},'
     b'"mac":"7159aabd4158569b86ef21cad86f343fa5eb61b02c7102883d726b17cccdb407"}\n'),
    # 1.2: the host calls an instruction off (written "1.2")
    (KEY, {"kind": "instruction", "id": "i-51", "action": "withdraw", "instr": "i-41"},
     46, "host", 5, "tc-01",
     b'{"v":"1.2","kind":"instruction","from":"host","to":"tc-01","boot":5,"seq":46,"body":'
     b'{"action":"withdraw","id":"i-51","instr":"i-41"},'
     b'"mac":"3566e0c7b2a0bb34eeef08ade0d38cd456eca7eb7a650bbba568f7520ce6882e"}\n'),
]


def _written(msg):
    """The version a vector's frame carries: 1.1 for the host's pong, 1.2
    for a withdraw, else 1.0."""
    if msg["kind"] == "pong":
        return "1.1"
    return "1.2" if msg.get("action") == "withdraw" else "1.0"


def test_vectors_encode_byte_for_byte():
    for key, msg, seq, sender, boot, to, frame in VECTORS:
        assert encode(msg, key, seq, sender, boot, to) == frame, msg["kind"]


def test_vectors_decode_to_the_message_and_envelope():
    for key, msg, seq, sender, boot, to, frame in VECTORS:
        got = decode(frame, key)
        want = dict(msg)
        want["v"] = _written(msg)
        want["from"] = sender
        want["to"] = to
        want["boot"] = boot
        want["seq"] = seq
        assert got == want, msg["kind"]
        # a decoded message can be sent on: the envelope fields are ignored
        assert encode(got, key, seq, sender, boot, to) == frame


def test_the_simplest_message():
    frame = encode({"kind": "ping"}, KEY, 1)
    assert frame.endswith(b"}\n") and frame.count(b"\n") == 1
    assert decode(frame, KEY)["kind"] == "ping"
    assert frame == VECTORS[0][6]


# ---------------------------------------------------------------------------
# Decoding: refusals


def test_decode_accepts_crlf_or_no_newline_and_bytearray():
    frame = VECTORS[1][6]
    assert decode(frame[:-1], KEY)["seq"] == 42
    assert decode(frame[:-1] + b"\r\n", KEY)["seq"] == 42
    assert decode(bytearray(frame), KEY)["seq"] == 42
    assert decode(memoryview(frame), KEY)["seq"] == 42


def test_a_forged_or_altered_frame_is_refused():
    frame = VECTORS[1][6]
    assert isinstance(_raises(Forged, decode, frame, KEY2), ProtocolError)
    altered = frame.replace(b'"ms_left":754000', b'"ms_left":954000')
    assert "bad MAC" in str(_raises(Forged, decode, altered, KEY))
    upper = frame[:-66] + frame[-66:-3].upper() + frame[-3:]
    _raises(Forged, decode, upper, KEY)
    for bad in [b"", b"\n", b"hello\n", frame[:-40], b"x" * 100, frame.replace(b'"mac"', b'"MAC"'),
                b'{"v":"1.0"}', frame[:20]]:
        assert not isinstance(_raises(ProtocolError, decode, bad, KEY), Forged), bad


def test_unknown_major_version_refused_clearly():
    frame = _sign(KEY, _env("ping", "{}", v="2.0"))
    e = _raises(ProtocolError, decode, frame, KEY)
    assert str(e) == "protocol version 2.0 is not supported (this box speaks 1.x)"
    e = _raises(ProtocolError, decode, frame, KEY, "host")
    assert str(e) == "protocol version 2.0 is not supported (this host speaks 1.x)"
    # refused before the MAC is even looked at: whatever 2.x frames look like
    assert "2.0 is not supported" in str(_raises(ProtocolError, decode, b'{"v":"2.0"}\n', KEY))
    for v in ["1", "1.x", "", "1.0.0", "01234.1", "a.b"]:
        frame = _sign(KEY, _env("ping", "{}", v=v))
        assert "version" in str(_raises(ProtocolError, decode, frame, KEY)), v


def test_newer_minor_version_fields_are_kept():
    frame = _sign(KEY, _env("clock", '{"level_index":1,"ms_left":5,"paused":true,"host_ms":9,'
                                     '"drift_ms":-3,"extra":{"x":[1]}}',
                            v="1.7", extra=',"ttl":30'))
    msg = decode(frame, KEY, "tc-01")
    assert msg["v"] == "1.7" and msg["drift_ms"] == -3 and msg["extra"] == {"x": [1]}
    assert msg["paused"] is True and "ttl" not in msg
    # a kind this side does not know is still refused, saying why
    frame = _sign(KEY, _env("teleport", "{}", v="1.7"))
    e = _raises(ProtocolError, decode, frame, KEY)
    assert "unknown message kind" in str(e) and "1.7" in str(e)


def test_oversize_frames_are_refused_before_parsing():
    big = b"{" * (MAX_FRAME + 1)
    assert "too large" in str(_raises(ProtocolError, decode, big, KEY))
    assert "too large" in str(_raises(ProtocolError, decode, bytearray(big), KEY))
    names = {}
    for s in range(1, 11):
        names[str(s)] = "x" * 400
    e = _raises(ProtocolError, encode, {"kind": "seating", "names": names}, KEY, 1, "host", 0,
                "tc-01")
    assert "too large" in str(e)


def test_signed_but_malformed_frames_are_refused():
    for body in ['{"a":1.5}', '{"a":1e2}', '{"a":NaN}', '{"a":1,"a":2}', '{"a":"\\ud800"}',
                 '{"a":' + "[" * 7 + "]" * 7 + "}", '{"a":"\xe9"}', '{"a":"\t"}', '[]', '"x"',
                 '{"kind":"clock"}', '{"seq":3}', '{"mac":"00"}', '{"body":{}}']:
        frame = _sign(KEY, _env("ping", body))
        e = _raises(ProtocolError, decode, frame, KEY)
        assert not isinstance(e, Forged), body
    # the envelope itself
    for unsigned in [
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":1}',
        b'{"v":"1.0","kind":5,"from":"host","to":"*","boot":0,"seq":1,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"h st","to":"*","boot":0,"seq":1,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"","boot":0,"seq":1,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":-1,"seq":1,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":2147483648,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":true,"body":{}}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":1,"body":{},"mac":"0"}',
        b'{"v":"1.0","kind":"ping","from":"host","to":"*","boot":0,"seq":1,"body":{}} ',
    ]:
        _raises(ProtocolError, decode, _sign(KEY, unsigned), KEY)


def test_schema_is_checked_on_both_sides():
    good = {"kind": "clock", "level_index": 0, "ms_left": 1000, "paused": False, "host_ms": 0}
    assert decode(encode(good, KEY, 1, "host", 0, "tc-01"), KEY)["ms_left"] == 1000
    for field, value, words in [("ms_left", -1, ">= 0"), ("paused", 0, "true or false"),
                                ("level_index", True, "whole number"),
                                ("host_ms", None, "whole number")]:
        bad = dict(good)
        bad[field] = value
        e = _raises(ProtocolError, encode, bad, KEY, 1, "host", 0, "tc-01")
        assert field in str(e) and words in str(e), str(e)
        body = canonical(dict((k, bad[k]) for k in bad if k != "kind")).decode()
        _raises(ProtocolError, decode, _sign(KEY, _env("clock", body)), KEY)
    bad = dict(good)
    del bad["paused"]
    assert 'needs the field "paused"' in str(_raises(ProtocolError, encode, bad, KEY, 1, "host",
                                                     0, "tc-01"))
    e = _raises(ProtocolError, encode, {"kind": "instruction", "id": "i1", "action": "fly"}, KEY,
                1, "host", 0, "tc-01")
    assert "unknown action" in str(e) and "move_out" in str(e)
    e = _raises(ProtocolError, encode, {"kind": "instruction", "id": "i1", "action": "move_out",
                                        "seat": 2}, KEY, 1, "host", 0, "tc-01")
    assert '"to_table"' in str(e)
    e = _raises(ProtocolError, encode, {"kind": "event", "id": "1-1", "what": "instruction",
                                        "instr": "i1", "result": "maybe"}, KEY, 1, "tc-01", 1)
    assert "acknowledged, done, refused" in str(e)
    _raises(ProtocolError, encode, {"kind": "ack", "ids": ["1-1", ""]}, KEY, 1, "host", 0, "tc-1")
    _raises(ProtocolError, encode, {"kind": "ping", "mac": "x"}, KEY, 1)
    _raises(ProtocolError, encode, {"kind": "ping", "body": {}}, KEY, 1)
    _raises(ProtocolError, encode, {"kind": "nope"}, KEY, 1)
    _raises(ProtocolError, encode, {"no": "kind"}, KEY, 1)
    _raises(ProtocolError, encode, "ping", KEY, 1)
    _raises(ProtocolError, encode, {"kind": "ping", "t": 0.5}, KEY, 1)
    _raises(ProtocolError, encode, {"kind": "ping"}, KEY, -1)
    _raises(ProtocolError, encode, {"kind": "ping"}, KEY, 1, "host", 2**31)
    _raises(ProtocolError, encode, {"kind": "ping"}, KEY, 1, "", 0)
    _raises(ProtocolError, encode, {"kind": "ping"}, KEY, 1, "x" * 33, 0)
    assert "16 bytes" in str(_raises(ProtocolError, encode, {"kind": "ping"}, b"short", 1))
    _raises(ProtocolError, decode, VECTORS[0][6], "not bytes" * 4)
    _raises(ProtocolError, decode, VECTORS[0][6].decode(), KEY)


def test_every_kind_action_and_event_has_a_working_example():
    seat = {"seat": 3}
    examples = [
        {"kind": "config", "table": 4, "profile": "wph", "seats": 9, "key_id": "ev1-k1",
         "levels": [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20}, {"break": 10}],
         "event": "WPH Spring", "chip": 25, "late_entry_until_level": None, "nonce": "9f3a"},
        {"kind": "clock", "level_index": 0, "ms_left": 1200000, "paused": True, "host_ms": 5},
        {"kind": "seating", "names": {"1": "Ann", "3": "Bo"}, "stacks": {"1": 3000},
         "button": None},
        {"kind": "ack", "ids": ["7-1", "7-2"]},
        {"kind": "ping", "t": 17},
        {"kind": "ping"},
        {"kind": "hello", "fw": "0.3.1", "table": None, "key_id": "ev1-k1", "nonce": "9f3a"},
        {"kind": "status", "state": {"level": 1, "pots": [{"amount": 75, "seats": [1, 2]}]},
         "table": 4},
        {"kind": "pong", "t": 17},
        {"kind": "pair", "key": "00" * 32, "key_id": "ev1-k1", "table": 4,
         "event": "WPH Spring", "settings": {"wifi_ssid": "club"}},
    ]
    fields = {"move_out": {"seat": 3, "to_table": 2, "to_seat": 7},
              "receive": {"seat": 5, "name": "Cy", "stack": 4100, "from_table": 2},
              "withdraw": {"instr": "i-41"}, "deduct": {"seat": 3, "chips": 500},
              "take_out": {"seat": 4, "name": "Jon"}, "message": {"text": "Color up at the break"},
              "hand_started": {"hand": 12, "button": 4}, "hand_ended": {"hand": 12},
              "bust": {"seat": 3, "chips_start": 1500, "hand": 12}, "away": seat, "back": seat,
              "clock_called": seat, "error": {"text": "keypad stuck"},
              "instruction": {"instr": "i-3", "result": "refused", "reason": "hand running"}}
    for action in SUBKINDS["instruction"][1]:
        m = {"kind": "instruction", "id": "i-" + action[:8], "action": action}
        m.update(fields.get(action, {}))
        examples.append(m)
    for what in SUBKINDS["event"][1]:
        m = {"kind": "event", "id": "7-9", "what": what}
        m.update(fields.get(what, {}))
        examples.append(m)
    seen = set()
    for m in examples:
        kind = m["kind"]
        seen.add(kind)
        to_box = KINDS[kind][0] == "box"
        sender, to, me = ("host", "tc-01", "tc-01") if to_box else ("tc-01", "host", "host")
        frame = encode(m, KEY, 9, sender, 2, to)
        got = decode(frame, KEY, me)
        for k in m:
            assert got[k] == m[k], (kind, k)
        added = ADDED.get((kind, m.get(SUBKINDS[kind][0]) if kind in SUBKINDS else None))
        # the 1.0 directions and subkinds are still written 1.0; 1.2's withdraw, deduct
        # 1.2; 1.3's take_out 1.3
        assert got["v"] == ("1.%d" % added if added else "1.0"), (kind, m)
        if kind in BOTH_WAYS:  # since 1.1 the other way too, written 1.1
            back = decode(encode(m, KEY, 9, to, 2, sender), KEY, sender)
            assert back["v"] == "1.1" and back["kind"] == kind and back["from"] == to
        else:  # the other side refuses it
            e = _raises(ProtocolError, decode, frame, KEY, "tc-01" if me == "host" else "host")
            assert "message is for" in str(e)
    assert sorted(seen) == sorted(KINDS)


def test_version_1_1_box_ping_and_host_pong():
    assert version_of("ping", "host") == "1.0" and version_of("pong", "tc-01") == "1.0"
    assert version_of("ping", "tc-01") == "1.1" and version_of("pong", "host") == "1.1"
    assert version_of("clock", "host") == "1.0" and version_of("status", "tc-01") == "1.0"
    ping = encode({"kind": "ping", "t": 536870000}, KEY, 3, "tc-01", 7, "host")
    assert ping.startswith(b'{"v":"1.1","kind":"ping","from":"tc-01","to":"host"')
    msg = Receiver(KEY, "host").accept(ping)
    assert msg["t"] == 536870000 and msg["v"] == "1.1"
    # the host's pong names the box: a signed answer for one box is no answer for another
    pong = {"kind": "pong", "t": 5, "host_ms": 1717171717000}
    e = _raises(ProtocolError, encode, pong, KEY, 1, "host", 0, "*")
    assert str(e) == 'a pong message must be addressed to one box, not to "*"'
    frame = encode(pong, KEY, 1, "host", 0, "tc-02")
    assert "not to tc-01" in str(_raises(ProtocolError, decode, frame, KEY, "tc-01"))
    assert decode(frame, KEY, "tc-02")["host_ms"] == 1717171717000
    _raises(ProtocolError, encode, dict(pong, host_ms=-1), KEY, 1, "host", 0, "tc-02")
    # a 1.0 frame of an unknown kind is not blamed on a newer version
    e = _raises(ProtocolError, decode, _sign(KEY, _env("teleport", "{}")), KEY)
    assert str(e) == 'unknown message kind "teleport"'


def test_version_1_3_take_out():
    """1.3: the TD's bust of a player a box still seats comes as ``take_out`` {seat,
    name?}, written "1.3"."""
    assert VERSION == "1.3" and ADDED[("instruction", "take_out")] == 3
    body = {"action": "take_out", "seat": 4, "name": "Jon"}
    assert version_of("instruction", "host", body) == "1.3"
    frame = encode(dict(body, kind="instruction", id="i-60"), KEY, 48, "host", 5, "tc-01")
    assert frame.startswith(b'{"v":"1.3","kind":"instruction"')
    msg = Receiver(KEY, "tc-01").accept(frame)
    assert (msg["v"], msg["action"], msg["seat"], msg["name"]) == ("1.3", "take_out", 4, "Jon")
    bare = encode({"kind": "instruction", "id": "i-61", "action": "take_out", "seat": 2},
                  KEY, 49, "host", 5, "tc-01")
    assert decode(bare, KEY, "tc-01")["seat"] == 2  # the name is optional
    for bad in ({"seat": 0}, {}, {"seat": 2, "name": 7}):
        m = {"kind": "instruction", "id": "i-62", "action": "take_out"}
        m.update(bad)
        _raises(ProtocolError, encode, m, KEY, 1, "host", 0, "tc-01")


def test_version_1_2_withdraw_deduct_and_the_stack_of_a_move_out():
    assert {k: v for k, v in ADDED.items() if v == 2} == {("instruction", "withdraw"): 2,
                                                          ("instruction", "deduct"): 2}
    assert version_of("instruction", "host") == "1.0"
    assert version_of("instruction", "host", {"action": "move_out", "seat": 3}) == "1.0"
    assert version_of("instruction", "host", {"action": "withdraw", "instr": "i-41"}) == "1.2"
    assert version_of("instruction", "host", {"action": "deduct", "seat": 3,
                                              "chips": 500}) == "1.2"
    frame = encode({"kind": "instruction", "id": "i-52", "action": "deduct", "seat": 3,
                    "chips": 500}, KEY, 47, "host", 5, "tc-01")
    assert frame.startswith(b'{"v":"1.2","kind":"instruction"')
    msg = Receiver(KEY, "tc-01").accept(frame)
    assert (msg["v"], msg["action"], msg["seat"], msg["chips"]) == ("1.2", "deduct", 3, 500)
    for bad in ({"seat": 3, "chips": 0}, {"seat": 0, "chips": 500}, {"seat": 3}):
        m = {"kind": "instruction", "id": "i-53", "action": "deduct"}
        m.update(bad)
        _raises(ProtocolError, encode, m, KEY, 1, "host", 0, "tc-01")
    _raises(ProtocolError, encode, {"kind": "instruction", "id": "i-54", "action": "withdraw"},
            KEY, 1, "host", 0, "tc-01")
    # the box's answer to a move_out: the stack is a field, so the event stays 1.0
    ev = {"kind": "event", "id": "7-21", "what": "instruction", "instr": "i-41",
          "result": "done", "stack": 3075}
    got = decode(encode(ev, KEY, 4, "tc-01", 7, "host"), KEY, "host")
    assert got["v"] == "1.0" and got["stack"] == 3075
    _raises(ProtocolError, encode, dict(ev, stack=-1), KEY, 4, "tc-01", 7, "host")
    # every 1.0 vector is still written 1.0, byte for byte (test_vectors_encode_byte_for_byte)
    assert [v[6][:10] for v in VECTORS].count(b'{"v":"1.0"') == len(VECTORS) - 2


def test_addressing():
    clock = {"kind": "clock", "level_index": 0, "ms_left": 1, "paused": False, "host_ms": 0}
    e = _raises(ProtocolError, encode, clock, KEY, 1)  # to "*" by default
    assert "one box" in str(e)
    frame = encode(clock, KEY, 1, "host", 0, "tc-02")
    assert decode(frame, KEY, "tc-02")["to"] == "tc-02"
    e = _raises(ProtocolError, decode, frame, KEY, "tc-01")
    assert "addressed to tc-02, not to tc-01" in str(e)
    ping = encode({"kind": "ping"}, KEY, 2)
    assert decode(ping, KEY, "tc-01")["to"] == "*"
    assert decode(ping, KEY, "tc-02")["to"] == "*"
    hello = encode({"kind": "hello", "fw": "1"}, KEY, 1, "tc-01", 3)
    assert decode(hello, KEY, "host")["from"] == "tc-01"


def test_check_body_directly():
    check_body("ping", {})
    _raises(ProtocolError, check_body, "ping", {"t": -1})
    _raises(ProtocolError, check_body, "ping", {"seq": 1})


# ---------------------------------------------------------------------------
# Receiver: anti-replay


def _ping(seq, boot=0, sender="host"):
    return encode({"kind": "ping"}, KEY, seq, sender, boot)


def test_receiver_drops_duplicates_and_counts_them():
    rx = Receiver(KEY, "tc-01")
    f = _ping(5)
    assert rx.accept(f)["seq"] == 5
    assert rx.accept(f) is None
    assert rx.accept(f) is None
    assert (rx.accepted, rx.duplicates, rx.stale, rx.forged, rx.invalid) == (1, 2, 0, 0, 0)


def test_receiver_window_accepts_reordering_and_refuses_old():
    rx = Receiver(KEY)
    assert rx.accept(_ping(100)) is not None
    assert rx.accept(_ping(90)) is not None  # late but inside the window
    assert rx.accept(_ping(90)) is None
    assert rx.accept(_ping(100 - WINDOW + 1)) is not None  # the oldest still in the window
    e = _raises(Stale, rx.accept, _ping(100 - WINDOW))
    assert "stale" in str(e) and isinstance(e, ProtocolError)
    assert rx.accept(_ping(101))["seq"] == 101
    assert rx.accept(_ping(95)) is not None
    assert rx.accept(_ping(95)) is None
    # a jump ahead of more than the window forgets everything below
    assert rx.accept(_ping(101 + 2 * WINDOW)) is not None
    _raises(Stale, rx.accept, _ping(101 + WINDOW))
    assert rx.accept(_ping(102 + WINDOW)) is not None
    assert rx.accept(_ping(100 + 2 * WINDOW)) is not None
    assert rx.accept(_ping(100 + 2 * WINDOW)) is None
    assert rx.stale == 2 and rx.duplicates == 3 and rx.accepted == 8


def test_receiver_window_slides_bit_by_bit():
    rx = Receiver(KEY)
    for s in range(0, 300, 2):  # even numbers first, then the odd ones late
        assert rx.accept(_ping(s)) is not None
        if s >= 2:
            assert rx.accept(_ping(s - 1)) is not None
            assert rx.accept(_ping(s - 1)) is None
            assert rx.accept(_ping(s)) is None
    top = 298
    for s in range(top - WINDOW + 1, top + 1):
        assert rx.accept(_ping(s)) is None, s
    _raises(Stale, rx.accept, _ping(top - WINDOW))


def test_receiver_boot_counter():
    rx = Receiver(KEY)
    assert rx.accept(_ping(500, boot=3)) is not None
    e = _raises(Stale, rx.accept, _ping(501, boot=2))
    assert "boot 2 is older than its boot 3" in str(e)
    assert rx.accept(_ping(1, boot=4))["boot"] == 4  # a restart resets the window
    assert rx.accept(_ping(2, boot=4)) is not None
    assert rx.accept(_ping(1, boot=4)) is None
    _raises(Stale, rx.accept, _ping(600, boot=3))
    # peers are independent
    assert rx.accept(_ping(1, boot=0, sender="host2")) is not None
    assert rx.stale == 2


def test_receiver_counts_forgeries_and_junk_without_touching_the_window():
    rx = Receiver(KEY, "tc-01")
    good = _ping(7)
    forged = encode({"kind": "ping"}, KEY2, 7)
    _raises(Forged, rx.accept, forged)
    _raises(ProtocolError, rx.accept, b"garbage\n")
    _raises(ProtocolError, rx.accept, encode({"kind": "hello", "fw": "1"}, KEY, 8, "tc-09"))
    assert (rx.forged, rx.invalid, rx.accepted) == (1, 2, 0)
    assert rx.accept(good) is not None  # the forgery did not mark seq 7 as seen
    assert rx.accepted == 1


def test_receiver_peer_limit_pin_and_forget():
    rx = Receiver(KEY, max_peers=2)
    assert rx.accept(_ping(1, sender="a")) is not None
    assert rx.accept(_ping(1, sender="b")) is not None
    assert "too many" in str(_raises(ProtocolError, rx.accept, _ping(1, sender="c")))
    rx.forget("b")
    rx.forget("nobody")
    assert rx.accept(_ping(1, sender="c")) is not None
    rx.pin("a", 2, 50)  # e.g. after a config that echoed our nonce
    for s in (50, 49, 1):
        r = None
        try:
            r = rx.accept(_ping(s, boot=2, sender="a"))
        except Stale:
            pass
        assert r is None
    _raises(Stale, rx.accept, _ping(60, boot=1, sender="a"))
    assert rx.accept(_ping(51, boot=2, sender="a")) is not None


def test_sender_numbers_frames():
    tx = Sender(KEY, "tc-01", boot=7)
    rx = Receiver(KEY, "host")
    f1 = tx.encode({"kind": "pong"}, "host")
    f2 = tx.encode({"kind": "hello", "fw": "1"})
    _raises(ProtocolError, tx.encode, {"kind": "pong", "t": 1.5})  # not counted
    f3 = tx.encode({"kind": "pong"})
    assert [rx.accept(f)["seq"] for f in (f1, f2, f3)] == [1, 2, 3]
    assert tx.seq == 3 and rx.accept(f2) is None


def test_a_real_table_state_round_trips():
    stacks = {}
    for s in range(1, 11):
        stacks[s] = 100000 + s
    t = table("lppl", stacks)
    t.apply({"do": "hand"})
    t.apply({"do": "call"})
    state = t.apply({"do": "raise", "to": 400})
    assert state["error"] is None
    msg = {"kind": "status", "state": state, "table": 12}
    frame = encode(msg, KEY, 1, "tc-01", 1, "host")
    assert decode(frame, KEY, "host")["state"] == state


def test_a_frame_near_the_limit_round_trips_in_a_small_heap():
    state = {"pots": [{"amount": 1000000 + i, "seats": list(range(1, 11))} for i in range(60)],
             "last": "x" * 700, "error": None, "paused": False}
    msg = {"kind": "status", "state": state, "table": 12}
    for _ in range(3):
        frame = encode(msg, KEY, 1, "tc-01", 1, "host")
        assert 3500 < len(frame) <= MAX_FRAME, len(frame)
        assert decode(frame, KEY, "host")["state"] == state
