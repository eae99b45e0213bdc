"""neopixel: a NeoPixel strip that remembers what it was told to show (listed in
the ``pixels`` of the world current when it was made: tcsim/stubs/_world.py).
In a world whose ``absent`` holds "ring" nothing is wired: writes succeed, as
on a board, and ``shown`` stays dark."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]

RGB = "RGB"
GRB = "GRB"
RGBW = "RGBW"
GRBW = "GRBW"


class NeoPixel:
    def __init__(self, pin: Any, n: int, *, bpp: int = 3, brightness: float = 1.0,
                 auto_write: bool = True, pixel_order: Any = None) -> None:
        self.pin = pin
        self.n = n
        self.brightness = brightness
        self.auto_write = auto_write
        self.pixel_order = pixel_order
        self._buf = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n  # what the LEDs show now (before brightness)
        self.shows = 0
        self._world = _world.current()
        self._world.pixels.append(self)

    def __len__(self) -> Any:
        return self.n

    def __setitem__(self, i: Any, colour: Any) -> None:
        if isinstance(i, slice):
            idx = range(*i.indices(self.n))
            for k, c in zip(idx, colour):
                self._buf[k] = self._rgb(c)
        else:
            self._buf[i] = self._rgb(colour)
        if self.auto_write:
            self.show()

    def __getitem__(self, i: Any) -> Any:
        return self._buf[i]

    def _rgb(self, c: Any) -> Any:
        if isinstance(c, int):
            return ((c >> 16) & 255, (c >> 8) & 255, c & 255)
        if isinstance(c, tuple) and len(c) == 3:
            return c  # as given: a board's pixel buffer allocates nothing either
        return (c[0], c[1], c[2])

    def fill(self, colour: Any) -> None:
        c = self._rgb(colour)
        for i in range(self.n):
            self._buf[i] = c
        if self.auto_write:
            self.show()

    def show(self) -> None:
        self.shows += 1
        if "ring" in self._world.absent:
            return
        for i in range(self.n):  # in place: the bench counts the box's allocations
            self.shown[i] = self._buf[i]

    def deinit(self) -> None:
        pass
