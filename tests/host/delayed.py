"""A cable end whose frames arrive late on a virtual clock, with delays that are the same on
every run (``jitter``): the clock-sync tests' and bench's cable (tests/host/vtime.py,
bench/clock_bench.py) on tdhost.links.pipe's in-memory cable.
"""


class DelayedEnd:
    """A cable end whose writes reach the other end *delay(n)* ms later on
    *clock* (a callable giving ms), in order: n counts the writes, one frame
    each.  ``pump()`` hands over what is due; ``drop()`` loses what is in
    flight (a pulled cable).  Reads are the wrapped end's."""

    def __init__(self, end, clock, delay):
        self.end = end
        self.clock = clock
        self.delay = delay
        self.n = 0
        self.flight = []  # [due ms, bytes]
        self.baudrate = end.baudrate

    @property
    def connected(self):
        return self.end.connected

    @property
    def in_waiting(self):
        return self.end.in_waiting

    def read(self, n=1):
        return self.end.read(n)

    def write(self, buf):
        if not self.end.connected:
            return 0
        self.n += 1
        due = self.clock() + self.delay(self.n)
        if self.flight and due < self.flight[-1][0]:
            due = self.flight[-1][0]
        self.flight.append([due, bytes(buf)])
        return len(buf)

    def pump(self):
        now = self.clock()
        while self.flight and self.flight[0][0] <= now:
            self.end.write(self.flight.pop(0)[1])

    def drop(self):
        self.flight = []


def jitter(seed, base, spread, every, burst):
    """Delays (ms) for a DelayedEnd: *base* + 0..*spread*-1, and 0..*burst*-1
    more on every *every*-th write; a tiny LCG seeded with *seed* makes them
    the same on every run."""
    x = seed

    def below(n):
        nonlocal x
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        return (x >> 8) % n

    return lambda n: base + below(spread) + (below(burst) if n % every == 0 else 0)
