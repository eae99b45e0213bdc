"""Stand-ins for CircuitPython's hardware modules, for the desktop simulator.

``install()`` puts them into ``sys.modules`` under their CircuitPython names
(KMK style) before any firmware module is imported: ``board``, ``busio``,
``digitalio``, ``keypad``, ``neopixel``, ``usb_cdc``, ``wifi``, ``socketpool``,
``supervisor``, ``microcontroller``, ``storage``, ``watchdog``, ``pwmio``.
Blinka's displayio then imports these too (it needs only
``microcontroller.Pin``, ``digitalio.DigitalInOut`` and ``busio``), so no
Blinka hardware detection runs.

Everything shares one virtual world (``_world``): the clock that
``supervisor.ticks_ms()`` reads (wrapping at 2**29 like the board's), the key
presses the simulator schedules, the pixels shown, the notes played.  The
modules are plain Python that also runs on MicroPython (no dataclasses, no
typing): the unix port can import them from this folder with MICROPYPATH.
"""

import sys

NAMES = ("watchdog", "microcontroller", "board", "busio", "digitalio", "keypad", "neopixel",
         "usb_cdc", "wifi", "socketpool", "supervisor", "storage", "pwmio")


def install():
    """Register the stubs as the top-level hardware modules; returns the world."""
    from . import _world

    for name in NAMES:
        mod = __import__(__name__ + "." + name, None, None, ("x",))
        sys.modules[name] = mod
    return _world
