"""Hostile frames (issue #4 "Sync"; docs/mqtt.md, "Faults"), and a laptop that
stops reading its USB port.

On the embedded broker (amqtt has no ACL: any client may publish on a box's
topics) a rogue MQTT client and tests/tools/faultproxy's ``inject`` send the box
and the host frames signed with the wrong key, frames recorded off the wire
and played again (duplicates, then stale ones), frames cut in half, a packet
cut short on the wire, and a flood of random bytes.  Each is refused and
counted (``forged``, ``stale``, ``duplicates``, ``invalid``, ``garbage``,
``mismatched``), nothing crashes, and afterwards every box event is in the
host's store once.  The rig is tests/host/faultutil.py; its time is virtual.
"""

import random

import paho.mqtt.client as mqtt
import pytest
from faultutil import EVENT, KEY, NAMES, OTHER_KEY, PAIRING, SETUP, Rig, exactly_once
from paho.mqtt.enums import CallbackAPIVersion
from vtime import Feed, V

from faultproxy import DOWN, UP, publish_packet
from link_util import StandIn
from tableclock.canonjson import ProtocolError
from tableclock.protocol import HOST, MAX_FRAME, Sender, box_key, decode
from tableclock.table import Table
from tcbox.link.box_end import OUTBOX_MAX, Link
from tcbox.link.states import LIVE
from tdhost.links.boxlink import BoxLink
from tdhost.links.hoststore import HostStore
from tdhost.links.pipe import Cable
from tdhost.live.instruction_book import InstructionBook

TOPIC = "tc/%s/box/tc-01/" % EVENT


@pytest.fixture
def rig(tmp_path):
    r = Rig("amqtt", tmp_path)
    yield r
    r.close()


def _rogue(rig):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="rogue")
    c.connect("127.0.0.1", rig.broker.port)
    c.loop_start()
    return c


BOX_KEY = box_key(KEY, "tc-01")  # tc-01's own key: its Wi-Fi pairing


def _signed(frame, to):
    """Signed by tc-01 or by the host to it (with tc-01's key)."""
    try:
        decode(frame, BOX_KEY, to)
        return True
    except ProtocolError:
        return False


def _send(rogue, topic, payload):
    rogue.publish(topic, payload, qos=1).wait_for_publish(5)


def test_wrong_keys_replays_truncations_and_a_garbage_flood(rig):
    box = rig.add_box()
    assert rig.run(lambda: rig.live(box))
    box.play_hand()
    assert rig.run(lambda: rig.settled(box))
    host = rig.link(box)
    brx, hrx = box.link.rx, host.rx
    rogue = _rogue(rig)
    try:
        # the wrong key: "the host" to the box, "the box" to the host
        _send(rogue, TOPIC + "in", Sender(OTHER_KEY, "host", host.boot + 1).encode(
            {"kind": "instruction", "id": "x-1", "action": "pause"}, box.id))
        _send(rogue, TOPIC + "out", Sender(OTHER_KEY, box.id, box.link.boot + 1).encode(
            {"kind": "event", "id": "9-1", "what": "bust", "seat": 2, "chips_start": 9},
            "host"))
        assert rig.run(lambda: brx.forged == 1 and hrx.forged == 1)

        # replayed: the newest host frame and box event recorded off the proxy
        down = [r for r in rig.proxy.recorded(client=box.id, direction=DOWN, topic="/in")
                if _signed(r.payload, box.id)][-1]  # (not the rogue's forgery)
        up = [r for r in rig.proxy.recorded(client=box.id, direction=UP, topic="/out")
              if b'"kind":"event"' in r.payload and _signed(r.payload, "host")][-1]
        dups = (brx.duplicates, hrx.duplicates)
        applied = len(rig.applied)
        assert rig.proxy.inject(down.packet, client=box.id, direction=DOWN)
        assert rig.proxy.inject(up.packet, client=box.id, direction=UP)
        assert rig.run(lambda: brx.duplicates > dups[0] and hrx.duplicates > dups[1])
        # ... and after 64 newer frames from the host, behind the window: stale
        for i in range(70):
            host.send({"kind": "ping", "t": i})
        last = host.tx.seq
        assert rig.run(lambda: brx.peers[HOST][1] >= last)  # the box has the newest
        assert rig.proxy.inject(down.packet, client=box.id, direction=DOWN)
        assert rig.run(lambda: brx.stale == 1)

        # truncated: each cut in half, sent as a whole PUBLISH
        for rec, d in ((down, DOWN), (up, UP)):
            half = publish_packet(rec.topic, rec.payload[:len(rec.payload) // 2])
            assert rig.proxy.inject(half, client=box.id, direction=d)
        assert rig.run(lambda: brx.invalid == 1 and hrx.invalid == 1)
        assert len(rig.applied) == applied  # the replayed event was not applied again

        # a packet cut short on the wire: the box's MQTT stream is broken; it reconnects
        connects = box.port.connects
        assert rig.proxy.inject(down.packet[:len(down.packet) // 2], client=box.id)
        assert rig.run(lambda: box.port.connects > connects and rig.live(box))

        # a flood of random bytes on the box's topics (a few naming tc-01 reach its BoxLink;
        # one is larger than any frame)
        rng = random.Random(4)
        for i in range(300):
            topic = TOPIC + ("in", "out", "status")[i % 3]
            junk = rng.randbytes(rng.randint(1, 600))
            if i % 7 == 0:
                junk = junk[:20] + b'"from":"tc-01"' + junk[20:]
            rogue.publish(topic, junk, qos=1)
        _send(rogue, TOPIC + "in", b"x" * (MAX_FRAME + 100))
        _send(rogue, TOPIC + "out", b"{" * (MAX_FRAME + 100))
        assert rig.run(lambda: box.port.too_large == 1 and rig.hub.too_large == 1)
        box.play_hand(bust=True)
        assert rig.run(lambda: rig.settled(box))
    finally:
        rogue.disconnect()
        rogue.loop_stop()
    exactly_once(rig, box)
    assert box.shown == [] and box.t.clock.paused is False  # the forged pause never came
    assert brx.forged == 1 and brx.stale == 1 and brx.duplicates >= 1
    assert box.link.garbage >= 10 and brx.invalid >= 1
    assert hrx.forged == 1 and hrx.duplicates >= 1 and hrx.invalid >= 1
    assert host.garbage >= 1 and rig.hub.mismatched >= 50
    assert box.link.state == LIVE and rig.live(box)


# ------------------------------------------------------------------ USB
class _Box:
    """A box on a USB cable (tdhost.links.pipe): the firmware's Link, a table."""

    def __init__(self, end, v):
        self.v = v
        self.link = Link(end, "tc-01", Table(dict(SETUP)))
        self.link.restore({"b": 6, "t": 4, "p": PAIRING})
        self.made = []
        event = self.link.event

        def queued(ev):
            self.made.append(event(ev))
            return self.made[-1]

        self.link.event = queued
        self.shown = []

        def shown(body):
            self.shown.append(body["id"])
            self.link.instruction_done(body["id"], "done")

        self.app = StandIn(shown)  # the box's App, as its link sees it
        self.app.add(self.link)
        self.last = v.t

    def step(self):
        dt = self.v.t - self.last
        self.last = self.v.t
        self.link.table.advance(dt)
        self.link.after_step(self.app, self.v.t)

    def hand(self):
        t = self.link.table
        self.link.observe(t.state())
        assert t.handle({"do": "hand"}) is None
        self.link.observe(t.state())
        while t.hand is not None:
            assert t.handle({"do": "fold"}) is None
            self.link.observe(t.state())


def test_a_laptop_that_stops_reading_its_usb_port(tmp_path):
    """The host stops reading (and writing) for 10 virtual minutes; the
    cable's buffer fills (4 KB) and the box's writes take nothing; the box
    plays on, its events wait in its outbox (at most ``OUTBOX_MAX``), an
    instruction the host sent just before waits in the cable.  The host
    reads again: each event once, the instruction carried out once, the
    clock back within 250 ms.  (tests/host/test_usb_link.py does the same on
    a real pty, checking the box's work per poll.)"""
    v = V(1000)
    cable = Cable(capacity=4096)
    store = HostStore(str(tmp_path / "h.sqlite"))
    feed = Feed(v, SETUP, NAMES)
    applied = []
    book = InstructionBook()
    host = BoxLink(cable.b, KEY, EVENT, store, feed, applied.append, clock=v, book=book)
    box = _Box(cable.a, v)

    def run(ms, reading=True):
        end = v.t + ms
        while v.t < end:
            box.step()
            if reading:
                host.poll(v.t)
            v.t += 20

    run(5000)
    assert box.link.state == LIVE and host.state == "live"
    box.hand()
    book.hand(host, {"id": "u-1", "action": "message", "text": "last hand before the break"})
    host.poll(v.t)  # it goes into the cable; then the host hangs
    run(1000, reading=False)
    for minute in range(10):
        box.hand()
        if minute == 4:
            feed.level(1)
        run(60000, reading=False)
    assert box.link.stalls > 0 and cable.a.in_waiting + len(cable.b._in) > 0
    assert 20 <= len(box.link.outbox) <= OUTBOX_MAX and box.link.dropped == 0
    assert box.shown == ["u-1"]  # read by the box; its answer waits in the outbox
    run(60000)
    assert not box.link.outbox and book.result("u-1") == "done"
    made = [e for e in box.made if e is not None]
    assert [m["id"] for m in applied] == made and [e["id"] for e in store.events()] == made
    assert box.shown == ["u-1"]
    assert box.link.table.clock.index == 1
    assert feed.error(box.link.table.clock) <= 250
    store.close()


# ------------------------------------------------------------------ the proxy's parts
def test_the_proxys_packet_parts():
    """tests/tools/faultproxy cuts packets by their remaining length and its
    ``corrupt`` leaves a frame well formed, naming its sender, refused by
    its MAC alone."""
    from faultproxy import (
        corrupt_payload,
        encode_length,
        parse_publish,
        remaining_length,
    )
    from tableclock.protocol import Forged

    for n in (0, 127, 128, 16383, 16384, 2097151, 2097152, (1 << 28) - 1):
        assert remaining_length(b"\x30" + encode_length(n)) == (n, len(encode_length(n)))
    assert remaining_length(b"\x30\x80") is None  # incomplete
    with pytest.raises(ValueError):
        remaining_length(b"\x30\xff\xff\xff\xff\x01")
    pkt = publish_packet("tc/ev1/box/tc-01/in", b"hello", qos=1, pid=7)
    topic, qos, pid, at = parse_publish(pkt)
    assert (topic, qos, pid, pkt[at:]) == (b"tc/ev1/box/tc-01/in", 1, 7, b"hello")
    rng = random.Random(1)
    long = Sender(KEY, "tc-01", 3).encode({"kind": "event", "id": "3-1", "what": "bust",
                                           "seat": 4, "chips_start": 2500, "hand": 17}, HOST)
    short = Sender(KEY, HOST, 3).encode({"kind": "ping", "t": 5}, "tc-01")
    for frame, to in ((long, HOST), (short, "tc-01")):
        for _ in range(200):
            bad = corrupt_payload(frame, rng)
            assert len(bad) == len(frame) and bad != frame
            with pytest.raises(Forged):
                decode(bad, KEY, to)
    for _ in range(200):  # the host finds "from" in a long frame's first 96 bytes still
        assert corrupt_payload(long, rng)[:96] == long[:96]
