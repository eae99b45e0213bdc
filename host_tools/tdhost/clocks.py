"""The host's clocks in integer milliseconds: Unix time for what people and boxes read
(``host_ms``, the league's times), monotonic time for intervals (docs/architecture.md)."""

import time


def unix_ms() -> int:
    """Now, in Unix milliseconds."""
    return int(time.time() * 1000)


def monotonic_ms() -> int:
    """A clock for intervals (timeouts, resends) that never steps, in milliseconds."""
    return int(time.monotonic() * 1000)
