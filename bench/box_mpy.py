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
   60 s more (the hand page).  The loops are counted by what they did
   (``idle``): a new second, an offer of the record to the Saver
   (``App.save``: the running clock is saved now and then; counted by
   wrapping it, with the nvm writes those offers made), a whole redraw.  Then the shot clock is
   called on the seat to act (``{"do": "clock"}``) and the loops are measured
   the same way until it has run out: its countdown and its flashing.
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
    import pwmio

    from tcbox import hardware

    # the simulator's PWM logs every tone it plays (for the tests); a board's
    # pwmio allocates nothing, so that log is left out of the figures
    pwmio.PWMOut._log = lambda self: None

    _world.reset_world()
    _world.nvm.erase()
    hardware.display = lambda spec: None  # the fakes' Screen needs no display
    app = hardware.build(name)
    app.step(_world.ticks_ms())
    return app


def idle(app, seconds):
    """Allocs of the idle loops by what they did: "save" (offered the record
    to the Saver: App.save, the running clock is saved now and then; with how
    many of those wrote nvm), "redraw" (a whole redraw: a level or a called
    clock running out), "second" (a new second of the level clock), "shot" (a
    new second of a called clock), "flash" (its warning's half-second flash),
    "plain" (none of these)."""
    import _world

    out = {"plain": [], "second": [], "shot": [], "flash": [], "save": [], "redraw": []}
    calls = [0, 0]
    real = app.save
    real_redraw = app.redraw

    def counted():
        calls[0] += 1
        real()

    def redrawn():
        calls[1] += 1
        real_redraw()

    app.save = counted
    app.redraw = redrawn
    writes0 = _world.nvm.writes
    for _ in range(seconds * 10):
        _world.advance(100)
        was = app.shown_s
        shot = app.shown_shot
        off = app.flash_off
        c = calls[0]
        r = calls[1]
        n = window(app.step, _world.ticks_ms())
        if calls[0] != c:
            out["save"].append(n)
        elif calls[1] != r:
            out["redraw"].append(n)
        elif app.shown_s != was:
            out["second"].append(n)
        elif app.shown_shot != shot:
            out["shot"].append(n)
        elif app.flash_off != off:
            out["flash"].append(n)
        else:
            out["plain"].append(n)
    app.save = real
    app.redraw = real_redraw
    res = {}
    for k in out:
        res[k] = stats(out[k])
    res["nvm_writes"] = _world.nvm.writes - writes0
    return res


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
    clock = idle(app, 60)
    press(app, pins[DEAL[name]], True)
    dealt = app.table.hand is not None
    settle(app)
    hand = idle(app, 60)
    # the shot clock called on the seat to act: it counts down and, in its
    # last seconds, flashes (App.flash) until it runs out
    app.table.handle({"do": "clock"})
    app.dirty = True
    called = app.table.shot.seat is not None
    shot = idle(app, app.table.shot.limit_ms // 1000 + 5)

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
        "idle": {"clock": clock, "hand": hand, "shot": shot, "called": called},
        "press_step_us": stats(times),
        "press_step_bytes": stats(allocs),
        "presses": len(PRESSES[name]),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
