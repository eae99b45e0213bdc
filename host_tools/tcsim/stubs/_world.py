"""The simulator's world: a virtual clock and what the hardware stubs record.

``now_ms`` is milliseconds since the virtual boot; it only moves when the
simulator calls ``advance(ms)``.  ``ticks_ms()`` is what the board's
``supervisor.ticks_ms()`` returns: it wraps at 2**29 and starts 65 s before
the first wrap, like CircuitPython does, so wrap bugs show early.

``nvm`` is ``microcontroller.nvm``: an :class:`Nvm` of 8192 bytes that a
test can make lose power in the middle of a write (``nvm.cut_after(k)``).
"""

WRAP = 1 << 29
START = WRAP - 65000  # CircuitPython's ticks start near the wrap on purpose

now_ms = 0
keys = []  # keypad.Keys instances, in creation order
pending = []  # scheduled key edges: [at_ms, pin name, pressed], sorted by time
pixels = []  # neopixel.NeoPixel instances
tones = []  # (ms, pin name, frequency, duty) each time a PWM output changes
resets = 0


class PowerCut(BaseException):
    """The power went off during an nvm write (``Nvm.cut_after``).  A
    BaseException, like SystemExit: no ``except Exception`` in the firmware
    can swallow a power cut."""


class Nvm:
    """``microcontroller.nvm``: a fixed-size byte array with CircuitPython's
    rules (indexing and slicing read; slice assignment of exactly as many
    bytes writes; it never changes size), plus what tests need:

    - ``cut_after(k, fill=None)``: the power goes off after the next *k*
      bytes written: the write that reaches it stores only its first bytes
      up to *k* (a write of n bytes counts n; 0 cuts before the next write
      stores anything), then raises :class:`PowerCut`.  The rest of that
      write's range keeps its old bytes, or becomes *fill* (0xFF: a flash
      page erased and not yet programmed).  ``cut_after(None)`` disarms it;
    - ``writes`` / ``bytes_written`` / ``last_write``: the completed writes,
      the bytes they stored, the size of the last one; ``cuts``: writes cut;
    - ``erase(value=0xFF)``: every byte set, not counted as a write.
    """

    def __init__(self, size):
        self._b = bytearray(size)
        self._cut = None  # bytes still written before the power goes off
        self._fill = None
        self.writes = 0
        self.bytes_written = 0
        self.last_write = 0
        self.cuts = 0

    def __len__(self):
        return len(self._b)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self._b[index])
        return self._b[index]

    def _range(self, s):
        n = len(self._b)
        start, stop, step = s.indices(n)
        if step != 1:
            raise ValueError("nvm slices must be contiguous")
        return start, max(start, stop)

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop = self._range(index)
            data = bytes(value)
        else:
            if index < 0:
                index += len(self._b)
            if not 0 <= index < len(self._b):
                raise IndexError("nvm index out of range")
            start, stop = index, index + 1
            data = bytes((value,))
        if len(data) != stop - start:
            raise ValueError("Slice and value different lengths.")
        cut = self._cut
        if cut is not None and cut < len(data):
            self._b[start:start + cut] = data[:cut]
            if self._fill is not None:
                self._b[start + cut:stop] = bytes((self._fill,)) * (stop - start - cut)
            self._cut = None
            self.cuts += 1
            raise PowerCut("power cut after %d of %d bytes written at nvm[%d]"
                           % (cut, len(data), start))
        if cut is not None:
            self._cut = cut - len(data)
        self._b[start:stop] = data
        self.writes += 1
        self.bytes_written += len(data)
        self.last_write = len(data)

    def cut_after(self, k, fill=None):
        """Arm (or with None disarm) a power cut after *k* more bytes."""
        self._cut = k
        self._fill = fill

    def armed(self):
        """Bytes left before an armed cut, or None."""
        return self._cut

    def erase(self, value=0xFF):
        self._b[:] = bytes((value,)) * len(self._b)


nvm = Nvm(8192)


def ticks_ms():
    return (START + now_ms) & (WRAP - 1)


def advance(ms):
    """Move the virtual clock forward by *ms* (and deliver due key edges)."""
    global now_ms
    now_ms += ms
    deliver()


def deliver():
    """Hand scheduled key edges that are due to their keypad.Keys."""
    while pending and pending[0][0] <= now_ms:
        at, pin, pressed = pending.pop(0)
        for k in keys:
            n = k._index(pin)
            if n >= 0:
                k.events._put(n, pressed, (START + at) & (WRAP - 1))
                break


def schedule(pin, pressed, at_ms):
    """A key edge on *pin* (a name) at virtual time *at_ms*."""
    i = len(pending)
    while i > 0 and pending[i - 1][0] > at_ms:
        i -= 1
    pending.insert(i, [at_ms, pin, pressed])


def reset_world():
    """A fresh world (a new simulated power-up keeps nvm)."""
    global now_ms
    now_ms = 0
    del keys[:]
    del pending[:]
    del pixels[:]
    del tones[:]
