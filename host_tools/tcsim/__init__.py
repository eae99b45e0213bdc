"""tcsim: the table box's firmware on the desktop (docs/simulator.md).

The real firmware modules (tableclock, tcbox) run unchanged on CPython with
stand-ins for CircuitPython's hardware modules (tcsim/stubs) and Blinka's
displayio drawing the real screen (tcsim/display.py).  Headless runs play a
script and write PNG + JSON per line (tcsim/cli.py); tcsim/window.py is the
interactive pygame window.
"""

import os as _os
import sys as _sys

FIRMWARE = _os.path.join(_os.path.dirname(_os.path.dirname(_os.path.dirname(
    _os.path.abspath(__file__)))), "firmware")
if FIRMWARE not in _sys.path:  # tableclock and tcbox import from there
    _sys.path.insert(0, FIRMWARE)
