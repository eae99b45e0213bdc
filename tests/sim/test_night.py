"""A four-hour night at the box, on every board, in virtual time.

The box boots as code.py builds it (``Sim.boot``: tcbox.hardware.build() on
the stub hardware, an empty nvm: the default table and structure) and
tcsim.bots.SessionBot plays it through the keys for exactly four virtual hours:
some 75 hands of random but legal betting, showdowns and splits,
players away and back, clocks called and run out, busted seats refilled and
pauses (the host's commands), misclicks the box refuses (each checked on the
spot: the refusal on the status line, the table unchanged), through levels
and both breaks.  After every loop step: the time label shows the engine's
``seconds_left`` (tcsim.bots.clock_text), no virtual time passed inside the step (the
loop never waits) and the next step came at most one loop period later.  At
the end: the clock stands where four hours minus the pauses put it in the
structure, to the millisecond, and every chip is still there.

Seeded and deterministic (a short night played twice is the same night).
The loop runs every 100 ms of virtual time (10 ms while keys move); both
nights take about 20 s on CPython.
"""

import gc

import pytest

from tableclock.levels import parse_levels
from tableclock.record import dump
from tcbox.boards import BOARDS
from tcbox.defaults import SETUP
from tcsim.bots import SessionBot, chips_in_play, clock_text, shown_time
from tcsim.sim import Sim, world

NIGHT_MS = 4 * 3600 * 1000
PERIOD_MS = 100  # the loop's period while nobody touches a key (virtual ms)
STEP_MS = 0  # virtual time one loop step may take: it never waits for anything
WALL_S = 1.0  # a step that took this long on the PC would be a hang, not a loop
SEEDS = {"compact": 7, "table": 11}


@pytest.fixture(autouse=True)
def frozen_heap():
    """CPython's collector would walk Blinka's, PIL's and pytest's objects
    too (App.save() once collected before each write: 15 ms a save, most of a
    night's run time).  Frozen, it only looks at what the box makes."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


class Watch:
    """Checks after every loop step (Sim.watch)."""

    def __init__(self):
        self.steps = 0
        self.last_ms = None
        self.max_gap = 0
        self.max_step_ms = 0
        self.max_wall = 0.0
        self.bad_time = []
        self.entries = set()  # clock entries (levels, breaks) seen

    def __call__(self, sim):
        self.steps += 1
        now = world.now_ms
        if self.last_ms is not None:
            self.max_gap = max(self.max_gap, now - self.last_ms)
        self.last_ms = now
        self.max_step_ms = max(self.max_step_ms, sim.step_ms)
        self.max_wall = max(self.max_wall, sim.step_wall_s)
        c = sim.table.clock
        self.entries.add(c.index)
        want = clock_text(c.seconds_left())
        shown = shown_time(sim.screen)
        if shown != want and len(self.bad_time) < 5:
            self.bad_time.append((now, shown, want))


def expected_clock(setup, play_ms):
    """(entry index, ms left) of the structure after *play_ms* of play."""
    levels = parse_levels(setup["levels"])
    i = 0
    while play_ms >= levels[i][3] and i < len(levels) - 1:
        play_ms -= levels[i][3]
        i += 1
    return i, max(levels[i][3] - play_ms, 0)


def night(board, seed, ms, period=PERIOD_MS):
    world.nvm.erase()
    sim = Sim.boot(board)
    watch = Watch()
    sim.watch.append(watch)
    bot = SessionBot(sim, seed=seed, period=period)
    bot.play(ms)
    return sim, bot, watch


@pytest.mark.slow
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_a_four_hour_night(board):
    sim, bot, w = night(board, SEEDS[board], NIGHT_MS)
    t = sim.table
    # four hours passed, the loop stepped all along and never waited
    assert world.now_ms == NIGHT_MS
    assert w.steps >= NIGHT_MS // PERIOD_MS
    assert w.max_gap <= PERIOD_MS, w.max_gap
    assert w.max_step_ms <= STEP_MS, w.max_step_ms
    assert w.max_wall < WALL_S, w.max_wall
    assert w.bad_time == [], w.bad_time  # the time label is the engine's seconds_left
    # the clock: exactly four hours minus the pauses, through the structure
    assert bot.paused_ms > 0 and bot.counts.get("host pause", 0) >= 1
    index, left = expected_clock(SETUP, NIGHT_MS - bot.paused_ms)
    assert (t.clock.index, t.clock.left_ms) == (index, left)
    st = sim.state()
    levels = parse_levels(SETUP["levels"])
    assert st["seconds_left"] == (left + 999) // 1000
    assert st["on_break"] == (levels[index][4] == 0)
    assert set(range(index + 1)) <= w.entries  # every level and break on the way
    assert sum(1 for e in levels[:index] if e[4] == 0) == 2  # both breaks are behind us
    # chips: every chip is at the table, in the pot, or left play with a bust
    assert chips_in_play(t) == bot.chips
    # a busy night, all of it through the keys; the misclicks were refused
    assert bot.hands >= 60, bot.hands
    assert bot.via_host == []
    for what in ("showdown", "away", "back", "clock", "host sit", "raise", "allin"):
        assert bot.counts.get(what, 0) > 0, (what, bot.counts)
    kinds = {r[0] for r in bot.refusals}
    assert kinds == {"new hand", "clock"}, bot.refusals
    errors = {r[1].split(" (")[0].rstrip("0123456789 ") for r in bot.refusals}
    assert len(errors) >= 3, errors
    print("\n%s: %d hands, %d steps, paused %d s, refusals %d, max wall step %.1f ms, %s"
          % (board, bot.hands, w.steps, bot.paused_ms // 1000, len(bot.refusals),
             w.max_wall * 1000, sorted(bot.counts.items())))


def test_the_same_seed_plays_the_same_night():
    runs = []
    for _ in range(2):
        sim, bot, w = night("compact", 3, 25 * 60 * 1000)
        runs.append((dump(sim.table), bot.counts, bot.refusals, w.steps, bot.paused_ms))
    assert runs[0] == runs[1]
    assert runs[0][1].get("hand", 0) >= 5


def test_a_dealer_waiting_out_a_break_lets_time_pass_with_under_a_second_left():
    """With under a second of a break left the box shows 0 s: the dealer still waits a
    second (a wait of 0 let no virtual time pass, and the faults night of
    tests/sim/test_night_demo.py stood still at 35 minutes in about one run of seven)."""
    import random

    ran = []

    class Sim:
        def run_for(self, ms, period):
            ran.append(ms)

    bot = SessionBot.__new__(SessionBot)  # no box needed for this decision
    bot.rng, bot.pace, bot.limit, bot.period, bot.sim = random.Random(1), 1.0, None, 100, Sim()
    assert bot._between_hands({"on_break": True, "seconds_left": 0}) == "break"
    assert bot._between_hands({"on_break": True, "seconds_left": 5}) == "break"
    assert ran == [1000, 5000]
