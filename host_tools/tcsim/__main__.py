"""``python -m tcsim``: see tcsim/cli.py."""

import sys

from .cli import main

sys.exit(main())
