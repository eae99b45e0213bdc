"""The shot clock: calling the clock on the player to act.

Rules (docs/rules.md, "Shot clock"): TDA 25 as used by WPH: "A player on the
clock has up to 60 seconds with a 10 second warning to act. If the player
faces a bet and time expires, the hand is dead; if not facing a bet, the hand
is checked. Time ties go to the player."  What expiry does is the profile's
``clock_expiry`` (LPPL ¶51 slow play, US 4 an alert only: table.advance).
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Optional  # noqa: F401 (type comments)


class ShotClock:
    """Counts down one call of the clock, in integer milliseconds.

    :param limit_s: seconds the player has; :param warn_s: warning at this
        many seconds left.
    """

    def __init__(self, limit_s, warn_s):  # type: (int, int) -> None
        self.limit_ms = limit_s * 1000
        self.warn_ms = warn_s * 1000
        self.seat = None  # type: Optional[int]
        self.left_ms = 0

    def running(self):  # type: () -> bool
        return self.seat is not None

    def call(self, seat):  # type: (int) -> None
        self.seat = seat
        self.left_ms = self.limit_ms

    def stop(self):  # type: () -> None
        self.seat = None

    def seconds(self):  # type: () -> Optional[int]
        """Whole seconds left (rounded up), or None when not running."""
        if self.seat is None:
            return None
        return (max(self.left_ms, 0) + 999) // 1000

    def warning(self):  # type: () -> bool
        return self.seat is not None and self.left_ms <= self.warn_ms

    def run_out(self):  # type: () -> None
        """The time is up and the clock stays on the player at 0 (US 4: it
        alerts, nobody is folded) until they act."""
        self.left_ms = -1

    def advance(self, ms):  # type: (int) -> int
        """Let *ms* pass; return the ms left over after expiry (>= 0), or
        -1 if the clock has not expired (or ran out before: ``run_out``).
        Expiry means strictly more than the limit has passed: a time tie
        goes to the player."""
        if self.seat is None or self.left_ms < 0:
            return -1
        self.left_ms -= ms
        if self.left_ms < 0:
            over = -self.left_ms - 1
            self.left_ms = 0
            return over
        return -1
