"""pytest set-up shared by every test directory.

firmware/ goes at the END of sys.path, not the front (pyproject's
``pythonpath``): it holds CircuitPython's ``code.py`` and ``boot.py``, and
``code`` would otherwise shadow the standard library module pdb imports.
"""

import os
import sys

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)
