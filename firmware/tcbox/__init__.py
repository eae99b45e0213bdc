"""The table box: dealer controls, screen fields, seat ring, main loop and hardware adapters."""

# The firmware's version: the setup screen shows it, the link's ``hello`` sends it (``fw``).
VERSION = "0.1.0"
