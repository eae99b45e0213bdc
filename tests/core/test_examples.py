"""Every docs/examples/*.json scenario: each event's "expect" must hold.

An event without "expect" must be accepted; an expected "error" must match
exactly.  Runs on CPython and MicroPython (run from the repository root).
"""

import json
import os

from tableclock.table import Table


def _dir():
    for d in ("docs/examples", "../docs/examples", "../../docs/examples"):
        try:
            os.listdir(d)
            return d
        except OSError:
            pass
    raise AssertionError("docs/examples not found from the working directory")


def check_file(path):
    with open(path) as f:
        doc = json.load(f)
    t = Table(doc["setup"])
    for i, ev in enumerate(doc["events"]):
        st = t.apply(ev)
        exp = ev.get("expect", {})
        where = "%s event %d %s" % (path, i, ev.get("do"))
        if "error" not in exp:
            assert st["error"] is None, "%s refused: %s" % (where, st["error"])
        for k in exp:
            assert st[k] == exp[k], "%s: %s is %r, expected %r" % (where, k, st[k], exp[k])
    return len(doc["events"])


def test_examples():
    d = _dir()
    names = sorted(n for n in os.listdir(d) if n.endswith(".json"))
    assert len(names) >= 3
    total = 0
    for n in names:
        total += check_file(d + "/" + n)
    assert total > 20
