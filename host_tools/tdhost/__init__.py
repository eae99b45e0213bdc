"""tdhost: the Table Clock TD host (balancing and breaking plans, later registration,
draws, busts and the link to the boxes).

The host reuses the boxes' rules from firmware/tableclock (never written twice), so
importing tdhost puts firmware/ on sys.path when tableclock is not importable already
(a work tree with `pip install -e .`, or `python -m tdhost` with host_tools on the path).
"""

import os
import sys

__version__ = "0.1.0"


def _firmware_on_path():
    try:
        import tableclock  # noqa: F401
        return
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    firmware = os.path.join(os.path.dirname(os.path.dirname(here)), "firmware")
    if os.path.isdir(os.path.join(firmware, "tableclock")):
        sys.path.insert(0, firmware)


_firmware_on_path()
