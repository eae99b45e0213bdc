"""The simulator's world: one :class:`World` is one box's hardware (a virtual clock whose
``ticks_ms()`` wraps at 2**29, keys and scheduled edges, pixels, tones, resets, ``nvm`` -- an
:class:`Nvm` that can lose power mid-write -- watchdog, USB ports).  What a box makes at
power-up keeps its world; what the firmware looks up is the current world's (``use(world)``).
The module-level names act on the current world.  docs/simulator.md, "A room of boxes".
"""

try:
    from typing import Any, Dict, List, Optional, Set, Tuple  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

WRAP = 1 << 29
START = WRAP - 65000  # CircuitPython's ticks start near the wrap on purpose
NVM_SIZE = 8192  # microcontroller.nvm on an ESP32


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
    - ``erase(value=0xFF)``: every byte set, not counted as a write;
    - ``broken``: a failing store for the self-test: "stuck" (writes are
      counted but change nothing) or "error" (writes raise OSError).
    """

    def __init__(self, size: Any) -> None:
        self._b = bytearray(size)
        self._cut: Optional[int] = None  # bytes still written before the power goes off
        self._fill = None
        self.writes = 0
        self.bytes_written = 0
        self.last_write = 0
        self.cuts = 0
        self.broken = None

    def __len__(self) -> Any:
        return len(self._b)

    def __getitem__(self, index: int) -> Any:
        if isinstance(index, slice):
            return bytearray(self._b[index])
        return self._b[index]

    def _range(self, s: Any) -> Any:
        n = len(self._b)
        start, stop, step = s.indices(n)
        if step != 1:
            raise ValueError("nvm slices must be contiguous")
        return start, max(start, stop)

    def __setitem__(self, index: int, value: Any) -> None:
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
        if self.broken == "error":
            raise OSError(5, "nvm write failed")
        if self.broken == "stuck":
            self.writes += 1
            return
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

    def cut_after(self, k: int, fill: Any = None) -> None:
        """Arm (or with None disarm) a power cut after *k* more bytes."""
        self._cut = k
        self._fill = fill

    def armed(self) -> Any:
        """Bytes left before an armed cut, or None."""
        return self._cut

    def erase(self, value: int = 0xFF) -> None:
        self._b[:] = bytes((value,)) * len(self._b)


class World:
    """One box's hardware state (the module's notes).

    :param start: the tick count at ``now_ms`` 0 (ms, below 2**29).
    :param name: a label for messages (the room's box id).
    """

    def __init__(self, start: Any = START, name: str = "box") -> None:
        self.start = start
        self.name = name
        self.now_ms = 0
        self.keys: List[Any] = []  # keypad.Keys instances, in creation order
        # scheduled key edges: [at_ms, pin name, pressed], sorted by time
        self.pending: List[List[Any]] = []
        self.pixels: List[Any] = []  # neopixel.NeoPixel instances
        # (ms, pin name, frequency, duty) each time a PWM output changes
        self.tones: List[Tuple[int, str, int, int]] = []
        self.resets = 0
        self.nvm = Nvm(NVM_SIZE)
        # per-box objects of other stubs (usb_cdc's ports, the watchdog)
        self.parts: Dict[str, Any] = {}
        # pin names held down now (``hold``): digitalio and new Keys see them
        self.held: Set[str] = set()
        self.absent: Set[str] = set()  # parts not fitted: "ring" (its pixels never light)

    def part(self, name: str, make: Any) -> Any:
        """This world's *name* object, made by ``make()`` on first use."""
        p = self.parts.get(name)
        if p is None:
            p = self.parts[name] = make()
        return p

    def ticks_ms(self) -> Any:
        return (self.start + self.now_ms) & (WRAP - 1)

    def advance(self, ms: int) -> None:
        """Move the virtual clock forward by *ms* (and deliver due key edges)."""
        self.now_ms += ms
        self.deliver()

    def deliver(self) -> None:
        """Hand scheduled key edges that are due to their keypad.Keys."""
        pending = self.pending
        while pending and pending[0][0] <= self.now_ms:
            at, pin, pressed = pending.pop(0)
            for k in self.keys:
                n = k._index(pin)
                if n >= 0:
                    k.events._put(n, pressed, (self.start + at) & (WRAP - 1))
                    break

    def schedule(self, pin: Any, pressed: Any, at_ms: Any) -> None:
        """A key edge on *pin* (a name) at virtual time *at_ms*."""
        pending = self.pending
        i = len(pending)
        while i > 0 and pending[i - 1][0] > at_ms:
            i -= 1
        pending.insert(i, [at_ms, pin, pressed])

    def hold(self, pin: Any) -> None:
        """Hold the key on *pin* down from now (through a power-up: the
        self-test key); ``let_go(pin)`` releases it."""
        self.held.add(pin)
        self.schedule(pin, True, self.now_ms)

    def let_go(self, pin: Any) -> None:
        self.held.discard(pin)
        self.schedule(pin, False, self.now_ms)

    def reset(self) -> None:
        """A new power-up: the clock from 0, no keys, pixels, tones or
        edges (nvm, the resets counted, the watchdog and the USB ports
        stay)."""
        self.now_ms = 0
        del self.keys[:]
        del self.pending[:]
        del self.pixels[:]
        del self.tones[:]


_cur = World(name="default")


def current() -> Any:
    """The world the stubs' look-ups use now."""
    return _cur


def use(world: Any) -> Any:
    """Make *world* current; returns the one that was."""
    global _cur
    was = _cur
    _cur = world
    return was


def ticks_ms() -> Any:
    return _cur.ticks_ms()


def advance(ms: int) -> None:
    """Move the current world's clock forward by *ms* (and deliver due key edges)."""
    _cur.advance(ms)


def deliver() -> None:
    _cur.deliver()


def schedule(pin: Any, pressed: Any, at_ms: Any) -> None:
    """A key edge on *pin* (a name) at virtual time *at_ms* in the current world."""
    _cur.schedule(pin, pressed, at_ms)


def reset_world() -> None:
    """A fresh current world (a new simulated power-up keeps nvm)."""
    _cur.reset()


_STATE = ("now_ms", "keys", "pending", "pixels", "tones", "resets", "nvm", "start")


def __getattr__(name: str) -> Any:
    """The old module-level names: the current world's."""
    if name in _STATE:
        return getattr(_cur, name)
    raise AttributeError(name)
