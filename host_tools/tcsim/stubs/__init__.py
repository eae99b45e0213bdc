"""Stand-ins for CircuitPython's hardware modules, for the desktop simulator: ``install()`` puts
them into ``sys.modules`` under their CircuitPython names before any firmware module is
imported.  Their state is a virtual world per box (``_world.World``).  Plain Python that
MicroPython also runs.  docs/simulator.md (the first section, and "A room of boxes").
"""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

import sys

NAMES = ("watchdog", "microcontroller", "board", "busio", "digitalio", "keypad", "neopixel",
         "usb_cdc", "wifi", "socketpool", "supervisor", "storage", "pwmio")


def install() -> Any:
    """Register the stubs as the top-level hardware modules; returns the world."""
    from . import _world

    for name in NAMES:
        mod = __import__(__name__ + "." + name, None, None, ("x",))
        sys.modules[name] = mod
    return _world
