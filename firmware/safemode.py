"""Runs instead of code.py when CircuitPython starts in safe mode.

A table box must not sit in safe mode in the middle of a tournament: note
why (the console shows it; tcbox.crashlog keeps the last reason in the
spare end of nvm for the bring-up checklist) and reset, so the box comes
back with its saved table.  A reset asked for by a person (the safe-mode
button press: USER) stays in safe mode, as CircuitPython intends, and so
does a crash that repeats three times in a row.
"""

import microcontroller
import supervisor

reason = supervisor.runtime.safe_mode_reason
print("safe mode:", reason)
if reason != supervisor.SafeModeReason.USER:  # a person asked for it: leave it be
    try:
        from tcbox.crashlog import note, repeats

        note("safe mode: %s" % reason)
        again = repeats() < 3
    except Exception:  # no log must stop the reset
        again = True
    if again:
        microcontroller.reset()
