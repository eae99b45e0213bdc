"""The box's loop under MicroPython: heap after boot, bytes allocated per idle
loop, time and allocation of the loop step that handles a key press.

    MICROPYPATH=<firmware or its .mpy build>:tests/sim/mpy_fakes:host_tools/tcsim/stubs \\
        micropython -X heapsize=1M bench/box_mpy.py BOARD

bench/box_bench.py runs it once per board (a fresh interpreter each, so that
the heap figure counts the firmware's modules).  The hardware modules are the
simulator's stubs (host_tools/tcsim/stubs: board, keypad, neopixel, pwmio,
microcontroller with its nvm, supervisor, watchdog) and the display classes
the stand-ins of tests/sim/mpy_fakes (displayio, terminalio, vectorio,
adafruit_display_text.label: objects that only hold their properties).  On a
board those are C modules (the display library is Python there and draws
glyphs: see bench/README.md for what that leaves out).

1. Heap after boot: ``gc.mem_alloc()`` after ``gc.collect()``, once the stubs
   and fakes are imported, then again after ``tcbox.hardware.build(BOARD)``
   (the App as code.py builds it, on an erased nvm: the default table).
2. Idle loops: the virtual clock moves 100 ms, then ``app.step(now)`` runs in
   a window ``gc.collect(); gc.disable(); a = gc.mem_alloc(); ...; b =
   gc.mem_alloc(); gc.enable()`` (an empty window must measure 0): 60 s
   between hands (the clock page), then a hand is dealt by a key press and
   60 s more (the hand page).  The loops that show a new second and those
   that offer the record to the Saver (``App.save``: the running clock is
   saved now and then; counted by wrapping it) are counted apart from the
   others, with the nvm writes those offers made.
3. Key presses: a hand dealt, then 18 short presses (down, 80 ms, up) with
   the loop stepping every 10 ms; the step that handles each press is timed
   (``time.ticks_us``), the least of five passes on fresh boxes for each
   press (other load only adds time); then, in one more pass, measured like
   the idle loops with the collector off (App.save's own gc.collect() runs).

Prints one JSON object.  MicroPython only (gc.mem_alloc); no f-strings.
"""

import gc
import json
import sys
import time

PRESSES = {
    "compact": ("right", "left", "ok") * 6,
    "table": ("menu", "call") * 9,
}
DEAL = {"compact": "ok", "table": "hand"}
PASSES = 5


def window(f, arg):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    f(arg)
    b = gc.mem_alloc()
    gc.enable()
    return b - a


def nothing(arg):
    pass


def stats(vals):
    if not vals:
        return {"n": 0}
    s = sorted(vals)
    return {"n": len(s), "mean": sum(s) / len(s), "p50": s[len(s) // 2], "max": s[-1],
            "min": s[0]}


def boot(name):
    import _world

    from tcbox import hardware

    _world.reset_world()
    _world.nvm.erase()
    hardware.display = lambda spec: None  # the fakes' Screen needs no display
    app = hardware.build(name)
    app.step(_world.ticks_ms())
    return app


def idle(app, seconds):
    """Allocs of the loops without a new second, of those with one, and of
    those that offered the record to the Saver (App.save: the running clock
    is saved now and then), with how many of those wrote nvm."""
    import _world

    plain = []
    second = []
    save = []
    calls = [0]
    real = app.save

    def counted():
        calls[0] += 1
        real()

    app.save = counted
    writes0 = _world.nvm.writes
    for _ in range(seconds * 10):
        _world.advance(100)
        was = app.shown_s
        c = calls[0]
        n = window(app.step, _world.ticks_ms())
        if calls[0] != c:
            save.append(n)
        elif app.shown_s != was:
            second.append(n)
        else:
            plain.append(n)
    app.save = real
    return plain, second, save, _world.nvm.writes - writes0


def settle(app):
    """Idle loops, unmeasured, until the players' view is up (tcbox/app.py
    PLAYERS_MS after the last press: one redraw, as a press's)."""
    import _world

    from tcbox.app import PLAYERS_MS

    for _ in range(PLAYERS_MS // 100 + 5):
        _world.advance(100)
        app.step(_world.ticks_ms())


def press(app, pin, timed):
    """One short press; returns (us, bytes) of the step that handled it."""
    import _world

    _world.schedule(pin, True, _world.now_ms)
    _world.schedule(pin, False, _world.now_ms + 80)
    got = None
    for _ in range(20):
        _world.advance(10)
        seen = app.presses_seen
        now = _world.ticks_ms()
        if timed:
            t0 = time.ticks_us()
            app.step(now)
            us = time.ticks_diff(time.ticks_us(), t0)
            n = None
        else:
            us = None
            n = window(app.step, now)
        if app.presses_seen != seen and got is None:
            got = (us, n)
    return got


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: micropython bench/box_mpy.py BOARD\n")
        return 2
    name = argv[0]
    gc.collect()
    m0 = gc.mem_alloc()
    import adafruit_display_text.label  # noqa: F401
    import board  # noqa: F401
    import displayio  # noqa: F401
    import keypad  # noqa: F401
    import microcontroller  # noqa: F401
    import neopixel  # noqa: F401
    import pwmio  # noqa: F401
    import supervisor  # noqa: F401
    import terminalio  # noqa: F401
    import vectorio  # noqa: F401
    import watchdog  # noqa: F401

    gc.collect()
    m1 = gc.mem_alloc()
    app = boot(name)
    gc.collect()
    m2 = gc.mem_alloc()
    from tcbox.boards import BOARDS

    pins = {}
    for k in BOARDS[name]["keys"]:
        pins[k["role"]] = k["pin"]

    overhead = window(nothing, None)
    settle(app)
    clock_plain, clock_second, clock_save, clock_writes = idle(app, 60)
    press(app, pins[DEAL[name]], True)
    dealt = app.table.hand is not None
    settle(app)
    hand_plain, hand_second, hand_save, hand_writes = idle(app, 60)

    best = [None] * len(PRESSES[name])
    for n in range(PASSES):  # each press's time: the least of the passes
        if n:
            app = boot(name)
            press(app, pins[DEAL[name]], True)
        for k in range(len(PRESSES[name])):
            got = press(app, pins[PRESSES[name][k]], True)
            if got is not None and (best[k] is None or got[0] < best[k]):
                best[k] = got[0]
    times = [t for t in best if t is not None]
    app = boot(name)
    press(app, pins[DEAL[name]], False)
    allocs = []
    for role in PRESSES[name]:
        got = press(app, pins[role], False)
        if got is not None:
            allocs.append(got[1])

    out = {
        "board": name,
        "implementation": sys.implementation.name,
        "stubs_bytes": m1 - m0,
        "heap_after_boot_bytes": m2 - m1,
        "window_overhead_bytes": overhead,
        "dealt": dealt,
        "idle": {
            "clock": {"plain": stats(clock_plain), "second": stats(clock_second),
                      "save": stats(clock_save), "nvm_writes": clock_writes},
            "hand": {"plain": stats(hand_plain), "second": stats(hand_second),
                     "save": stats(hand_save), "nvm_writes": hand_writes},
        },
        "press_step_us": stats(times),
        "press_step_bytes": stats(allocs),
        "presses": len(PRESSES[name]),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
