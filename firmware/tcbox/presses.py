"""Key presses from key events: short on release, long after a hold.

A short press acts when the key is released; a long press acts as soon as
the key has been held for ``LONG_MS`` (the dealer sees the result without
letting go), and its release is then ignored.  Timestamps are the key
events' own (``keypad.Event.timestamp``, ticks in ms, wrapping at 2**29).
Pure: the hardware adapter feeds (key number, pressed, timestamp).
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the board's const() is a compiler hint
        return x


LONG_MS = const(600)
_WRAP = const(1 << 29)
_HALF = const(1 << 28)


def ticks_diff(a, b):
    """a - b in ms for tick counters that wrap at 2**29 (adafruit_ticks)."""
    d = (a - b) & (_WRAP - 1)
    return d - _WRAP if d >= _HALF else d


class Presses:
    """Turns key down/up events into (key, long) presses.

    :param n: number of keys.
    """

    def __init__(self, n):
        self.down_at = [-1] * n  # press timestamp, -1 when up
        self.fired = [False] * n  # a long press already acted
        self.queue = []  # pending (key, long), oldest first

    def feed(self, key, pressed, ts):
        """A key event: *key* number, *pressed* bool, *ts* ticks ms."""
        if pressed:
            self.down_at[key] = ts
            self.fired[key] = False
        elif self.down_at[key] >= 0:
            if not self.fired[key]:
                self.queue.append((key, ticks_diff(ts, self.down_at[key]) >= LONG_MS))
            self.down_at[key] = -1

    def poll(self, now):
        """The next press, or None; a held key turns long at LONG_MS."""
        for k in range(len(self.down_at)):
            t = self.down_at[k]
            if t >= 0 and not self.fired[k] and ticks_diff(now, t) >= LONG_MS:
                self.fired[k] = True
                self.queue.append((k, True))
        if self.queue:
            return self.queue.pop(0)
        return None
