"""Following the host's tournament clock: the offset of the box's ticks from
the host's clock (``OffsetEstimator``) and a LevelClock brought to the
host's reading without going back (``Slew``).  Integer ms, wrap-safe ticks;
the per-loop path allocates nothing.  docs/protocol.md, "Clock sync on the box".
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Optional  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .clock import LevelClock  # noqa: F401


_WRAP = 1 << 29
_HALF = 1 << 28
_MASK = _WRAP - 1

DRIFT_DIV = 10000  # a sample loses 1 ms of credibility per 10 s of age (100 ppm)
MAX_AGE_MS = 900000  # samples older than 15 minutes are forgotten
RESET_MS = 1000  # a sample this far beyond the kept ones' error bounds starts over


def ticks_diff(a, b):  # type: (int, int) -> int
    """a - b in ms for tick counters that wrap at 2**29."""
    d = (a - b) & _MASK
    return d - _WRAP if d >= _HALF else d


def ticks_add(a, ms):  # type: (int, int) -> int
    return (a + ms) & _MASK


class OffsetEstimator:
    """The host's clock as seen from the box, from round-trip samples.

    ``add(t_send, host_ms, t_recv)``: the box sent a request at box tick
    *t_send*, the host answered with its clock *host_ms*, the answer came
    at box tick *t_recv*.  The host read its clock somewhere in that round
    trip; taking the middle makes the error at most half the round trip.

    Up to *size* samples are kept: the ones with the lowest round trip,
    each losing credibility with age (crystal drift) and dropped after
    *max_age* ms, so the set is the best of a sliding window.  The best one
    gives ``offset()`` = host_ms - (t_send + rtt // 2) and
    ``uncertainty(now)`` = rtt // 2 plus its aging.

    A sample that contradicts the best kept one by more than both their
    uncertainties plus *reset_ms* means the host's clock was set (or the
    host restarted with another clock): the kept samples are forgotten and
    the new one starts the set again (counted in ``resets``).
    """

    def __init__(self, size=8, max_age=MAX_AGE_MS, reset_ms=RESET_MS):
        # type: (int, int, int) -> None
        self.size = size
        self.max_age = max_age
        self.reset_ms = reset_ms
        self.resets = 0
        self.rtt = [-1] * size  # -1: a free slot
        self.mid = [0] * size  # box tick of the sample's middle
        self.host = [0] * size  # host_ms at that middle
        self.count = 0  # samples taken
        self.refused = 0  # samples with a negative or absurd round trip

    def _score(self, i, now):
        """Half the round trip plus aging; -1 for a free or expired slot."""
        r = self.rtt[i]
        if r < 0:
            return -1
        age = ticks_diff(now, self.mid[i])
        if age < 0:
            age = -age
        if age > self.max_age:
            return -1
        return r // 2 + age // DRIFT_DIV

    def add(self, t_send, host_ms, t_recv):  # type: (int, int, int) -> bool
        """Take one sample.  Returns True when it was kept."""
        rtt = ticks_diff(t_recv, t_send)
        if rtt < 0 or rtt > self.max_age:
            self.refused += 1
            return False
        self.count += 1
        mid = ticks_add(t_send, rtt // 2)
        b = self.best(t_recv)
        if b >= 0:
            err = host_ms - self.host[b] - ticks_diff(mid, self.mid[b])
            if err < 0:
                err = -err
            if err > self._score(b, t_recv) + rtt // 2 + self.reset_ms:
                self.clear()  # the host's clock moved: the kept samples are wrong now
                self.resets += 1
        worst = -1
        worst_score = -1
        for i in range(self.size):
            s = self._score(i, t_recv)
            if s < 0:  # free or expired: take it
                worst = i
                worst_score = -1
                break
            if s > worst_score:
                worst = i
                worst_score = s
        if worst_score >= 0 and rtt // 2 >= worst_score:
            return False  # no better than any kept sample
        self.rtt[worst] = rtt
        self.mid[worst] = mid
        self.host[worst] = host_ms
        return True

    def best(self, now):  # type: (int) -> int
        """Slot of the best sample at box tick *now*, or -1 for none."""
        b = -1
        bs = -1
        for i in range(self.size):
            s = self._score(i, now)
            if s >= 0 and (b < 0 or s < bs):
                b = i
                bs = s
        return b

    def ready(self, now):  # type: (int) -> bool
        return self.best(now) >= 0

    def offset(self, now):  # type: (int) -> Optional[int]
        """host_ms - box tick of the best sample, or None.  It changes by
        2**29 when the box's ticks wrap; use ``host_at`` to convert."""
        i = self.best(now)
        if i < 0:
            return None
        return self.host[i] - self.mid[i]

    def uncertainty(self, now):  # type: (int) -> Optional[int]
        """How far off ``host_at(now)`` may be (ms), or None."""
        i = self.best(now)
        return None if i < 0 else self._score(i, now)

    def host_at(self, now):  # type: (int) -> Optional[int]
        """The host's clock at box tick *now* (wrap-safe), or None."""
        i = self.best(now)
        if i < 0:
            return None
        return self.host[i] + ticks_diff(now, self.mid[i])

    def box_at(self, host_ms, now):  # type: (int, int) -> Optional[int]
        """The box tick at which the host's clock read *host_ms* (for
        ageing a host reading), or None.  *now* picks the best sample."""
        i = self.best(now)
        if i < 0:
            return None
        return ticks_add(self.mid[i], host_ms - self.host[i])

    def clear(self):  # type: () -> None
        for i in range(self.size):
            self.rtt[i] = -1


class Slew:
    """Brings a LevelClock to the host's reading without visible jumps.

    ``toward(clock, index, ms_left, paused, at, now)``: the host's reading
    as of box tick *at*.  A different level or pause state, a paused clock,
    or an error of *jump_ms* or more is applied at once (returns True: the
    screen changed).  A smaller error beyond *slack_ms* is remembered in
    ``pending`` (ms the clock must lose: positive when the box shows too
    much time) and worked off by ``step(clock, now)`` once per loop (after
    the clock has advanced to *now*), or by ``adjust(ms)`` on the ms passed
    to ``advance()``: at most *rate_pct* per cent of the elapsed time, so
    the clock runs 0.9x..1.1x and its seconds never go back.
    """

    def __init__(self, rate_pct=10, jump_ms=5000, slack_ms=20):  # type: (int, int, int) -> None
        self.rate_pct = rate_pct
        self.jump_ms = jump_ms
        self.slack_ms = slack_ms
        self.pending = 0
        self.index = -1  # the level the pending correction is for
        self.last = None  # type: Optional[int]  # box tick of the last step
        self.acc = 0  # elapsed ms * rate_pct not yet turned into whole ms
        self.jumps = 0
        self.slews = 0

    def toward(self, clock, index, ms_left, paused, at, now):
        # type: (LevelClock, int, int, bool, int, int) -> bool
        """Returns True when the clock was set at once (redraw)."""
        if not 0 <= index < len(clock.levels):
            return False
        if not paused:
            ms_left -= ticks_diff(now, at)
            if ms_left < 0:
                ms_left = 0
        if clock.index != index or clock.paused != paused or paused:
            self.pending = 0
            changed = (clock.index != index or clock.paused != paused
                       or clock.left_ms != ms_left)
            clock.index = index
            clock.left_ms = ms_left
            clock.paused = paused
            if changed:
                self.jumps += 1
            return changed
        err = clock.left_ms - ms_left
        if err >= self.jump_ms or -err >= self.jump_ms:
            self.pending = 0
            clock.left_ms = ms_left
            self.jumps += 1
            return True
        if -self.slack_ms <= err <= self.slack_ms:
            err = 0
        else:
            self.slews += 1
        self.pending = err
        self.index = index
        if self.last is None:
            self.last = now
        return False

    def adjust(self, ms):  # type: (int) -> int
        """*ms* corrected by at most rate_pct per cent toward ``pending``:
        pass the result to ``clock.advance()`` instead of *ms*."""
        if ms <= 0 or self.pending == 0:
            self.acc = 0
            return ms
        self.acc += ms * self.rate_pct
        room = self.acc // 100
        self.acc -= room * 100
        p = self.pending
        if p > 0:
            c = room if room < p else p
            self.pending = p - c
            return ms + c
        c = room if room < -p else -p
        self.pending = p + c
        return ms - c

    def step(self, clock, now):  # type: (LevelClock, int) -> None
        """Work off the correction for the time since the last step, after
        the clock has already advanced to *now*."""
        last = self.last
        self.last = now
        if self.pending == 0:
            self.acc = 0
            return
        if clock.paused or clock.index != self.index or last is None:
            self.pending = 0  # the level ended or the clock stopped: wait for the host
            self.acc = 0
            return
        dt = ticks_diff(now, last)
        if dt <= 0:
            return
        c = self.adjust(dt) - dt
        if c > 0:
            clock.advance(c)
        elif c < 0:
            clock.left_ms -= c
