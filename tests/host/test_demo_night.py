"""`tdhost serve --demo` plays its night to a winner (host_tools/tcsim/serve_demo.py; issue #17).

The demo's 20 players (docs/examples/lppl.toml: 3000 chips each) at three simulated boxes
dealt by bots, run to the end:

- in virtual time (``realtime=False``: the room steps Live), and
- as ``tdhost serve --demo --demo-speed 50`` runs it -- serve's own loop (``serve.run``)
  with the room as a transport stepped at most ``MAX_STEPS`` per poll behind a clock 50
  times as fast as the wall clock -- on a virtual wall clock, so no test waits for it;
  the room keeps up with that clock all night.

Each time the final table must sit down with every finalist's chips (all 60,000 of them:
chips only change hands) and the tournament must end with one winner.  The stall this
guards against: the dealer of a table that had players at the final draw went home at
the draw (the league seated nobody there any more), so that table's ``redraw`` and
``break_table`` were never confirmed and the final table never sat down (seed 7); a dealer
asked to confirm from a half-ranked showdown, which has no Confirm, tried again forever
(seed 3).
"""

import threading

import pytest

from tcsim import serve_demo as _demo
from tdhost.cli import serving as serve
from tdhost.live import instruction_log as _ins

pytestmark = pytest.mark.slow  # about 20 s a night

CHIPS = 20 * 3000  # the demo's 20 players at LPPL's 3000 chips
VIRTUAL_NIGHT_MS = 6 * 3600 * 1000  # a night ends well within this


def check_night(d):
    t = d.live.tournament
    assert t.ended, "the demo night did not end: %d players in, instructions pending: %s" % (
        len(t.remaining()), [(r["action"], r["table"]) for r in _ins.pending(t)])
    f = t.final
    assert f is not None and f.get("seated"), "the final table never sat down"
    # the finalists still in when it sat down: the draw's players less those who went out
    # in the hand their table was finishing
    events = [ev for ev in d.live.lg.events if ev.tournament == t.number
              and ev.seq not in d.live.lg.undone]
    at = max(ev.seq for ev in events if ev.action == "final_seated")
    gone = {n for ev in events if ev.action == "bust" and ev.seq < at
            for tier in ev.payload["tiers"] for n in tier}
    stacks = f["stacks"]  # the final_seated event's: each finalist's chips at the box
    assert sorted(stacks) == sorted(n for n in f["seats"] if n not in gone)
    assert len(stacks) >= 2  # every finalist has chips on the final table
    assert all(c > 0 for c in stacks.values())
    assert sum(stacks.values()) == CHIPS
    assert not _ins.pending(t)  # every table's redraw and break_table confirmed
    assert len(t.remaining()) == 1 and t.ended["tiers"][0][0] == t.remaining()[0].name


@pytest.mark.parametrize("seed", [7, 3])
def test_the_demo_night_plays_to_a_winner_in_virtual_time(tmp_path, seed):
    d = _demo.Demo.build(str(tmp_path), seed=seed, realtime=False)
    try:
        for _ in range(VIRTUAL_NIGHT_MS // 60000):
            d.advance(60000)
            if d.live.tournament.ended:
                break
        check_night(d)
    finally:
        d.close()


class WallClock:
    """A virtual wall clock (seconds) that serve's loop moves with its sleeps."""

    def __init__(self):
        self.s = 1000.0

    def __call__(self):
        return self.s

    def sleep(self, s):
        self.s += s


def test_serve_demo_at_speed_50_plays_to_a_winner(tmp_path):
    wall = WallClock()
    d = _demo.Demo.build(str(tmp_path), seed=7, speed=50, monotonic=wall)
    try:
        lock = threading.RLock()
        poll_ms = serve.DEFAULT_POLL_MS
        # a night at 50x: at most VIRTUAL_NIGHT_MS / 50 of wall time, in rounds of 100 polls
        behind = 0
        for _ in range(VIRTUAL_NIGHT_MS // 50 // poll_ms // 100):
            serve.run(d.live, [d.stepper], poll_ms, lock, polls=100, sleep=wall.sleep)
            behind = max(behind, d.stepper.behind_ms)
            if d.live.tournament.ended:
                break
        check_night(d)
        # the boxes kept up with the host's clock: at 50x a 50 ms poll is 2.5 s of the
        # night, within the stepper's MAX_STEPS (at 20 steps the room ended 47 minutes behind)
        assert behind == 0
    finally:
        d.close()
