"""The box through a night under MicroPython: boot, then the 200-hand session
(bench/session200.jsonl, about four hours of play) fed to the App as a dealer
would, with the record offered after every event and the loop stepping.

    MICROPYPATH=<.mpy build>:tests/sim/mpy_fakes:host_tools/tcsim/stubs \\
        micropython -X heapsize=NK bench/box_night_mpy.py BOARD SESSION

The session's setup replaces the default table (as a host's ``table`` frame
would); each event is read from the file line by line (the session is not held
in memory), handled by the table, then ``App.save`` (the power-loss record)
and ten loop steps of 100 ms (then the pwmio stub's log of tones is
cleared: a board keeps none).  Prints one JSON object: the events handled, the
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
    from tableclock.table import Table

    n = 0
    hands = 0
    held = {}  # hands played -> heap held (every 50 hands)
    with open(argv[1]) as f:
        for line in f:
            if n == 0:
                app.table = Table(json.loads(line))
                app.state = None
                app.dirty = True
            else:
                ev = json.loads(line)
                if ev.get("do") == "hand":
                    if hands % 50 == 0:
                        gc.collect()
                        held[str(hands)] = gc.mem_alloc() - m0
                    hands += 1
                app.table.handle(ev)
                app.save()
                app.dirty = True
            n += 1
            for _ in range(10):
                _world.advance(100)
                app.step(_world.ticks_ms())
            # the pwmio stub logs every tone the buzzer plays for the simulator's
            # tests (a board's PWMOut keeps no such log): dropped, or the table
            # build's log grew by about 5 KB over the night and set its heap
            _world.tones.clear()
    gc.collect()
    held[str(hands)] = gc.mem_alloc() - m0
    print(json.dumps({"board": argv[0], "events": n - 1, "hands": hands,
                      "stubs_bytes": stubs, "heap_after_boot_bytes": boot,
                      "heap_held_by_hands": held}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
