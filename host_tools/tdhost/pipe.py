"""An in-memory serial cable: two ends with the API the links use.

    box_end, host_end = pipe_pair()
    box = tcbox.link.Link(box_end, "tc-01", table, key=key)      # the box's side
    host = tdhost.usb.BoxLink(host_end, key, key_id, store)       # the host's side

Each end has ``in_waiting``, ``read(n)``, ``write(buf)`` (returns the bytes
taken), ``connected`` and ``baudrate`` -- what ``usb_cdc.Serial`` and a
non-blocking pyserial port offer the two links.  Used by the tests of the
live host (tdhost.live), the simulated room (tcsim) and the demo, wherever a
real pty or broker would only add noise.  ``cut()`` drops the cable (bytes
in flight are lost, both ends see ``connected`` false and writes take
nothing); ``mend()`` plugs it back.  ``capacity`` bounds the bytes waiting in
each direction (a reader that stops reading makes the writer's ``write``
return 0, as a full USB buffer does).

``DelayedEnd`` wraps an end so that its writes reach the other end some
milliseconds later on a clock the caller moves (``jitter`` makes the delays:
the same on every run), for the clock-sync tests and bench
(tests/host/vtime.py, bench/clock_bench.py).
"""


class _End:
    def __init__(self, cable, inbox, outbox):
        self._cable = cable
        self._in = inbox
        self._out = outbox
        self.baudrate = 115200
        self.reads = 0
        self.writes = 0

    @property
    def connected(self):
        return self._cable.up

    @property
    def in_waiting(self):
        return len(self._in)

    def read(self, n=1):
        self.reads += 1
        data = bytes(self._in[:n])
        del self._in[:n]
        return data

    def write(self, buf):
        self.writes += 1
        if not self._cable.up:
            return 0
        room = self._cable.capacity - len(self._out)
        n = min(len(buf), max(0, room))
        if n:
            self._out.extend(bytes(buf[:n]))
        return n

    def flush(self):
        pass


class Cable:
    """Both directions of one cable; ``a`` and ``b`` are its ends."""

    def __init__(self, capacity=65536):
        self.capacity = capacity
        self.up = True
        ab = bytearray()
        ba = bytearray()
        self.a = _End(self, ba, ab)
        self.b = _End(self, ab, ba)

    def cut(self):
        self.up = False
        del self.a._in[:]
        del self.b._in[:]

    def mend(self):
        self.up = True


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


def pipe_pair(capacity=65536):
    """(box_end, host_end) of a new Cable."""
    c = Cable(capacity)
    return c.a, c.b
