"""The link's states and its hello's timings (docs/protocol.md, "Link states").  No
hardware imports.
"""

DISCONNECTED = 0
HELLO_SENT = 1
CONFIGURED = 2
LIVE = 3
STATES = ("disconnected", "hello sent", "configured", "live")
HELLO_MS = 3000  # hello again while no config comes ...
HELLO_FAST = 5  # ... this many times, then every
HELLO_SLOW_MS = 30000
