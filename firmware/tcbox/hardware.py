"""All the box's hardware wiring, in one place (nano-gui style).

``build()`` reads the running board's profile from tcbox/boards.py and makes
the adapters the App needs: the display (and tcbox/screen.py on it), the
keys (keypad.Keys, one per pull/level group), the seat ring (neopixel), the
buzzer (pwmio) and the power-loss store (microcontroller.nvm).  ``run()`` is
the main loop code.py calls: it steps the App with ``supervisor.ticks_ms()``
and feeds the watchdog; it never sleeps longer than a few milliseconds.
With the profile's ``selftest`` key held at power-up it first runs the
self-test (tcbox/selftest.py), before the watchdog is armed.

Only this module, tcbox/screen.py and the self-test import hardware modules.  The desktop
simulator provides stand-ins for board, keypad, neopixel, pwmio, supervisor,
microcontroller and displayio, so the same code runs there.
"""

import board

from .presses import ticks_diff  # here, not in Buzzer.update: an import there allocates

try:
    from typing import Any, List, Optional, Tuple  # noqa: F401
except ImportError:
    pass


def profile(name=None):
    """The profile called *name*, else the one whose board id is running.

    Only that profile is kept: tcbox/boards.py is dropped once it is read
    (the other boards' profiles and the module: 4.4 KB of heap after boot, bench/README.md)."""
    import sys

    from .boards import BOARDS

    sys.modules.pop("tcbox.boards", None)
    try:
        delattr(sys.modules["tcbox"], "boards")
    except Exception:  # noqa: BLE001 -- a port that keeps no such attribute
        pass
    if name is not None:
        return BOARDS[name]
    for profile in BOARDS.values():
        if profile["board_id"] == getattr(board, "board_id", None):
            return profile
    raise RuntimeError("no profile in tcbox/boards.py for board %r" % board.board_id)


class KeyScanner:
    """keypad.Keys grouped by pressed level and pull; key numbers follow the
    profile's ``keys`` order.  ``get()`` allocates only when a key moved."""

    def __init__(self, specs):
        import keypad

        self.groups = []
        done = []
        for spec in specs:
            kind = (spec["active_low"], spec["pull"])
            if kind in done:
                continue
            done.append(kind)
            index = [i for i in range(len(specs))
                     if (specs[i]["active_low"], specs[i]["pull"]) == kind]
            pins = tuple(getattr(board, specs[i]["pin"]) for i in index)
            k = keypad.Keys(pins, value_when_pressed=not spec["active_low"],
                            pull=spec["pull"] is not None)
            self.groups.append((k, index))
        self.event = keypad.Event()

    def get(self):
        """(key number, pressed, timestamp ms) of the oldest event, or None."""
        for k, index in self.groups:
            if k.events.get_into(self.event):
                e = self.event
                return index[e.key_number], e.pressed, e.timestamp
        return None


class Ring:
    """The seat ring: writes only when a colour changed."""

    def __init__(self, spec):
        import neopixel

        self.px = neopixel.NeoPixel(getattr(board, spec["pin"]), spec["pixels"],
                                    brightness=spec["brightness"], auto_write=False,
                                    pixel_order=spec["order"])
        self.shown = [None] * spec["pixels"]  # type: list

    def show(self, colours):
        changed = False
        for i in range(len(self.shown)):
            c = colours[i] if i < len(colours) else (0, 0, 0)
            if self.shown[i] != c:
                self.shown[i] = c
                self.px[i] = c
                changed = True
        if changed:
            self.px.show()


# beep patterns: (frequency Hz, milliseconds) pairs, 0 Hz = a pause
PATTERNS = {
    "level": ((1500, 150), (0, 80), (2000, 300)),
    "minute": ((2000, 120),),
    "shot": ((2500, 80), (0, 80), (2500, 80), (0, 80), (2500, 80)),
}


class Buzzer:
    """A piezo on PWM, played without blocking: ``update(now)`` each loop."""

    def __init__(self, spec):
        import pwmio

        self.pwm = pwmio.PWMOut(getattr(board, spec["pin"]), frequency=spec["freq"],
                                duty_cycle=0, variable_frequency=True)
        self.notes = ()  # type: tuple
        self.i = 0
        self.until = None

    def beep(self, name):
        self.notes = PATTERNS.get(name, ())
        self.i = -1
        self.until = None

    def update(self, now):
        if not self.notes:
            return
        if self.until is not None and ticks_diff(now, self.until) < 0:
            return
        self.i += 1
        if self.i >= len(self.notes):
            self.pwm.duty_cycle = 0
            self.notes = ()
            return
        freq, ms = self.notes[self.i]
        if freq:
            self.pwm.frequency = freq
            self.pwm.duty_cycle = 0x8000
        else:
            self.pwm.duty_cycle = 0
        self.until = (now + ms) & ((1 << 29) - 1)


def display(spec):
    """The profile's display, ready for displayio."""
    if spec["driver"] == "builtin":  # boards with a display name it board.DISPLAY
        return getattr(board, spec.get("attr", "DISPLAY"))
    import displayio
    import fourwire

    displayio.release_displays()
    bus = fourwire.FourWire(board.SPI(), command=getattr(board, spec["dc"]),
                            chip_select=getattr(board, spec["cs"]),
                            baudrate=spec["spi_baud"])
    if spec["driver"] == "HX8357":
        from adafruit_hx8357 import HX8357

        return HX8357(bus, width=spec["width"], height=spec["height"],
                      rotation=spec["rotation"])
    raise RuntimeError("no display driver %r" % spec["driver"])


def held(profile, role):
    """Is the profile's key with *role* down now (read once, at power-up)?"""
    import digitalio

    for k in profile["keys"]:
        if k["role"] == role:
            pin = digitalio.DigitalInOut(getattr(board, k["pin"]))
            pin.switch_to_input(digitalio.Pull.UP if k["pull"] == "up" else digitalio.Pull.DOWN)
            down = pin.value is not k["active_low"]
            pin.deinit()
            return down
    return False


# While the box boots, a collection every BOOT_GC_BYTES allocated (MicroPython's
# gc.threshold; on CircuitPython unverified, hence the guard): the garbage of each import
# is swept before the next module's code lands around it, so the heap is not left in
# small holes.  Bought, on the unix port (.mpy, fakes): booting alone 352 -> 292 KiB of
# heap, boot and a 200-hand night 352/360 -> 336 KiB (bench/README.md, issue #20).
BOOT_GC_BYTES = 16384


def build(name=None, link=True):
    """Everything the box is made of, from the board's profile: returns the
    App ready to step (its part ``app.parts``: the link to the host over Wi-Fi/MQTT or USB,
    if any)."""
    import gc

    threshold = getattr(gc, "threshold", None)  # MicroPython's gc; CPython has none
    if threshold is None:
        return _build(name, link)
    was = threshold()
    threshold(BOOT_GC_BYTES)
    try:
        return _build(name, link)
    finally:
        threshold(was)


def _build(name, link):
    """tcbox/startup.py's ``build``; that module (and the default table of
    tcbox/defaults.py) is dropped after: boot-only code is not held all night
    (issue #20: 1.1 KB of heap after boot, .mpy; the default table's own
    setup stays, the Table keeps it)."""
    from tableclock import drop

    from . import startup

    try:
        return startup.build(name, link)
    finally:
        drop("tcbox.startup")
        drop("tcbox.defaults")
        drop("tcbox.crashlog")  # about 1 KB; run() imports it again after ten calm minutes


def run(name=None):
    """The box's main loop (code.py): step the App, feed the watchdog."""
    import microcontroller
    import supervisor
    import watchdog

    board = profile(name)
    if held(board, board["selftest"]):  # the self-test key at power-up (tcbox/selftest.py)
        from .selftest import run as selftest

        selftest(board, display(board["display"]))
    app = build(name)
    wd = microcontroller.watchdog
    wd.timeout = 8  # seconds: far above one loop, short enough for a table
    wd.mode = watchdog.WatchDogMode.RESET
    start = supervisor.ticks_ms()
    cleared = False
    while True:
        now = supervisor.ticks_ms()
        app.step(now)  # its parts' hooks too: a bounded slice of the link's work
        wd.feed()
        if not cleared and ticks_diff(now, start) > 600000:  # ten calm minutes
            from .crashlog import clear  # once: not held before (build drops it)

            clear()
            cleared = True
