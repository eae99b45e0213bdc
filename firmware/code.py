"""Table Clock box: CircuitPython runs this after boot.py.

The whole loop is tcbox.hardware.run(): it never blocks and feeds the
watchdog.  Whatever escapes it is printed, noted in the crash log and ends
in a reset, so the box never waits in the REPL with a table full of players
(the watchdog alone may not reset a board that fell into the REPL).
"""

import microcontroller
import supervisor

supervisor.runtime.autoreload = False  # saving a file must not restart a live table

try:
    from tcbox.hardware import run

    run()
except Exception as e:  # noqa: BLE001 -- anything: log it and start again
    import traceback

    traceback.print_exception(e)
    try:
        from tcbox.crashlog import note

        note("%s: %s" % (type(e).__name__, e))
    except Exception:
        pass
    microcontroller.reset()
