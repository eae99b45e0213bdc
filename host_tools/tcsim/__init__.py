"""tcsim: the table box's firmware on the desktop (docs/simulator.md).

The real firmware modules (tableclock, tcbox) run unchanged on CPython with stand-ins for
CircuitPython's hardware modules (tcsim/stubs) and Blinka's displayio drawing the real screen
(tcsim/display.py). Headless runs play a script and write PNG + JSON per line (tcsim/cli.py);
tcsim/window.py is the interactive pygame window; tcsim/serve_demo.py is `tdhost serve --demo`'s
night.
"""

import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))
# The example tournament files: installed beside tcsim (the wheel), else docs/examples.
EXAMPLES = _os.path.join(_HERE, "examples")
if not _os.path.isdir(EXAMPLES):
    EXAMPLES = _os.path.join(_os.path.dirname(_os.path.dirname(_HERE)), "docs", "examples")
