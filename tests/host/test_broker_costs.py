"""What one message and one packet cost the embedded broker with many boxes (issue #30's
regression; docs/mqtt.md, "Limits" and "Brokers"), counted, not timed, so that it fails
here whatever the machine's load:

- a message is tried against the filters with wildcards and its own topic, not against
  every box's subscription (amqtt 0.12.1 tried all 500 and formatted a debug line for each:
  a burst of the boxes' frames then kept the host's level change queued for seconds);
- the same filters match as by amqtt's own rule (``_matches``), ``$`` topics included;
- at each connect only the session's own subscriptions are looked at for retained messages;
- the packet reader starts no task and no timer per packet (the limits' first reader did
  both, and a shield, for each packet), a read amqtt times out takes no packet away, and the
  socket is paused while more than twice the packet limit waits.

The embedded broker's CPU per message at 500 boxes is a ``make bench`` row with a goal
(bench/sync_bench.py, ``broker_cpu``).
"""

import asyncio
import struct
from collections import deque

from amqtt.broker import Broker
from amqtt.session import Session

from tdhost.links.broker import Limits
from tdhost.links.brokerauth import Guarded
from tdhost.links.brokerlimits import Conn, PacketReader, PacketStream

EVENT = "ev1"
BOXES = 500
USERS = {"host": "h", **{"tc-%04d" % i: "p" for i in range(1, BOXES + 1)}}


def _session(user):
    s = Session()
    s.username = s.client_id = user
    return s


async def _broker():
    b = Guarded({"listeners": {"default": {"type": "tcp", "bind": "127.0.0.1:0"}},
                 "plugins": {"tdhost.links.brokerauth.Logins": {"users": USERS}}},
                limits=Limits())
    host = _session("host")
    for leaf in ("out", "status", "presence"):
        assert await b.add_subscription(("tc/%s/box/+/%s" % (EVENT, leaf), 1), host) == 1
    boxes = [_session("tc-%04d" % i) for i in range(1, BOXES + 1)]
    for s in boxes:
        f = "tc/%s/box/%s/in" % (EVENT, s.client_id)
        assert await b.add_subscription((f, 1), s) == 1
    return b, host, boxes


class _Counted:
    def __init__(self, broker):
        self.n = 0
        self.match = broker._matches
        broker._matches = self

    def __call__(self, topic, a_filter):
        self.n += 1
        return self.match(topic, a_filter)


def test_a_message_meets_its_own_filters_not_every_box():
    async def run():
        b, _, boxes = await _broker()
        counted = _Counted(b)
        status = "tc/%s/box/tc-0007/status" % EVENT
        assert b.filters_for(status) == ["tc/%s/box/+/status" % EVENT]
        assert counted.n == 3  # the host's three wildcard filters, none of the 500
        counted.n = 0
        mine = "tc/%s/box/tc-0007/in" % EVENT
        assert b.filters_for(mine) == [mine]
        assert counted.n == 3
        counted.n = 0  # the broker's own fan-out goes the same way
        await b._broadcast_queue.put({"session": boxes[6], "topic": status, "data": b"x",
                                      "qos": 1})
        await b._run_broadcast(deque())
        assert counted.n == 3

    asyncio.run(run())


def test_the_filters_found_are_those_amqtt_matches():
    async def run():
        b, host, boxes = await _broker()
        for f in ("#", "+/+", "tc/#", "$SYS/#", "tc/%s/+/+/in" % EVENT, "a/b"):
            await b.add_subscription((f, 0), host)
        await b._del_all_subscriptions(boxes[1])  # tc-0002's filter is gone
        topics = ["tc/%s/box/tc-%04d/%s" % (EVENT, i, leaf) for i in (1, 2, 3, 499)
                  for leaf in ("in", "out", "status", "presence", "x")]
        topics += ["$SYS/broker/uptime", "a/b", "a/c", "a", "tc", "tc/%s" % EVENT, "x/y/z"]
        for t in topics:
            assert sorted(b.filters_for(t)) == sorted(
                f for f in b._subscriptions if b._matches(t, f)), t

    asyncio.run(run())


def test_a_connect_looks_at_its_own_subscriptions_only(monkeypatch):
    seen = []

    async def retained(self, subscription, session):
        seen.append(subscription[0])

    monkeypatch.setattr(Broker, "_publish_retained_messages_for_subscription", retained)

    async def run():
        b, _, boxes = await _broker()
        for topic in list(b._subscriptions):  # as amqtt's connect does, for each
            await b._publish_retained_messages_for_subscription((topic, 0), boxes[6])

    asyncio.run(run())
    assert seen == ["tc/%s/box/tc-0007/in" % EVENT]


# ------------------------------------------------------------------ the packet reader
def _packet(kind, body):
    n, out = len(body), bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes([kind]) + bytes(out) + body


def _connect(keep_alive=60):
    def utf8(s):
        return struct.pack("!H", len(s)) + s.encode()
    return _packet(0x10, utf8("MQTT") + bytes([4, 0x02]) + struct.pack("!H", keep_alive)
                   + utf8("tc-0001"))


PING = _packet(0xC0, b"")
PUBLISH = _packet(0x30, struct.pack("!H", 9) + b"tc/ev1/in" + b"x" * 100)  # < 128


class _Transport:
    def __init__(self):
        self.paused = self.resumed = self.aborted = 0

    def get_extra_info(self, name, default=None):
        return ("127.0.0.1", 5555) if name == "peername" else default

    def pause_reading(self):
        self.paused += 1

    def resume_reading(self):
        self.resumed += 1

    def abort(self):
        self.aborted += 1


class _Broker:
    limits = Limits()

    def __init__(self):
        self.closed = []

    def connected(self, conn, keep_alive):
        conn.idle_s = 1.5 * keep_alive

    def close(self, conn, why):
        self.closed.append(why)


def _stream(loop):
    broker = _Broker()
    s = PacketStream(broker, loop)
    t = _Transport()
    s.set_transport(t)
    s.attach(Conn(t, loop.time()))
    return s, t, broker


def test_the_reader_starts_no_task_and_no_timer_per_packet():
    loop = asyncio.new_event_loop()
    counts = {"call_at": 0, "create_task": 0}

    def counting(name):
        f = getattr(loop, name)

        def counted(*a, **k):
            counts[name] += 1
            return f(*a, **k)
        return counted

    for name in counts:
        setattr(loop, name, counting(name))

    async def run():
        s, _, broker = _stream(loop)
        reader = PacketReader(s)
        s.feed_data(_connect())
        assert await reader.read(len(_connect())) == _connect()
        before = dict(counts)
        got = 0
        for _ in range(200):  # a packet at a time, as amqtt reads: type, length, the rest
            s.feed_data(PUBLISH + PING)
            for p in (PUBLISH, PING):
                assert await reader.read(1) + await reader.read(1) + await reader.read(
                    len(p) - 2) == p
                got += 1
        assert got == 400 and broker.closed == []
        return before

    before = loop.run_until_complete(run())
    loop.close()
    assert counts["call_at"] == before["call_at"]  # (its run_until_complete's own aside)
    assert counts["create_task"] == before["create_task"]


def test_a_read_amqtt_times_out_takes_no_packet_away():
    loop = asyncio.new_event_loop()

    async def run():
        s, _, _ = _stream(loop)
        reader = PacketReader(s)
        s.feed_data(_connect())
        await reader.read(len(_connect()))
        for _ in range(3):  # amqtt's keep-alive wait_for, with nothing to read
            try:
                await asyncio.wait_for(reader.read(1), 0.01)
            except TimeoutError:
                pass
        s.feed_data(PING[:1])
        try:
            await asyncio.wait_for(reader.read(1), 0.01)  # half a packet: not yet
        except TimeoutError:
            pass
        s.feed_data(PING[1:])
        assert await reader.read(2) == PING

    loop.run_until_complete(run())
    loop.close()


def test_the_socket_waits_while_twice_the_limit_is_unread():
    loop = asyncio.new_event_loop()

    async def run():
        s, t, broker = _stream(loop)
        reader = PacketReader(s)
        s.feed_data(_connect())
        await reader.read(len(_connect()))
        n = 2 * Limits().packet // len(PUBLISH) + 2
        s.feed_data(PUBLISH * n)
        assert t.paused == 1 and t.resumed == 0
        for _ in range(n):
            assert await reader.read(len(PUBLISH)) == PUBLISH
        assert t.resumed == 1 and broker.closed == []
        s.feed_data(_packet(0x30, b"x" * Limits().packet)[:10])  # announces too much
        assert broker.closed == ["too_large"]

    loop.run_until_complete(run())
    loop.close()
