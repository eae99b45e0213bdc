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


def pipe_pair(capacity=65536):
    """(box_end, host_end) of a new Cable."""
    c = Cable(capacity)
    return c.a, c.b
