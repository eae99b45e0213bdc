"""The host's side of the clock sync (tdhost/links/usb.py BoxLink; docs/protocol.md, "Clock sync
on the box"), and box Link <-> host BoxLink end to end over the in-memory cable
(tdhost/links/pipe.py) with delays and jitter injected, on one virtual time line
(tests/host/vtime.py).

The host answers a box's ping with a pong carrying host_ms, sends the feed's clock every
10 s and at once when the feed says its clock changed.  No real time passes: every clock
is a number the test moves.
"""

from vtime import BOX, HOST0, KEY, WRAP, CableNight, Feed, V

from tableclock.protocol import Receiver, Sender
from tcbox.link.frames import setup_of
from tcbox.link.states import LIVE
from tdhost.links.boxlink import CLOCK_MS, BoxLink, StaticFeed
from tdhost.links.hoststore import HostStore
from tdhost.links.pipe import Cable

LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
          {"break": 10},
          {"sb": 75, "bb": 150, "ante": 0, "minutes": 20}]
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": LEVELS}
NAMES = {"names": {"1": "Ann", "2": "Bo", "3": "Cy"}}


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
    feed = Feed(v, SETUP, NAMES)
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
def test_end_to_end_within_250ms_and_a_level_change_within_a_second(tmp_path):
    night = CableNight(tmp_path, SETUP, NAMES)
    night.run(20000)  # hello, config, the box's first pings
    assert night.box.state == LIVE and night.host.state == "live"
    assert night.box.hostclock.sync.ready(night.ticks()) and night.host.pongs >= 4
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
    assert night.error() <= 250 and night.box.hostclock.odd_clocks == 0
