"""Power cuts at random moments of a session, mid-write included, on every board.

The box boots as code.py builds it (``Sim.boot``: tcbox.hardware.build() on
the stubs) and tcsim.bots.SessionBot plays it through the keys.  At random
moments the power goes off:

- between two loop steps (a watch raises PowerCut after the j-th step), or
- in the middle of an nvm write: ``world.nvm.cut_after(k)`` lets the next
  write store only its first k bytes, the rest of its range keeping the old
  bytes or erased to 0xFF, and raises PowerCut out of ``App.step``.

Then the box boots again from nvm (``Sim.boot``) and the restored table must
be the table before the cut, or the table before the last change (the write
that was cut) -- the table state without the running clocks' seconds and the
refusal (tcsim.bots.quiet) -- and the screen must show that table: every
field the dealer reads is what the box showed for it before the cut (the
time, the shot clock's seconds, the status line and the menu's position
aside: the menu restarts at the top of the main options), the ring too, and
the time label is the restored clock's.  A cut between steps must lose
nothing but clock time; the restored level clock is never ahead of the one
that ran.  Seeded: 100 cuts per board.

The tests at the end pin two things the first runs of this one found in
tcbox/app.py (since fixed): the level clock alone was never saved (a cut
after ten quiet minutes restored it ten minutes back), and a shot clock that
ran out was saved only with the next press (cutting that write lost both).
A third pins the clock budget: the App offers the record every 30 s of clock
and the Saver's slack is below that, so a cut costs at most about 30 s of
clock (CLOCK_LOSS_MS holds the random session to it).
"""

import gc
import random

import pytest

from tcbox.boards import BOARDS
from tcbox.menu import MAIN, RANK, Menu
from tcsim.bots import SessionBot, clock_text, quiet, shown_time
from tcsim.driver import Dealer
from tcsim.sim import Sim, world
from tcsim.stubs._world import PowerCut

CUTS = 100  # per board
# clock time a cut may cost: tcbox/app.py saves the running clock every 30 s shown, but see
# test_a_cut_loses_at_most_30_seconds_of_clock: for now up to twice that
CLOCK_LOSS_MS = {"step": 31000, "write": 61000}  # a cut write: the record before
SEEDS = {"compact": 5, "table": 6}
# fields that move with time or are not part of the table (the refusal, the menu position)
# and whether the players' view is up: it comes a few seconds after a press or a power-up
LOOSE = ("time", "shot", "shot_kind", "status", "status_kind", "menu", "menu_i", "players",
         "act")  # the players' line carries a called clock's seconds


@pytest.fixture(autouse=True)
def frozen_heap():
    """The collector leaves the PC's own objects alone (see test_night.py)."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def _first(sim, st):
    """Where a fresh box's highlight starts in state *st*: the top, or on
    a board with a Call key, during a hand, the minimum raise (tcbox/menu.py)."""
    m = Menu(setup=True, roles=sim.roles)
    m.refresh(st, sim.box.info, sim.box.facts())
    return m.i


class Seen:
    """What the box showed after each change of the table (Sim.watch): the
    quiet state, the screen's fields, the ring, and whether the menu was as
    a box fresh from boot shows it (the top of the main options, or of the
    showdown's picks with none picked)."""

    def __init__(self):
        self.history = []
        self.state_obj = None
        self.stop_after = None  # steps until a cut between steps

    def __call__(self, sim):
        st = sim.box.state
        if st is not self.state_obj:  # the box redrew
            self.state_obj = st
            q = quiet(st)
            if not self.history or self.history[-1]["q"] != q:
                m = sim.box.menu
                top = (m.mode in (MAIN, RANK) and m.i == _first(sim, st) and not m.picked
                       and not m.tiers)
                self.history.append({"q": q, "fields": dict(sim.box.fields), "leds": sim.leds(),
                                     "menu_at_top": top})
                del self.history[:-3]
        if self.stop_after is not None:
            self.stop_after -= 1
            if self.stop_after <= 0:
                self.stop_after = None
                raise PowerCut("power cut between two loop steps")


def boot(board, seen):
    sim = Sim.boot(board)  # the first step redraws before the watch is on
    seen.history = []
    seen.state_obj = None
    seen.stop_after = None
    sim.watch.append(seen)
    seen(sim)
    return sim


def check_restored(board, sim, live, live_left, prev, kind, cut):
    """The box *sim* booted after a cut: its table is *live* (the table at
    the cut) or *prev* (the one before the last change), and it shows it."""
    st = sim.state()
    q = quiet(st)
    what = (board, kind, cut["k"], cut["fill"], cut["at_ms"])
    if q == live:
        got = "same"
    elif prev is not None and q == prev["q"]:
        got = "previous"
    else:
        diff = {k: (q[k], live.get(k)) for k in q if q[k] != live.get(k)}
        raise AssertionError("restored table is neither the live one nor the one before: "
                             "%r %r" % (what, diff))
    if kind == "step":  # nothing was being written: nothing but clock time is lost
        assert got == "same", what
    c = sim.table.clock
    if got == "same" and c.index == live_left[0]:
        assert c.left_ms >= live_left[1], ("restored clock ahead of the live one", what)
    # the screen: what the box showed for that table
    shown = sim.box.fields
    assert shown_time(sim.screen) == clock_text(c.seconds_left()), what
    ref = [h for h in cut["history"] if h["q"] == q]
    assert ref, ("no screen seen for the restored table", what)
    ref = ref[-1]
    for k in ref["fields"]:
        if k not in LOOSE:
            assert shown.get(k) == ref["fields"][k], (what, k, shown.get(k), ref["fields"][k])
    assert bool(shown.get("shot")) == bool(ref["fields"].get("shot")), what
    # a fresh box: the top of the options (the table build: the minimum raise in a hand)
    assert shown["menu_i"] == _first(sim, st), what
    if ref["menu_at_top"]:
        assert shown["menu"] == ref["fields"]["menu"], (what, shown["menu"])
    assert shown["status"] in (st["error"], st["last"] or ""), (what, shown["status"])
    leds = sim.leds()
    odd = [i for i in range(len(leds)) if leds[i] != ref["leds"][i]]
    if shown.get("shot"):  # the action pixel flashes with the shot clock's warning
        odd = [i for i in odd if i + 1 != st["action"]]
    assert odd == [], (what, leds, ref["leds"])
    return got, c.left_ms - live_left[1] if c.index == live_left[0] else 0


def players(sim):
    return sum(1 for v in sim.table.stacks.values() if v > 0)


def cuts_on(board, seed, n):
    rng = random.Random(seed)
    world.nvm.erase()
    seen = Seen()
    sim = boot(board, seen)
    bot = SessionBot(sim, seed=seed, period=50, host=False, pace=0.25)
    stats = {"step same": 0, "write same": 0, "write previous": 0, "fresh": 0, "cut writes": 0}
    worst = {"step": 0, "write": 0}  # clock time lost, ms
    done = 0
    while done < n:
        for _ in range(rng.randint(0, 3)):  # play on a little
            if bot.turn() == "short":
                break
        if rng.random() < 0.3:
            bot.idle(rng.uniform(0, 150) / bot.pace)  # nobody touches a key for a while
        if players(sim) < 2:  # the game is over: a new one on an erased box
            world.nvm.erase()
            sim = boot(board, seen)
            bot.bind(sim)
            stats["fresh"] += 1
            continue
        kind = "write" if rng.random() < 0.6 else "step"
        cut = {"k": None, "fill": None}
        if kind == "write":
            cut["k"] = rng.randint(0, max(world.nvm.last_write, 64))
            cut["fill"] = rng.choice((None, 0xFF))
            world.nvm.cut_after(cut["k"], cut["fill"])
        else:
            seen.stop_after = cut["k"] = rng.randint(1, 2400)  # within 2 min
        cuts_before = world.nvm.cuts
        try:
            # turns until the armed cut comes: the next write or two (none while a break runs;
            # 30 turns fell one short once the players' view and the new rules landed)
            for _ in range(100):
                if bot.turn() == "short":  # the last hand left one player: cut now
                    kind = "step"
                    world.nvm.cut_after(None)
                    raise PowerCut("power cut between two loop steps")
            raise AssertionError("no cut came: %r" % (cut,))
        except PowerCut:
            pass
        world.nvm.cut_after(None)
        if world.nvm.cuts > cuts_before:
            stats["cut writes"] += 1
        live = quiet(sim.table.state())
        live_left = (sim.table.clock.index, sim.table.clock.left_ms)
        hist = seen.history
        prev = hist[-1] if hist and hist[-1]["q"] != live else (hist[-2] if len(hist) > 1
                                                                 else None)
        cut["history"] = list(hist)
        cut["at_ms"] = world.now_ms
        sim = boot(board, seen)
        got, lost = check_restored(board, sim, live, live_left, prev, kind, cut)
        stats["%s %s" % (kind, got)] += 1
        worst[kind] = max(worst[kind], lost)
        bot.bind(sim)
        done += 1
    return stats, worst


@pytest.mark.slow
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_random_power_cuts_restore_the_table_and_the_screen(board):
    stats, worst = cuts_on(board, SEEDS[board], CUTS)
    print("\n%s: %r; most clock time lost %r ms" % (board, stats, worst))
    assert stats["step same"] + stats["write same"] + stats["write previous"] == CUTS
    assert stats["step same"] >= CUTS // 5
    assert stats["write previous"] >= CUTS // 5  # cut writes lose their change, no more
    assert stats["cut writes"] >= CUTS // 3
    assert worst["step"] <= CLOCK_LOSS_MS["step"], worst
    assert worst["write"] <= CLOCK_LOSS_MS["write"], worst


# ------------------------------------------------ the clock and the shot clock alone
def _fresh(board="table"):
    world.nvm.erase()
    sim = Sim.boot(board)
    Dealer(sim).do({"do": "hand"})
    return sim


def test_a_quiet_clock_is_saved_every_30_seconds():
    """Nothing happens for ten minutes, then the power goes: the clock comes
    back at most 30 s behind (tcbox/app.py SAVE_EVERY_S; the Saver's slack)."""
    sim = _fresh()
    sim.tick(600)
    live = sim.table.clock.left_ms
    again = Sim.boot("table")
    assert again.table.clock.left_ms - live <= 30000 + 1000


def test_a_shot_clock_running_out_is_saved():
    """A shot clock that runs out (LPPL ¶51: a slow-play warning the first
    time) is written at once, so cutting the next press's write loses that
    press only."""
    sim = _fresh()
    dealer = Dealer(sim)
    seat = sim.state()["action"]
    dealer.do({"do": "clock"})
    sim.tick(sim.state()["shot_clock"] + 2)  # the seat to act is warned by the clock
    timed_out = quiet(sim.state())
    assert timed_out["last"] == "Time is up. Seat %d: slow play, warning 1" % seat
    assert timed_out["warnings"] == {str(seat): 1}
    world.nvm.cut_after(0)
    with pytest.raises(PowerCut):
        dealer.do({"do": "call"})
    world.nvm.cut_after(None)
    again = Sim.boot("table")
    assert quiet(again.state()) == timed_out  # the state before the last change


def test_a_cut_loses_at_most_30_seconds_of_clock():
    sim = _fresh()
    dealer = Dealer(sim)
    sim.tick(31)
    dealer.do({"do": "call"})  # saved at about 19:28
    sim.tick(58.5)
    live = sim.table.clock.left_ms
    again = Sim.boot("table")
    assert again.table.clock.left_ms - live <= 30000 + 1000
