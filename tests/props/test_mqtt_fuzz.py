"""Fuzz tests of the MQTT transport's inbound paths (hypothesis; CPython only; issue #4
"Sync", docs/mqtt.md "Faults").  tests/props/test_protocol_props.py fuzzes the frame
decoder itself; here the bytes come the way a broker delivers them:

(a) The box: whatever a broker (or someone on the network) sends down the box's TCP
    connection -- random bytes, or MQTT packets with random flags, lengths (wrong,
    malformed, oversize), topics and payloads (random, signed with another key, signed
    with the event key but with random contents) -- goes through adafruit_minimqtt,
    tcbox.mqtt_link.MqttPort (size check, topic check, inbox) and tcbox.link.box_end.Link (lines,
    anti-replay, decoder).  ``MqttLink.poll`` never raises; the port at worst drops the
    connection and connects again; the table and the dealer's screen never change.
(b) The host: tdhost.links.mqtt.MqttHub's routing of (topic, payload, retained) -- random
    topics, the box prefix with random parts, random and signed payloads -- and the
    BoxLinks it makes.  ``_route`` and ``poll`` never raise; a BoxLink exists only for a
    box id whose frame is signed with the event key and says it is from that box.

A hypothesis example that raised anything would fail the test with that exception.
(atheris is not used: hypothesis reaches these paths, and it needs no native build.)
"""

import errno
import hashlib
import hmac
import json
import random
import re

from hypothesis import given, strategies as st

import gen
from faultproxy import encode_length, publish_packet
from link_util import StandIn
from tableclock.protocol import HOST, KINDS, Sender, box_key
from tableclock.table import Table
from tcbox.mqtt_link import MqttLink, MqttPort
from tdhost.links.hoststore import HostStore
from tdhost.links.mqtt import MqttHub

_ID = re.compile(r"[A-Za-z0-9._:-]{1,32}")
KEY = bytes(range(32))
OTHER = bytes(range(100, 132))
BOX = "tc-01"
BOX_KEY = box_key(KEY, BOX)  # its own key: a box paired for Wi-Fi (the hub's default)
EVENT = "ev1"
IN = "tc/%s/box/%s/in" % (EVENT, BOX)
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20}]}


# ------------------------------------------------------------ (a) the box
class _Sock:
    """A broker that answers CONNECT and SUBSCRIBE, then sends what the
    test feeds it; non-blocking (EAGAIN when it has nothing)."""

    def __init__(self, net):
        self.net = net
        self.rx = bytearray()
        self.sub_pid = False
        self.closed = False

    def settimeout(self, t):
        pass

    def connect(self, addr):
        self.net.connects += 1

    def send(self, buf):
        data = bytes(buf)
        if self.sub_pid:  # SUBSCRIBE's packet id came: SUBACK granting QoS 0
            self.rx += b"\x90\x03" + data[:2] + b"\x00"
            self.sub_pid = False
            self.net.subscribed = self
        elif data[:1] == b"\x10":
            self.rx += b"\x20\x02\x00\x00"
        elif data[:1] == b"\x82":
            self.sub_pid = True
        return len(data)

    def recv_into(self, buf, nbytes=0):
        n = nbytes or len(buf)
        if not self.rx:
            raise OSError(errno.EAGAIN, "no data")
        k = min(n, len(self.rx))
        buf[:k] = self.rx[:k]
        del self.rx[:k]
        return k

    def close(self):
        self.closed = True


class _Net:
    AF_INET = 2
    SOCK_STREAM = 1

    def __init__(self):
        self.connects = 0
        self.subscribed = None

    def socket(self, family=2, type=1, proto=0):
        return _Sock(self)

    def getaddrinfo(self, *a, **kw):
        raise AssertionError("an IP address is never looked up")


def _box():
    net = _Net()
    port = MqttPort(net, BOX, EVENT, "10.0.0.2", 1883, rand=lambda: 0)
    link = MqttLink(port, BOX, Table(dict(SETUP)), key=KEY, key_id=EVENT)
    link.restore(None)
    link.table_no = 4
    shown = []
    StandIn(shown.append).add(link)
    return net, port, link, shown


def _drive(chunks, polls_each=6):
    """Feed *chunks* (bytes) one at a time to the box's subscribed
    connection, polling the box between them; returns what was refused."""
    net, port, link, shown = _box()
    before = link.table.state()
    now = 1000
    chunks = list(chunks)
    for _ in range(400):  # connect (again) and take the next chunk
        if net.subscribed is not None and not net.subscribed.closed and chunks:
            net.subscribed.rx += chunks.pop(0)
        for _ in range(polls_each):
            link.poll(now)  # must never raise
            now += 250
        if not chunks:
            break
    for _ in range(20):
        link.poll(now)
        now += 250
    assert not chunks  # every chunk went down a live connection
    assert shown == [] and link.table.state()["level"] == before["level"]
    assert link.pending_setup is None and link.table is not None
    return link.counters()


def _signed(key, kind, body, sender="host", to=BOX, boot=1, seq=1):
    unsigned = ('{"v":"1.0","kind":"%s","from":"%s","to":"%s","boot":%d,"seq":%d,"body":%s}'
                % (kind, sender, to, boot, seq, body)).encode("utf-8", "surrogatepass")
    mac = hmac.new(key, unsigned, hashlib.sha256).hexdigest().encode()
    return unsigned[:-1] + b',"mac":"' + mac + b'"}\n'


junk_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8)


@st.composite
def payloads(draw):
    """A PUBLISH payload: random bytes, a frame signed with another key, or a
    frame signed with the event key whose contents are anything."""
    k = draw(st.integers(0, 3))
    if k == 0:
        return draw(st.binary(max_size=200))
    kind = draw(st.sampled_from(sorted(KINDS) + ["nope"]))
    body = json.dumps(draw(junk_json))
    if k == 1:
        return _signed(OTHER, kind, body)
    if k == 2:  # the event key, random contents (a config/clock/instruction that is wrong)
        return _signed(KEY, kind, body, seq=draw(st.integers(0, 10)))
    frame = _signed(KEY, kind, body)
    i = draw(st.integers(0, len(frame) - 1))
    return frame[:i] + frame[i + 1:]  # cut


@st.composite
def packets(draw):
    """One MQTT packet as a broker might (mis)send it."""
    k = draw(st.integers(0, 5))
    if k == 0:  # a PUBLISH on the box's topic or another, any flags
        topic = draw(st.sampled_from([IN, "tc/ev1/box/tc-02/in", "", "#", "tc/\udcff"]))
        head = 0x30 | draw(st.integers(0, 15))
        qos = (head >> 1) & 3
        pkt = publish_packet(topic.encode("utf-8", "surrogateescape"), draw(payloads()),
                             qos=min(qos, 2), pid=draw(st.integers(0, 65535)))
        return bytes([head]) + pkt[1:]
    if k == 1:  # a packet whose length says more or less than comes, or is malformed
        head = draw(st.sampled_from([0x30, 0x32, 0x20, 0x90, 0xD0, 0x40, 0xB0, 0xE0, 0x00]))
        length = draw(st.sampled_from([0, 1, 2, 3, 5000, 1 << 20, (1 << 28) - 1]))
        enc = encode_length(length) if draw(st.booleans()) else b"\xff\xff\xff\xff\x7f"
        return bytes([head]) + enc + draw(st.binary(max_size=40))
    if k == 2:  # a well-formed packet of any type
        body = draw(st.binary(max_size=30))
        return bytes([draw(st.integers(0, 255))]) + encode_length(len(body)) + body
    if k == 3:  # a topic length beyond the packet
        return b"\x30\x06\x7f\xff" + draw(st.binary(min_size=4, max_size=4))
    if k == 4:  # a PINGRESP that is not
        return b"\xd0" + draw(st.binary(min_size=1, max_size=3))
    return draw(st.binary(max_size=100))  # anything


@gen.props_settings(150)
@given(st.lists(packets(), min_size=1, max_size=8))
def test_the_box_survives_anything_a_broker_sends(pkts):
    c = _drive(pkts)
    assert c["mqtt_connects"] >= 1  # it was connected to take them


@gen.props_settings(60)
@given(st.binary(min_size=1, max_size=2000), st.integers(1, 64))
def test_the_box_survives_a_random_byte_stream(data, cut):
    _drive(data[i:i + cut] for i in range(0, len(data), cut))


def test_the_box_refuses_each_kind_of_bad_frame_and_still_works():
    """Concrete counterparts of the fuzz cases, with the counter each moves."""
    sender = Sender(KEY, HOST, 3)
    good = sender.encode({"kind": "ping", "t": 5}, BOX)
    pkts = [publish_packet(IN, b"garbage\n"),
            publish_packet(IN, _signed(OTHER, "ping", "{}")),
            publish_packet(IN, good[:40]),
            publish_packet(IN, good), publish_packet(IN, good),  # once, then a duplicate
            publish_packet(IN, b"x" * 4150),  # a frame too large, a packet not
            b"\x30" + encode_length(1 << 20)]  # announced 1 MB: refused before reading
    c = _drive(pkts, polls_each=4)
    assert c["garbage"] == 1 and c["forged"] == 1 and c["invalid"] == 1
    assert c["duplicates"] == 1 and c["frames_in"] == 1
    assert c["mqtt_too_large"] == 2 and c["mqtt_connects"] == 2  # the 1 MB one dropped it


# ----------------------------------------------------------- (b) the host
class _Hub:
    """An MqttHub that never connects; its publishes are kept."""

    def __init__(self, tmp):
        self.store = HostStore(str(tmp))
        self.hub = MqttHub("mqtt://127.0.0.1:1", EVENT, KEY, EVENT, self.store,
                           clock=lambda: 0, start=False)
        self.out = []
        self.hub._publish = lambda topic, payload, retain=False: self.out.append(topic)

    def close(self):
        self.store.close()


ids = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-",
              min_size=1, max_size=8)
topics = (st.text(max_size=40)
          | st.builds(lambda a, b: "tc/ev1/box/%s/%s" % (a, b),
                      ids | st.text(max_size=6), st.sampled_from(["out", "status", "presence",
                                                                  "in", "", "out/x"]) | ids)
          | st.sampled_from(["tc/ev1/box/", "tc/ev1/box//out", "tc/ev1/box/tc-01",
                             "tc/ev2/box/tc-01/out", "tc/ev1/table/4/clock"]))


@st.composite
def host_payloads(draw, box):
    k = draw(st.integers(0, 4))
    if k == 0:
        return draw(st.binary(max_size=200))
    kind = draw(st.sampled_from(["hello", "event", "status", "pong", "ping", "nope"]))
    if k == 1:  # random contents, signed with the topic's box's own key
        return _signed(box_key(KEY, box), kind, json.dumps(draw(junk_json)), sender=box,
                       to=HOST)
    if k == 2:  # a good hello (a BoxLink may be made), possibly from another box
        who = draw(st.sampled_from([box if _ID.fullmatch(box) else "tc-01", "tc-99"]))
        return Sender(box_key(KEY, who), who, draw(st.integers(0, 5))).encode(
            {"kind": "hello", "fw": "1", "table": 4, "key_id": EVENT, "nonce": "n1"}, HOST)
    if k == 3:  # another key, the unpaired one, or the shared event key (pair again)
        return _signed(draw(st.sampled_from([OTHER, b"tableclock-unpaired-box-key-v1", KEY])),
                       "hello", '{"fw":"1","key_id":"unpaired"}', sender=box, to=HOST)
    return b"x" * draw(st.sampled_from([4094, 4097, 9000]))


@gen.props_settings(150)
@given(st.lists(st.tuples(topics, st.data(), st.booleans()), min_size=1, max_size=20))
def test_the_hub_routes_anything_without_raising(tmp_path_factory, msgs):
    h = _Hub(tmp_path_factory.mktemp("hub") / "h.sqlite")
    try:
        for topic, data, retained in msgs:
            parts = topic.split("/")
            box = parts[3] if len(parts) > 3 and parts[3] else "tc-01"
            payload = data.draw(host_payloads(box))
            h.hub._route(topic, payload, retained)
            h.hub.poll(0)
        for box, link in h.hub.links.items():
            assert link.box == box  # linked only by its own signed frame
        assert len(h.hub.links) <= 2
    finally:
        h.close()


def test_the_hub_counts_each_kind_of_bad_message(tmp_path):
    h = _Hub(tmp_path / "h.sqlite")
    try:
        hub = h.hub
        hello = Sender(BOX_KEY, BOX, 1).encode({"kind": "hello", "fw": "1", "table": 4,
                                                "key_id": EVENT, "nonce": "n1"}, HOST)
        hub._route("elsewhere/tc-01/out", hello, False)
        hub._route("tc/ev1/box/tc-01/out/more", hello, False)
        hub._route("tc/ev1/box/tc-02/out", hello, False)  # tc-01's frame on tc-02's topic
        hub._route("tc/ev1/box/tc-01/out", b"x" * 5000, False)
        hub._route("tc/ev1/box/tc-01/out", _signed(OTHER, "hello", '{"fw":"1"}', sender=BOX,
                                                    to=HOST), False)
        hub._route("tc/ev1/box/tc-01/status", hello, True)  # retained: history only
        assert (hub.ignored, hub.mismatched, hub.too_large) == (2, 1, 1)
        assert list(hub.foreign) == [BOX] and hub.statuses[BOX] == hello and not hub.links
        bad = _signed(BOX_KEY, "hello", '{"fw":1}', sender=BOX, to=HOST)  # signed, schema wrong
        hub._route("tc/ev1/box/tc-01/out", bad, False)
        assert hub.invalid == 1 and not hub.links
        hub._route("tc/ev1/box/tc-01/out", hello, False)
        hub.poll(0)
        assert list(hub.links) == [BOX] and hub.links[BOX].hello["nonce"] == "n1"
    finally:
        h.close()


def test_random_payloads_on_a_linked_box_reach_its_boxlink_safely(tmp_path):
    """Once linked, everything on the box's topics that names it goes to its
    BoxLink's decoder: garbage and refusals counted, never applied."""
    h = _Hub(tmp_path / "h.sqlite")
    try:
        hub = h.hub
        hello = Sender(BOX_KEY, BOX, 1).encode({"kind": "hello", "fw": "1", "table": 4,
                                                "key_id": EVENT, "nonce": "n1"}, HOST)
        hub._route("tc/ev1/box/tc-01/out", hello, False)
        rng = random.Random(7)
        for i in range(400):
            junk = rng.randbytes(rng.randint(0, 300))
            junk = junk[:10] + b'"from":"tc-01"' + junk[10:]
            if i % 3 == 0:
                junk = b'{"v":"1.0",' + junk
            hub._route("tc/ev1/box/tc-01/" + ("out", "status")[i % 2], junk, False)
            hub.poll(0)
        link = hub.links[BOX]
        assert link.garbage + link.rx.invalid + link.rx.forged >= 300
        assert h.store.events() == [] and link.new_events == 0
    finally:
        h.close()
