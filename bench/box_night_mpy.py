"""The box through a night under MicroPython: boot, then the 200-hand session
(bench/session200.jsonl, about four hours of play) fed to the App as a dealer
would, with the record offered after every event and the loop stepping.

    MICROPYPATH=<.mpy build>:tests/sim/mpy_fakes:host_tools/tcsim/stubs \\
        micropython -X heapsize=NK bench/box_night_mpy.py BOARD SESSION

The session's setup replaces the default table (as a host's ``table`` frame
would); each event is read from the file line by line (the session is not held
in memory).  A ``tick`` is time passing on the box's own clock: the loop steps
a second at a time (``App.step`` advances the table: levels end, a called clock
runs out) and the record is offered.  Any other event is handled by the table,
then ``App.save`` (the power-loss record) and three loop steps at that moment
(the redraw).  So the box plays the session exactly: ``refused`` counts the
events its table refused, 0 as in a plain replay (until 2026-12-02 ten steps of
100 ms after every event added an hour to the night, the blinds rose early and
the table refused 2,944 of the 3,378 events from event 223 on).  The pwmio
stub's log of tones is cleared after each event (a board keeps none).  Prints
one JSON object: the events handled, the events refused, the
heap the stubs and fakes hold (``stubs_bytes``: a board's C modules hold none
of it), the heap held after boot and as the hands go by (``gc.mem_alloc`` after
``gc.collect``, without the stubs), every 50 hands.  bench/box_bench.py runs
it at decreasing heap sizes: the smallest at which it finishes is the box's
heap for a night (issue #20).
MicroPython only; no f-strings.
"""

import gc
import json
import sys

STEP_MS = 1000  # the loop's step while the session's time passes (a new second each)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: micropython bench/box_night_mpy.py BOARD SESSION\n")
        return 2
    gc.collect()
    base = gc.mem_alloc()
    # the stand-ins for the board's C modules (host_tools/tcsim/stubs) and the
    # display fakes (tests/sim/mpy_fakes): on a board they hold no heap (the
    # stub nvm's 8 KiB bytearray included), so their share is reported apart
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

    gc.collect()
    m0 = gc.mem_alloc()
    stubs = m0 - base
    from tcbox import hardware
    _world.reset_world()
    _world.nvm.erase()
    hardware.display = lambda spec: None  # the fakes' Screen needs no display
    app = hardware.build(argv[0])
    app.step(_world.ticks_ms())
    gc.collect()
    boot = gc.mem_alloc() - m0
    from tableclock.fields import ms_of
    from tableclock.table import Table

    n = 0
    hands = 0
    refused = 0  # events the table refused: 0, as in a plain replay of the session
    held = {}  # hands played -> heap held (every 50 hands)
    with open(argv[1]) as f:
        for line in f:
            ev = json.loads(line)
            if n == 0:
                app.table = Table(ev)
                app.state = None
                app.dirty = True
                app.step(_world.ticks_ms())
            elif ev.get("do") == "tick":
                # the session's time passes on the box's own clock, as on a
                # board: the loop steps a second at a time and App.step
                # advances the table (a level's end, a called clock running
                # out), then saves
                ms = ms_of(ev["s"], 1000)
                while ms > 0:
                    k = STEP_MS if ms > STEP_MS else ms
                    ms -= k
                    _world.advance(k)
                    app.step(_world.ticks_ms())
                app.save()
            else:
                if ev.get("do") == "hand":
                    if hands % 50 == 0:
                        gc.collect()
                        held[str(hands)] = gc.mem_alloc() - m0
                    hands += 1
                if app.table.handle(ev) is not None:
                    refused += 1
                app.save()
                app.dirty = True
                for _ in range(3):  # the redraw, and the loop at the same moment
                    app.step(_world.ticks_ms())
            n += 1
            # the pwmio stub logs every tone the buzzer plays for the simulator's
            # tests (a board's PWMOut keeps no such log): dropped, or the table
            # build's log grew by about 5 KB over the night and set its heap
            _world.tones.clear()
    gc.collect()
    held[str(hands)] = gc.mem_alloc() - m0
    print(json.dumps({"board": argv[0], "events": n - 1, "hands": hands, "refused": refused,
                      "stubs_bytes": stubs, "heap_after_boot_bytes": boot,
                      "heap_held_by_hands": held}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
