"""A box and the host on one virtual time line (docs/protocol.md, "Clock sync on the
box"; issue "Sync"): the helpers the host tests (test_clock_sync.py, faultutil.py,
test_faults_frames.py) and the clock and sync benches (bench/clock_bench.py,
bench/sync_bench.py, which put tests/host on sys.path) share.

- ``V``: virtual time in ms, a clock the caller moves.
- ``Feed``: a live host's feed (tdhost.links.boxlink.BoxLink's ``feed``) whose tournament clock
  runs on any ms clock; ``clock_version`` moves on each change the TD makes.
- ``position``: ms of the tournament gone by on a LevelClock.
- ``CableNight``: a box Link and a host BoxLink over the in-memory cable
  (tdhost/links/pipe.py) whose ends delay every frame with jitter (delayed.DelayedEnd).
"""

from pathlib import Path

from delayed import DelayedEnd, jitter

from link_util import StandIn
from tableclock.clock import LevelClock
from tableclock.table import Table
from tcbox.link.box_end import Link
from tcbox.link.frames import setup_of
from tdhost.links.boxlink import BoxLink
from tdhost.links.hoststore import HostStore
from tdhost.links.pipe import Cable

KEY = bytes(range(32))
BOX = "tc-01"
HOST0 = 1717171717000 + 3 * 3600 * 1000  # the host's Unix ms at virtual time 0
WRAP = 1 << 29
BOX_STEP = 20  # ms between the box's loops
HOST_STEP = 100  # ms between the host's polls


class V:
    """Virtual time in ms."""

    def __init__(self, t=0):
        self.t = t

    def __call__(self):
        return self.t


def position(c):
    """ms of the tournament gone by on a LevelClock."""
    return sum(c.levels[i][3] for i in range(c.index)) + c.levels[c.index][3] - c.left_ms


class Feed:
    """A live host's feed: the tournament clock of *setup* running on *time* (a callable
    giving ms), ``clock_version`` moved on each change the TD makes, and every table's
    config, seating (*names*) and clock; ``asked`` counts the tables asked for."""

    def __init__(self, time, setup, names):
        self.time = time
        self.setup = setup
        self.names = names
        self.clock = LevelClock(Table(dict(setup)).clock.levels)
        self.at = time()
        self.clock_version = 0
        self.asked = 0

    def run(self):
        now = self.time()
        self.clock.advance(now - self.at)
        self.at = now

    def level(self, index):
        """The TD moves the clock to the start of level *index*."""
        self.run()
        self.clock.index = index
        self.clock.left_ms = self.clock.levels[index][3]
        self.clock_version += 1

    def pause(self, paused):
        """The TD pauses (True) or resumes (False) the clock."""
        self.run()
        self.clock.paused = paused
        self.clock_version += 1

    def for_table(self, table, box):
        self.asked += 1
        self.run()
        c = self.clock
        return {"config": setup_of(self.setup), "seating": self.names,
                "clock": {"level_index": c.index, "ms_left": c.left_ms, "paused": c.paused}}

    def refusal(self, box, table):
        """Every box may serve any table of this feed (no pairing to check)."""
        return None

    def error(self, clock):
        """|the tournament on *clock* (a box's LevelClock) - the host's|, ms, now."""
        self.run()
        return abs(position(clock) - position(self.clock))


class CableNight:
    """A box and the host over the cable, the night 7 min (and 321 ms) in: box loop every
    BOX_STEP (20) ms, its ticks starting 30 s before the 2**29 wrap and running 50 ppm
    fast; host poll every HOST_STEP (100) ms, its Unix clock HOST0 + virtual ms; box ->
    host 5..45 ms (+ up to 300 ms on every 5th frame), host -> box 30..230 ms (+ up to
    600 ms on every 3rd).  The host's store is h.sqlite in *tmp_dir*.

    ``step()`` is one box loop: the time moves BOX_STEP, then ``exchange()`` (the cable
    delivers what is due, the box's tick, the host's poll when due)."""

    def __init__(self, tmp_dir, setup, names):
        self.v = V(0)
        self.cable = Cable()
        self.box_end = DelayedEnd(self.cable.a, self.v, jitter(3, 5, 40, 5, 300))
        self.host_end = DelayedEnd(self.cable.b, self.v, jitter(4, 30, 200, 3, 600))
        self.box = Link(self.box_end, BOX, Table(dict(setup)), KEY, "ev1")
        self.box.restore({"b": 6, "t": 4})
        self.app = StandIn()  # what the link's after_step asks of the box's App
        self.feed = Feed(self.v, setup, names)
        self.feed.clock.advance(7 * 60000 + 321)
        self.host = BoxLink(self.host_end, KEY, "ev1", HostStore(str(Path(tmp_dir) / "h.sqlite")),
                            self.feed, clock=self.v, wall=lambda: HOST0 + self.v.t)
        self.last = self.ticks()

    def ticks(self):
        """The box's ticks_ms now."""
        t = self.v.t
        return (WRAP - 30000 + t + t * 50 // 1000000) & (WRAP - 1)

    def step(self):
        self.v.t += BOX_STEP
        self.exchange()

    def exchange(self):
        self.box_end.pump()
        self.host_end.pump()
        now = self.ticks()
        dt = (now - self.last) & (WRAP - 1)
        self.last = now
        self.box.table.advance(dt)
        self.box.after_step(self.app, now)  # the link's share of the box's loop
        if self.v.t % HOST_STEP == 0:
            self.host.poll(self.v.t)

    def error(self):
        """|box - host| in ms of the tournament."""
        return self.feed.error(self.box.table.clock)

    def run(self, ms):
        """Step for *ms*; the largest error seen after a step, ms."""
        worst = 0
        for _ in range(ms // BOX_STEP):
            self.step()
            worst = max(worst, self.error())
        return worst
