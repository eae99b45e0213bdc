"""The host's clock followed on the box: a LevelClock brought to the host's reading, at
once or slewed (docs/protocol.md, "Clock").  No hardware imports.
"""

from tableclock.clocksync import Slew

CLOCK_SLACK_MS = 500  # the box's clock follows the host's beyond this difference


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


def slew_of(link):
    """The link's Slew (made on first use)."""
    slew = getattr(link, "slew", None)
    if slew is None:
        slew = link.slew = Slew()
    return slew
