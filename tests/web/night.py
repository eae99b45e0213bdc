"""The real host with three whole simulated boxes for the browser tests and the console's
screenshots: ``tdhost.live.night.Live`` on a league file, ``tcsim.room`` boxes (the firmware's App
and link) on in-memory cables to host BoxLinks, on the room's virtual clock, which the
caller moves (``advance``/``until``, 100 ms steps, each under the web's lock as tdhost
serve's loop holds it).  A dealer at each box (``Hands``) does what the test asks through
the box's own keys.

    night = Night(tmp_path)                     # registration open, boxes linked
    with served(night.live) as web:
        night.lock = web.lock
        ...
    night.close()
"""

import os

from tcsim import serve_demo
from tcsim.driver import Dealer
from tcsim.room import Room
from tdhost.clocks import unix_ms
from tdhost.live.host import Host

KEY = bytes(range(7, 39))
STEP_MS = 100


class Hands:
    """A dealer who does what the test asks, through the box's own keys: each job
    ``fn(hands)`` runs in the box's greenlet (tcsim.room.Box.play) and its result is
    appended to ``done``."""

    def __init__(self, box):
        self.box = box
        self.dealer = Dealer(box)
        self.todo = []
        self.done = []

    def run(self):
        while True:
            if self.todo:
                job = self.todo.pop(0)
                self.done.append(job(self))
            else:
                self.box.run_for(STEP_MS)

    def keys(self, event):
        """One table event through the keys; it must not need the host's hand."""
        got = self.dealer.do(event)
        assert got["via"] == "keys", (self.box.box_id, event, got)

    def confirm(self):
        """The Confirm of the instruction on screen (as tcsim.bots.SessionBot does it)."""
        app = self.box.box
        assert app.awaiting(), "%s shows no instruction" % self.box.box_id
        if app.dirty:
            self.box.step()  # on screen first: the presses are found on the menu shown
        return self.dealer.confirm()


class Night:
    """The host, the room and the web for one test."""

    def __init__(self, tmp_path):
        tmp_path = str(tmp_path)
        self.db = os.path.join(tmp_path, "league.sqlite")
        serve_demo.new_tournament(self.db)
        self.room = Room(clock_ms_start=unix_ms(), seed=3)
        self.host = Host(self.db, os.path.join(tmp_path, "links.sqlite"), KEY, serve_demo.KEY_ID,
                         clock=self.room.clock, seed=5, link_clock=self.room.clock)
        self.live = self.host.live
        self.boxes = serve_demo.link_boxes(self.host, self.room)
        self.room.on_host = self.host.poll
        self.hands = {}
        for tb, box in self.boxes.items():
            self.hands[tb] = Hands(box)
            box.play(self.hands[tb])
        self.lock = None  # the web's, once served

    def step(self):
        with self.lock:
            self.room.step(STEP_MS)

    def advance(self, ms):
        for _ in range(ms // STEP_MS):
            self.step()

    def until(self, what, cond, ms=10000):
        """Step the room until ``cond()`` (asked under the lock) holds, at most *ms* of
        virtual time."""
        for _ in range(ms // STEP_MS):
            with self.lock:
                if cond():
                    return
            self.step()
        with self.lock:
            assert cond(), "%s: not within %d virtual ms" % (what, ms)

    def job(self, table, fn, ms=60000):
        """Run *fn* at the box of *table* (its dealer's greenlet); returns its result."""
        h = self.hands[table]
        n = len(h.done)
        h.todo.append(fn)
        self.until("the dealer at table %d" % table, lambda: len(h.done) > n, ms)
        return h.done[n]

    def snap(self):
        with self.lock:
            return self.live.snapshot()

    def close(self):
        self.room.close()
        self.host.close()


def allin_hand(loser, winner):
    """A hand in which *loser* and *winner* go all-in, the others fold, and the winner's
    hand is better: with equal stacks the loser busts.  Returns the state after it."""
    def play(h):
        h.keys({"do": "hand"})
        while True:
            st = h.box.state()
            if st["street"] in (None, "showdown") or st["action"] is None:
                break
            a = st["action"]
            h.keys({"do": "allin"} if a in (loser, winner) else {"do": "fold"})
        if h.box.state()["street"] == "showdown":
            h.keys({"do": "showdown", "ranking": [[winner], [loser]]})
        return h.box.state()
    return play
