"""Following the host's clock: offset estimation from round trips, slewing."""

from tableclock.clock import LevelClock
from tableclock.clocksync import OffsetEstimator, Slew, ticks_add, ticks_diff
from tableclock.levels import parse_levels

WRAP = 1 << 29
LEVELS = parse_levels([
    {"sb": 25, "bb": 50, "minutes": 20},
    {"sb": 50, "bb": 100, "minutes": 20},
])


class Rand:
    """A tiny LCG: the same numbers on CPython and MicroPython."""

    def __init__(self, seed=12345):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _feed(est, t0, offset, n=40, rnd=None):
    """*n* round trips from box tick *t0*, one every 5 s; delays 5..40 ms
    each way, and on every third one up to 400 ms more on one side."""
    rnd = rnd or Rand()
    t = t0
    for i in range(n):
        out = 5 + rnd.below(35)
        back = 5 + rnd.below(35)
        if i % 3 == 0:
            out += rnd.below(400)
        elif i % 3 == 1:
            back += rnd.below(400)
        send = t
        recv = ticks_add(t, out + back)
        # the host's clock when it answered: runs on while the box's ticks wrap
        host_ms = offset + t0 + i * 5000 + out
        est.add(send, host_ms, recv)
        t = ticks_add(t, 5000)
    return t


def test_estimator_keeps_the_lowest_delay_sample():
    est = OffsetEstimator(size=8)
    t0 = 1000
    offset = 1717171717000
    est.add(t0, t0 + 300 + offset, t0 + 320)  # 300 ms out, 20 back: 140 ms off
    est.add(t0 + 100, t0 + 110 + offset, t0 + 120)  # 10 and 10: exact
    est.add(t0 + 200, t0 + 210 + offset, t0 + 700)  # 10 out, 490 back
    assert est.uncertainty(t0 + 700) == 10
    assert est.offset(t0 + 700) == offset
    assert est.host_at(t0 + 1000) == t0 + 1000 + offset


def test_a_worse_sample_still_fills_a_free_slot():
    """Until all *size* slots are taken every sample is kept (the best of a window needs
    the window): a 500 ms round trip after a 20 ms one is kept, the best stays the 20."""
    est = OffsetEstimator(size=4)
    offset = 1717171717000
    assert est.add(1000, 1010 + offset, 1020)
    assert est.add(2000, 2250 + offset, 2500)
    assert est.add(3000, 3100 + offset, 3200)
    assert [r for r in est.rtt if r >= 0] == [20, 500, 200]
    assert est.uncertainty(3200) == 10
    assert est.add(4000, 4300 + offset, 4600)  # the 4th slot
    assert not est.add(5000, 5400 + offset, 5800)  # full: no better than the worst kept
    assert est.add(6000, 6015 + offset, 6030)  # better than the worst (600): replaces it
    assert sorted(r for r in est.rtt if r >= 0) == [20, 30, 200, 500]


def test_estimator_within_250ms_with_asymmetric_jitter():
    est = OffsetEstimator(size=8)
    offset = 1717171717000
    now = _feed(est, 5000, offset)
    err = est.host_at(now) - (now + offset)
    assert -250 <= err <= 250, err
    assert est.uncertainty(now) <= 250
    assert -est.uncertainty(now) <= err <= est.uncertainty(now)
    assert est.count == 40


def test_estimator_refuses_nonsense_and_forgets_old_samples():
    est = OffsetEstimator(size=4, max_age=60000)
    assert not est.add(1000, 5, 900)  # received before it was sent
    assert est.refused == 1 and not est.ready(1000)
    assert est.add(1000, 2000, 1010)
    assert est.ready(2000) and not est.ready(1000 + 120000)  # too old
    assert est.host_at(1000 + 120000) is None


def test_estimator_across_the_tick_wrap():
    est = OffsetEstimator(size=8)
    offset = 1717171717000
    start = WRAP - 100000  # 100 s before the box's ticks wrap
    now = _feed(est, start, offset)
    assert now < start  # wrapped
    err = est.host_at(now) - (offset + start + ticks_diff(now, start))
    assert -250 <= err <= 250, err
    assert est.box_at(est.host_at(now), now) == now
    assert ticks_diff(5, WRAP - 5) == 10 and ticks_add(WRAP - 5, 10) == 5


def _run(clock, slew, now, ms, step=20, shown=None):
    """The box's loop: the clock advances, then the slew works."""
    worst = 0
    prev = clock.seconds_left()
    for _ in range(ms // step):
        now = ticks_add(now, step)
        clock.advance(step)
        slew.step(clock, now)
        s = clock.seconds_left()
        if s - prev > worst:
            worst = s - prev
        prev = s
    return now, worst


def test_slewing_a_3s_error_converges_within_a_minute_both_ways():
    for err in (3000, -3000):
        c = LevelClock(LEVELS)
        slew = Slew()
        now = WRAP - 10000  # and across the wrap
        slew.step(c, now)
        host = c.left_ms - err  # the host's reading now
        assert not slew.toward(c, 0, host, False, now, now)
        assert c.left_ms == host + err  # nothing jumps
        start_left = c.left_ms
        now, back = _run(c, slew, now, 60000)
        host -= 60000
        assert c.left_ms == host, (err, c.left_ms - host)
        assert back <= 1 and back <= 0  # the shown seconds never went back
        assert slew.pending == 0 and slew.jumps == 0
        assert start_left - c.left_ms == 60000 + err


def test_slew_runs_at_most_10_percent_off():
    c = LevelClock(LEVELS)
    slew = Slew()
    slew.step(c, 0)
    left = c.left_ms
    slew.toward(c, 0, left - 4000, False, 0, 0)
    _run(c, slew, 0, 10000, step=7)
    assert left - c.left_ms <= 11000 and left - c.left_ms >= 10900
    assert slew.adjust(100) == 110
    slew.pending = -50
    assert slew.adjust(1000) == 950 and slew.pending == 0


def test_large_error_level_change_and_pause_jump_at_once():
    c = LevelClock(LEVELS)
    slew = Slew()
    slew.step(c, 0)
    assert slew.toward(c, 0, c.left_ms - 20000, False, 0, 0)
    assert c.left_ms == 1200000 - 20000 and slew.pending == 0
    assert slew.toward(c, 0, c.left_ms + 20000, False, 0, 0)  # back up: the host added time
    assert c.left_ms == 1200000
    assert slew.toward(c, 1, 900000, False, 0, 0)  # a level change: at once
    assert c.index == 1 and c.left_ms == 900000
    assert slew.toward(c, 1, 899000, True, 0, 0)  # paused: at once, exactly
    assert c.paused and c.left_ms == 899000
    assert not slew.toward(c, 1, 899000, True, 0, 0)
    assert not slew.toward(c, 7, 1, True, 0, 0)  # no such level
    assert slew.jumps == 4


def test_a_reading_as_of_an_earlier_tick_is_aged():
    c = LevelClock(LEVELS)
    slew = Slew()
    slew.step(c, 1000)
    assert not slew.toward(c, 0, c.left_ms, False, 500, 1000)  # 500 ms old
    assert slew.pending == 500


def test_level_end_drops_the_correction():
    c = LevelClock(LEVELS)
    c.left_ms = 1000
    slew = Slew()
    slew.step(c, 0)
    slew.toward(c, 0, 2000, False, 0, 0)  # box 1 s fast
    assert slew.pending == -1000
    _run(c, slew, 0, 1500)
    assert c.index == 1 and slew.pending == 0




def test_a_host_clock_that_was_set_starts_the_samples_over():
    est = OffsetEstimator(size=8)
    offset = 1717171717000
    now = _feed(est, 5000, offset, n=10)
    assert est.resets == 0  # jittery but consistent samples never contradict each other
    # the host's clock is stepped 30 s ahead (NTP): the old samples would keep it wrong
    # for up to 15 minutes; the first sample of the new clock replaces them
    assert est.add(now, offset + now + 30000 + 20, ticks_add(now, 40))
    assert est.resets == 1
    err = est.host_at(ticks_add(now, 40)) - (offset + now + 30040)
    assert -20 <= err <= 20, err
    # a sample off by less than both error bounds plus a second is just a bad sample
    t = ticks_add(now, 5000)
    est.add(t, offset + t + 30000 + 900, ticks_add(t, 20))
    assert est.resets == 1
