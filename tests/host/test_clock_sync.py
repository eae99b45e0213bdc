"""The host's side of the clock sync (tdhost/usb.py BoxLink; docs/protocol.md, "Clock sync
on the box"), and box Link <-> host BoxLink end to end over the in-memory cable
(tdhost/pipe.py) with delays and jitter injected, on one virtual time line.

The host answers a box's ping with a pong carrying host_ms, sends the feed's clock every
10 s and at once when the feed says its clock changed.  No real time passes: every clock
is a number the test moves.
"""

from tableclock.clock import LevelClock
from tableclock.protocol import Receiver, Sender
from tableclock.table import Table
from tcbox.link import LIVE, Link, setup_of, tick
from tdhost.pipe import Cable
from tdhost.usb import CLOCK_MS, BoxLink, HostStore, StaticFeed

KEY = bytes(range(32))
BOX = "tc-01"
LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
          {"break": 10},
          {"sb": 75, "bb": 150, "ante": 0, "minutes": 20}]
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": LEVELS}
NAMES = {"names": {"1": "Ann", "2": "Bo", "3": "Cy"}}
HOST0 = 1717171717000 + 3 * 3600 * 1000  # the host's Unix ms at virtual time 0
WRAP = 1 << 29


class V:
    """Virtual time in ms."""

    def __init__(self, t=0):
        self.t = t

    def __call__(self):
        return self.t


class Feed:
    """A live host's feed: a tournament clock running on virtual time, with
    ``clock_version`` moved on each change the TD makes."""

    def __init__(self, v, levels=LEVELS):
        self.v = v
        self.clock = LevelClock(Table(dict(SETUP, levels=levels)).clock.levels)
        self.at = v.t
        self.clock_version = 0
        self.asked = 0

    def run(self):
        self.clock.advance(self.v.t - self.at)
        self.at = self.v.t

    def level(self, index):
        self.run()
        self.clock.index = index
        self.clock.left_ms = self.clock.levels[index][3]
        self.clock_version += 1

    def for_table(self, table, box):
        self.asked += 1
        self.run()
        c = self.clock
        return {"config": setup_of(SETUP), "seating": NAMES,
                "clock": {"level_index": c.index, "ms_left": c.left_ms, "paused": c.paused}}


class HandBox:
    """The box's side by hand: frames into the cable, frames out of it."""

    def __init__(self, end):
        self.end = end
        self.tx = Sender(KEY, BOX, 7)
        self.rx = Receiver(KEY, BOX)
        self.rest = b""

    def send(self, msg):
        self.end.write(self.tx.encode(msg, "host"))

    def hello(self):
        self.send({"kind": "hello", "fw": "1", "table": 4, "key_id": "ev1", "nonce": "ab12"})

    def read(self):
        data = self.rest + self.end.read(self.end.in_waiting)
        lines = data.split(b"\n")
        self.rest = lines.pop()
        return [self.rx.accept(ln) for ln in lines if ln]


def _host(tmp_path, cable, feed, v, **kw):
    return BoxLink(cable.b, KEY, "ev1", HostStore(str(tmp_path / "h.sqlite")), feed, clock=v,
                   **kw)


def _kinds(msgs):
    return [m["kind"] for m in msgs]


# ------------------------------------------------------------ the host alone
def test_a_box_ping_is_answered_first_with_host_ms(tmp_path):
    v = V(5000)
    cable = Cable(capacity=0)  # the box reads nothing yet: the host's frames queue up
    host = _host(tmp_path, cable, StaticFeed({4: {"config": setup_of(SETUP), "seating": NAMES,
                                                  "clock": {"level_index": 0, "ms_left": 60000,
                                                            "paused": False}}}), v)
    box = HandBox(cable.a)
    cable.capacity = 4096
    box.hello()
    cable.capacity = 0
    host.poll(v.t)  # config, seating, clock, ping: queued
    assert host.out is not None and len(host.queue) == 3
    cable.capacity = 4096
    box.send({"kind": "ping", "t": 536870000})
    cable.capacity = 0
    v.t += 1234
    host.poll(v.t)
    cable.capacity = 65536
    host.poll(v.t)
    got = box.read()
    assert _kinds(got) == ["config", "pong", "seating", "clock", "ping"], _kinds(got)
    pong = got[1]
    assert pong["v"] == "1.1" and pong["to"] == BOX and pong["t"] == 536870000
    assert pong["host_ms"] == host.wall() and host.pongs == 1
    # the default wall clock is Unix time when the link was made, run on by its clock
    assert got[3]["host_ms"] == pong["host_ms"] - 1234
    v.t += 5000
    box.send({"kind": "ping", "t": 7})
    host.poll(v.t)
    assert [m["host_ms"] for m in box.read() if m["kind"] == "pong"] == [pong["host_ms"] + 5000]


def test_the_clock_goes_every_10s_and_a_static_one_runs_on(tmp_path):
    v = V(1000)
    cable = Cable()
    feed = StaticFeed({4: {"config": setup_of(SETUP), "seating": NAMES,
                           "clock": {"level_index": 1, "ms_left": 600000, "paused": False}}})
    host = _host(tmp_path, cable, feed, v, wall=lambda: HOST0 + v.t)
    box = HandBox(cable.a)
    for _ in range(100):  # before any hello: nothing to send a clock to
        host.poll(v.t)
        v.t += 100
    assert "clock" not in _kinds(box.read())
    box.hello()
    clocks = []
    for _ in range(350):  # 35 s, polls every 100 ms
        host.poll(v.t)
        clocks += [(v.t, m) for m in box.read() if m["kind"] == "clock"]
        if v.t % 5000 == 0:
            box.send({"kind": "status", "state": {}, "table": 4})  # live
        v.t += 100
    assert CLOCK_MS == 10000
    assert [t - clocks[0][0] for t, m in clocks] == [0, 10000, 20000, 30000]
    # the same values every time: as of when they were first sent (the clock runs on from there)
    assert set(m["host_ms"] for t, m in clocks) == {HOST0 + clocks[0][0]}
    assert host.state == "live"


def test_a_feed_change_goes_out_in_the_next_poll(tmp_path):
    v = V(1000)
    cable = Cable()
    feed = Feed(v)
    host = _host(tmp_path, cable, feed, v, wall=lambda: HOST0 + v.t)
    box = HandBox(cable.a)
    box.hello()
    host.poll(v.t)
    first = [m for m in box.read() if m["kind"] == "clock"]
    assert len(first) == 1 and first[0]["host_ms"] == HOST0 + 1000
    for _ in range(30):  # 3 s: no change, no clock
        v.t += 100
        host.poll(v.t)
    assert "clock" not in _kinds(box.read())
    feed.level(3)  # the TD jumps to level 3 (after the break)
    v.t += 100
    host.poll(v.t)
    got = [m for m in box.read() if m["kind"] == "clock"]
    assert [(m["level_index"], m["ms_left"], m["host_ms"]) for m in got] == [
        (3, 1200000 - 100, HOST0 + v.t)]  # the level began 100 ms before this poll
    v.t += 100
    host.poll(v.t)
    assert "clock" not in _kinds(box.read())  # once per change
    # pause/resume/adjust by hand: send_clock() at once
    feed.clock.paused = True
    assert host.send_clock()
    host.poll(v.t)
    got = [m for m in box.read() if m["kind"] == "clock"]
    assert len(got) == 1 and got[0]["paused"] is True


def test_a_feed_with_only_a_version_is_watched_through_it(tmp_path):
    v = V(1000)
    cable = Cable()

    class Live(StaticFeed):
        version = 0

    feed = Live({4: {"config": setup_of(SETUP), "seating": NAMES,
                     "clock": {"level_index": 0, "ms_left": 5000, "paused": True}}})
    host = _host(tmp_path, cable, feed, v)
    box = HandBox(cable.a)
    box.hello()
    host.poll(v.t)
    box.read()
    v.t += 100
    host.poll(v.t)
    assert "clock" not in _kinds(box.read())
    feed.version = 1  # anything visible changed: the clock goes (a repeat does no harm)
    v.t += 100
    host.poll(v.t)
    assert _kinds(box.read()) == ["clock"]
    assert BoxLink.send_clock(_host(tmp_path, Cable(), None, v)) is False  # no box, no feed


# -------------------------------------------------------------- end to end
class Delayed:
    """A cable end whose writes reach the other side *delay(n)* ms later
    (n counts the writes: one frame each), in order."""

    def __init__(self, end, v, delay):
        self.end = end
        self.v = v
        self.delay = delay
        self.n = 0
        self.flight = []  # [due, bytes]
        self.baudrate = end.baudrate

    @property
    def connected(self):
        return self.end.connected

    @property
    def in_waiting(self):
        return self.end.in_waiting

    def read(self, n=1):
        return self.end.read(n)

    def write(self, buf):
        if not self.end.connected:
            return 0
        self.n += 1
        due = self.v.t + self.delay(self.n)
        if self.flight and due < self.flight[-1][0]:
            due = self.flight[-1][0]
        self.flight.append([due, bytes(buf)])
        return len(buf)

    def pump(self):
        while self.flight and self.flight[0][0] <= self.v.t:
            self.end.write(self.flight.pop(0)[1])


class Rand:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _jitter(seed, base, spread, every, burst):
    r = Rand(seed)
    return lambda n: base + r.below(spread) + (r.below(burst) if n % every == 0 else 0)


class _App:
    state = None

    def __init__(self):
        self.info = {}
        self.dirty = False

    def save(self):
        pass


def _position(c):
    return sum(c.levels[i][3] for i in range(c.index)) + c.levels[c.index][3] - c.left_ms


class Night:
    """A box and the host over the cable: box loop every 20 ms (ticks from 30 s before
    the 2**29 wrap, 50 ppm fast), host poll every 100 ms, box -> host 5..45 ms (+ up to
    300 ms on every 5th frame), host -> box 30..230 ms (+ up to 600 ms on every 3rd)."""

    def __init__(self, tmp_path):
        self.v = V(0)
        self.cable = Cable()
        self.box_end = Delayed(self.cable.a, self.v, _jitter(3, 5, 40, 5, 300))
        self.host_end = Delayed(self.cable.b, self.v, _jitter(4, 30, 200, 3, 600))
        self.table = Table(dict(SETUP))
        self.box = Link(self.box_end, BOX, self.table, KEY, "ev1")
        self.box.restore({"b": 6, "t": 4})
        self.app = _App()
        self.feed = Feed(self.v)
        self.feed.clock.advance(7 * 60000 + 321)  # the night is 7 min in
        self.host = BoxLink(self.host_end, KEY, "ev1", HostStore(str(tmp_path / "h.sqlite")),
                            self.feed, clock=self.v, wall=lambda: HOST0 + self.v.t)
        self.last = self.ticks()

    def ticks(self):
        t = self.v.t
        return (WRAP - 30000 + t + t * 50 // 1000000) & (WRAP - 1)

    def step(self):
        self.v.t += 20
        self.box_end.pump()
        self.host_end.pump()
        now = self.ticks()
        dt = (now - self.last) & (WRAP - 1)
        self.last = now
        self.box.table.advance(dt)
        tick(self.app, self.box, now)
        if self.v.t % 100 == 0:
            self.host.poll(self.v.t)

    def error(self):
        """|box - host| in ms of the tournament."""
        self.feed.run()
        return abs(_position(self.box.table.clock) - _position(self.feed.clock))

    def run(self, ms):
        worst = 0
        for _ in range(ms // 20):
            self.step()
            worst = max(worst, self.error())
        return worst


def test_end_to_end_within_250ms_and_a_level_change_within_a_second(tmp_path):
    night = Night(tmp_path)
    night.run(20000)  # hello, config, the box's first pings
    assert night.box.state == LIVE and night.host.state == "live"
    assert night.box.sync.ready(night.ticks()) and night.host.pongs >= 4
    worst = night.run(5 * 60000)
    assert night.ticks() < WRAP - 30000  # the box's ticks wrapped
    assert worst <= 250, worst
    night.feed.level(3)  # the TD jumps to level 3
    took = 0
    while night.box.table.clock.index != 3:
        night.step()
        took += 20
        assert took <= 1000, "the level change took more than a second"
    night.run(3000)
    assert night.error() <= 250 and night.box.odd_clocks == 0
