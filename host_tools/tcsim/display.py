"""The simulator's display: Blinka displayio on the PC, and PNG snapshots.

``make_display(w, h)`` returns a ``busdisplay.BusDisplay`` on a do-nothing
bus (so ``refresh()`` and auto-refresh work without hardware);
``to_image(display)`` reads the rows back with ``display.fill_row`` (16-bit
RGB565 pixels, byte-swapped: high byte first) into a PIL image;
``render_png(display, path)`` saves it.
"""

import array
import sys
from typing import Any

from . import stubs

stubs.install()  # Blinka's displayio imports digitalio, microcontroller, busio

import displayio  # noqa: E402
import fourwire  # noqa: E402
from PIL import Image  # noqa: E402


class NullBus(fourwire.FourWire):
    """A FourWire that talks to nothing: displayio's refresh runs, no pins."""

    def __init__(self) -> None:  # no SPI, no pins  # noqa: D107
        self._dc = None
        self._chip_select = None
        self._reset = None
        self._spi = None
        self._frequency = 0
        self._polarity = 0
        self._phase = 0

    def _release(self) -> None:
        pass

    def reset(self) -> None:
        pass

    def _free(self) -> Any:
        return True

    def _begin_transaction(self) -> Any:
        return True

    def _send(self, data_type: Any, chip_select: Any, data: bytes) -> None:
        pass

    def _end_transaction(self) -> None:
        pass

    def deinit(self) -> None:
        pass


def make_display(width: int, height: int) -> Any:
    """A fresh Blinka display of *width* x *height* (releasing any other:
    Blinka allows one display at a time)."""
    import busdisplay

    displayio.release_displays()
    return busdisplay.BusDisplay(NullBus(), b"", width=width, height=height,
                                 auto_refresh=False)


def to_image(display: Any) -> Any:
    """The display's pixels as an RGB PIL image.

    ``fill_row`` gives each row as 32-bit words holding two RGB565 pixels
    whose two bytes are swapped (high byte first in memory); after swapping
    them back PIL's "BGR;16" raw mode unpacks RGB565.
    """
    width, height = display.width, display.height
    raw = bytearray()
    for y in range(height):
        raw += display.fill_row(y, None).tobytes()[:2 * width]
    words = array.array("H", bytes(raw))
    if sys.byteorder == "little":
        words.byteswap()
    return Image.frombytes("RGB", (width, height), words.tobytes(), "raw", "BGR;16")


def render_png(display: Any, path: str, zoom: int = 1) -> Any:
    """Save the display as a PNG (*zoom*: nearest-neighbour enlargement)."""
    img = to_image(display)
    if zoom != 1:
        img = img.resize((img.width * zoom, img.height * zoom), Image.Resampling.NEAREST)
    img.save(path)
    return path
