"""Read a replay-contract session (JSON lines: the setup, then one event per
line) for the bench scripts; runs on CPython and MicroPython."""

import json


def read(path):
    """(setup, [events]) from *path*; the setup is None for an empty file."""
    setup = None
    events = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if setup is None:
                setup = json.loads(line)
            else:
                events.append(json.loads(line))
    return setup, events
