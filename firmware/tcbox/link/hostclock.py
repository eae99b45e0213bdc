"""The host's clock followed on the box: a LevelClock brought to the host's reading, at
once or slewed (docs/protocol.md, "Clock"), and ``HostClock``, what the box knows of the
host's time: the offset estimate from its pings, their schedule and counts
(docs/protocol.md, "Clock sync on the box").  No hardware imports.
"""

from tableclock.clocksync import OffsetEstimator

from ..presses import ticks_diff
from .states import CONFIGURED

CLOCK_SLACK_MS = 500  # the box's clock follows the host's beyond this difference
_MASK = (1 << 29) - 1  # box ticks wrap at 2**29
# clock sync (docs/protocol.md "Clock sync on the box"), all in ms
PING_FAST_MS = 1000  # after each config: a ping a second ...
PING_FAST = 4  # ... until this many pongs came ...
PING_FAST_MAX = 6  # ... or this many pings went
PING_MS = 8000  # then one every 8 s
PING_DEAF = 6  # unanswered pings in a row: a 1.0 host (it does not answer a box) ...
PING_DEAF_MS = 60000  # ... is asked only once a minute
PONG_MAX_MS = 4000  # a pong this long after its ping is no sample (a stray or a stall)
READING_AHEAD_MS = 10000  # a clock read this far after "now" (host time) ...
READING_AGE_MS = 6 * 3600 * 1000  # ... or this long before it: another clock; taken as of now


def clock_toward(clock, index, ms_left, paused, slack=CLOCK_SLACK_MS, slew=None, now=None,
                 at=None):
    """Bring a LevelClock to the host's reading (level index, ms left,
    paused).  Without *slew*, differences up to *slack* ms are left alone
    (no jitter on screen) and larger ones are set at once.  With a
    tableclock.clocksync.Slew and the box tick *now*, the reading (as of
    box tick *at*, default *now*: it is aged by the ms between) is followed:
    a level change, a pause/resume or a large error is set at once and a
    small one is spread over the next seconds (``slew.step`` in ``tick``).
    Returns True when the clock changed on screen; False also for an index
    this clock does not have."""
    if not 0 <= index < len(clock.levels):
        return False
    if slew is not None and now is not None:
        return slew.toward(clock, index, ms_left, paused, now if at is None else at, now)
    changed = False
    if clock.paused != paused:
        clock.paused = paused
        changed = True
    if clock.index != index:
        clock.index = index
        clock.left_ms = ms_left
        return True
    d = clock.left_ms - ms_left
    if d > slack or -d > slack:
        clock.left_ms = ms_left
        changed = True
    return changed


class HostClock:
    """The host's time as the box's link knows it: the offset estimate
    (``sync``) from the round trips of its pings, their schedule and counts."""

    def __init__(self):
        self.sync = OffsetEstimator()  # the host's clock from our pings (pong)
        self.ping_at = 0  # box tick the next ping is due (set by each config)
        self.pings = 0  # pings since the last config
        self.pongs = 0  # their answers
        self.unanswered = 0  # pings since the last answer
        self.odd_clocks = 0  # clock readings whose host_ms did not fit the estimate

    def again(self, now):
        """A config came: sync again at once, fast (the estimator keeps its
        samples)."""
        self.ping_at = now
        self.pings = self.pongs = self.unanswered = 0

    def ping(self, state, now):
        """The box's ``ping`` message when one is due (link *state* CONFIGURED
        or LIVE), else None: at once after a config, then every second until
        PING_FAST pongs came (at most PING_FAST_MAX pings), then every 8 s;
        once a minute after PING_DEAF unanswered in a row.  ``t`` is the box
        tick *now*."""
        if state < CONFIGURED or ticks_diff(now, self.ping_at) < 0:
            return None
        self.pings += 1
        self.unanswered += 1
        if self.unanswered > PING_DEAF:
            wait = PING_DEAF_MS
        elif self.pongs < PING_FAST and self.pings < PING_FAST_MAX:
            wait = PING_FAST_MS
        else:
            wait = PING_MS
        self.ping_at = (now + wait) & _MASK
        return {"kind": "ping", "t": now}

    def pong(self, state, msg, now):
        """A ``pong`` from the host (1.1: with host_ms): one round-trip sample
        for the offset estimator.  Ignored before a config (link *state*: a
        replay from an earlier boot could carry any time), without
        ``t``/``host_ms``, or more than PONG_MAX_MS after its ping."""
        t = msg.get("t")
        host_ms = msg.get("host_ms")
        if state < CONFIGURED or t is None or host_ms is None:
            return
        rtt = ticks_diff(now, t)
        if rtt < 0 or rtt > PONG_MAX_MS:
            self.sync.refused += 1
            return
        self.pongs += 1
        self.unanswered = 0
        self.sync.add(t, host_ms, now)

    def reading_at(self, host_ms, now):
        """The box tick at which the host read its clock at *host_ms* (its
        Unix ms), from the offset estimate; *now* (as of its arrival) while
        there is no estimate or when *host_ms* is implausible (more than 10 s
        ahead of the host's time now, or more than 6 h behind it: counted in
        ``odd_clocks``)."""
        host_now = self.sync.host_at(now)
        if host_now is None:
            return now
        age = host_now - host_ms
        if age < -READING_AHEAD_MS or age > READING_AGE_MS:
            self.odd_clocks += 1
            return now
        return (now - age) & _MASK
