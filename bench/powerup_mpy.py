"""The box back at the table after a power cut, under MicroPython: the time from
power-up to the table playing again.

    MICROPYPATH=<firmware or its .mpy build>:tests/sim/mpy_fakes:host_tools/tcsim/stubs \\
        micropython -X heapsize=2M bench/powerup_mpy.py cut BOARD STORE
    ... micropython -X heapsize=2M bench/powerup_mpy.py up BOARD STORE

``cut``: the box boots on an erased nvm (the default table), a hand is dealt and
three seats act (a hand in progress), the record is offered (``App.save``, as
after every event), and the nvm's bytes go to the file STORE: the power goes
off there.  ``up``: a fresh interpreter with the nvm read back from STORE; the
clock starts once the stand-ins for the board's C modules are imported (the
hardware stubs, the display fakes: a board has them before ``code.py`` runs);
then what ``code.py`` does: ``from tcbox.hardware import ...``, the box built
(``hardware.build``: the record read, the table restored) and its first loop
step (the screen drawn).  That moment is the table playing again.  The time is
``time.ticks_us``, so with ``.py`` files it includes compiling every module on
the box's path, as a board does at every start; with ``.mpy`` files only loading
their bytecode.

Each mode prints one JSON object: the table's state (``state``), and for ``up``
the microseconds (``us``), the form the self-test reports (``form``: tcbox/
selftest.py) and how many firmware modules came from .py and from .mpy files.
bench/box_bench.py (the bench's row) and tests/sim/test_powerup.py (the power-cut
drill's assertion) run it.  MicroPython only (ticks_us); no f-strings.
"""

import json
import sys
import time

ACTIONS = ({"do": "hand"}, {"do": "call"}, {"do": "call"}, {"do": "fold"})


def hardware_modules():
    """The stand-ins for the board's C modules, imported before the clock starts."""
    import _world
    import adafruit_display_text.label  # noqa: F401
    import board  # noqa: F401
    import displayio  # noqa: F401
    import keypad  # noqa: F401
    import microcontroller  # noqa: F401
    import neopixel  # noqa: F401
    import pwmio  # noqa: F401
    import supervisor  # noqa: F401
    import terminalio  # noqa: F401
    import usb_cdc  # noqa: F401
    import vectorio  # noqa: F401
    import watchdog  # noqa: F401

    return _world


def boot(name):
    """code.py's way to a playing table: import, build, the first step."""
    import _world

    from tcbox import hardware

    hardware.display = lambda spec: None  # the fakes' Screen needs no display
    app = hardware.build(name)
    app.step(_world.ticks_ms())
    return app


def cut(name, store):
    world = hardware_modules()
    world.reset_world()
    world.nvm.erase()
    app = boot(name)
    for ev in ACTIONS:
        if app.table.handle(ev) is not None:
            raise SystemExit("the table refused %r" % (ev,))
        app.save()
        app.dirty = True
        world.advance(100)
        app.step(world.ticks_ms())
    with open(store, "wb") as f:
        f.write(bytes(world.nvm[0:len(world.nvm)]))
    return {"state": app.table.state()}


def up(name, store):
    world = hardware_modules()
    world.reset_world()
    with open(store, "rb") as f:
        data = f.read()
    world.nvm[0:len(data)] = data
    t0 = time.ticks_us()
    app = boot(name)
    us = time.ticks_diff(time.ticks_us(), t0)
    from tcbox import selftest

    files = {"py": 0, "mpy": 0}
    for key in sys.modules:
        if key.startswith(("tableclock", "tcbox")):
            f = getattr(sys.modules[key], "__file__", "")
            files["mpy" if f.endswith(".mpy") else "py"] += 1
    return {"us": us, "form": selftest.form(), "files": files, "state": app.table.state()}


def main(argv):
    if len(argv) != 3 or argv[0] not in ("cut", "up"):
        sys.stderr.write("usage: micropython bench/powerup_mpy.py cut|up BOARD STORE\n")
        return 2
    out = (cut if argv[0] == "cut" else up)(argv[1], argv[2])
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
