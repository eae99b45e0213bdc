"""Stand-ins for CircuitPython's hardware modules, for the desktop simulator.

``install()`` puts them into ``sys.modules`` under their CircuitPython names
(KMK style) before any firmware module is imported: ``board``, ``busio``,
``digitalio``, ``keypad``, ``neopixel``, ``usb_cdc``, ``wifi``, ``socketpool``,
``supervisor``, ``microcontroller``, ``storage``, ``watchdog``, ``pwmio``.
Blinka's displayio then imports these too (it needs only
``microcontroller.Pin``, ``digitalio.DigitalInOut`` and ``busio``), so no
Blinka hardware detection runs.

The state behind them is a virtual world (``_world.World``): the clock that
``supervisor.ticks_ms()`` reads (wrapping at 2**29 like the board's), the key
presses the simulator schedules, the pixels shown, the notes played, the
nvm, the USB ports.  One world is one box: the single-box simulator uses the
default world, a simulated room (tcsim/room.py) one world per box, made
current with ``_world.use(world)`` before it steps that box.  The modules
are plain Python that also runs on MicroPython (no dataclasses, no typing):
the unix port can import them from this folder with MICROPYPATH.
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
