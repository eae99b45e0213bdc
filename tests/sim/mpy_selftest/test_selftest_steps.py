"""The self-test's steps (tcbox/selftest.py) on plain fakes, under MicroPython as
on CircuitPython: keys, the record store's round trip, the lines it sends.

Run by tests/sim/test_selftest.py under the MicroPython unix port (and by pytest
on CPython), not from tests/core: one more module there tips test_app's link
test over the 256K heap by fragmentation alone."""

import json

from tcbox import selftest
from tcbox.boards import BOARDS


class Keys:
    def __init__(self):
        self.q = []

    def get(self):
        return self.q.pop(0) if self.q else None


class Screen:
    def __init__(self):
        self.asked = []
        self.rows = []

    def heading(self, title, lines):
        self.title = title

    def ask(self, prompt, hint="", colour=0):
        self.asked.append(prompt)

    def add(self, result, text):
        self.rows.append((result, text))

    def failures_first(self):
        pass

    def refresh(self):
        pass


class Port:
    def __init__(self):
        self.sent = b""
        self.inbox = b""

    @property
    def in_waiting(self):
        return len(self.inbox)

    def read(self, n):
        out, self.inbox = self.inbox[:n], self.inbox[n:]
        return out

    def write(self, b):
        self.sent += b
        return len(b)


def _run(t, keys, press, until_ms=200000):
    """Step every 10 ms; *press*: {ms: key number} pressed (and released) then."""
    now = 0
    while now < until_ms and not t.done:
        if now in press:
            keys.q.append((press[now], True, now))
            keys.q.append((press[now], False, now + 50))
        t.step(now)
        now += 10
    return now


def _lines(port):
    return [json.loads(x) for x in port.sent.decode().split("\n") if x]


def test_compact_all_steps_and_a_key_that_never_fires():
    keys, screen, port = Keys(), Screen(), Port()
    nvm = bytearray(8192)  # erased, in one 8 KiB block (bytes(...) * n first would be two)
    for i in range(64, 8192):
        nvm[i] = 0xFF
    nvm[0:64] = bytes(range(64))  # no record: slot A is tested, then restored
    t = selftest.SelfTest(BOARDS["compact"], keys, screen, nvm=nvm, port=port)
    port.inbox = b'{"selftest": "report"}\n'
    _run(t, keys, {3000: 0, 25000: 2})  # LEFT, then RIGHT; OK (D1) never
    res = {}
    for d in t.results:
        res[d.get("role", d["selftest"])] = d["result"]
    assert res == {"info": "pass", "store": "pass", "left": "pass", "ok": "fail",
                   "right": "pass", "ring": "skip", "buzzer": "skip", "wifi": "skip",
                   "usb": "pass"}
    assert bytes(nvm[0:64]) == bytes(range(64))
    assert "Press OK (D1)" in screen.asked
    done = _lines(port)[-1]
    assert done["selftest"] == "done" and done["failed"] == 1 and done["passed"] == 5
    assert t.step(999999)  # the summary waits for a press...
    keys.q.append((1, True, 0))
    assert not t.step(999999)  # ...then the table


def test_a_store_that_does_not_keep_fails():
    class Stuck(bytearray):
        def __setitem__(self, i, v):
            pass

    keys, screen = Keys(), Screen()
    t = selftest.SelfTest(BOARDS["compact"], keys, screen, nvm=Stuck(8192))
    _run(t, keys, {}, until_ms=3000)
    assert t.results[1]["selftest"] == "store"
    assert t.results[1]["result"] == "fail"
    assert t.results[1]["detail"] == "read back differs from what was written"


def test_versions_on_this_port():
    v = selftest.versions()
    assert v["fw"] and v["cp"]
    assert v["form"] == "py"  # the sources: MICROPYPATH=firmware
