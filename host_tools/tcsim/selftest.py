"""The box's self-test (firmware tcbox/selftest.py) on the simulator's stubs: :class:`Bench`
powers a box up with its self-test key held and runs it on the virtual clock, with faults
on demand (a dark ring, a failing store, no data port...).  ``python -m tcsim.selftest DIR``
writes the self-test screens for ``make sim-shots``.  docs/box.md, "Self-test".
"""

import json
import sys

from . import stubs

world = stubs.install()

import board  # noqa: E402
import microcontroller  # noqa: E402
import usb_cdc  # noqa: E402
import wifi  # noqa: E402

from tcbox import hardware, selftest  # noqa: E402
from tcbox.boards import BOARDS  # noqa: E402

from .display import make_display, render_png  # noqa: E402
from .sim import label_texts  # noqa: E402

SCAN_MS = 10


board_versions = selftest.versions  # the firmware's own, before Bench puts sim_versions there


def leave(saved):
    """After a test: *saved* (the world current before) current again, the radio
    offline again, the firmware's own ``versions`` back."""
    world.use(saved)
    r = wifi.radio
    r.networks = []
    r.passwords = {}
    r.connected = False
    r.ipv4_address = None
    r.ap_info = None
    selftest.versions = board_versions


def sim_versions():
    """What the simulator says instead of CircuitPython's version, heap and flash:
    it has none of them (the screenshots must not show the PC's figures)."""
    from tcbox import VERSION

    return {"cp": "simulator", "fw": VERSION, "heap_free": None, "flash_free": None}


class Bench:
    """One box powered up into its self-test."""

    def __init__(self, board_name, hold=True, absent=(), store=None, wifi_pair=None,
                 networks=(), passwords=None, no_port=False, port=None):
        self.world = w = world.World(name="selftest")  # its own: the faults stay here
        world.use(w)
        w.nvm.erase()
        for part in absent:
            w.absent.add(part)
        self.profile = p = BOARDS[board_name]
        self.board_name = board_name
        self.pins = {k["role"]: k["pin"] for k in p["keys"]}
        d = p["display"]
        self.display = make_display(d["width"], d["height"])
        board.DISPLAY = self.display
        board.board_id = p["board_id"]
        if port is None and not no_port:
            port = usb_cdc.Serial()
        usb_cdc.set_ports(w, console=usb_cdc.Serial(), data=port)
        self.port = usb_cdc.data
        if wifi_pair is not None:
            _pair(w.nvm, wifi_pair)
        wifi.radio.networks = list(networks)
        wifi.radio.passwords = dict(passwords or {})
        wifi.radio.connected = False
        w.nvm.broken = store
        self.key = self.pins[p["selftest"]]
        if hold:
            w.hold(self.key)
        self.held = hardware.held(p, p["selftest"])
        selftest.versions = sim_versions
        self.test = None
        if self.held:
            self.test = selftest.start(p, self.display)
        self.running = True
        self.lit = False  # did a ring pixel ever light (what the person saw)
        self.step()

    def step(self):
        world.use(self.world)
        if self.test is not None and self.running:
            self.running = self.test.step(world.ticks_ms())
            if self.test.ring is not None and any(any(c) for c in self.test.ring.px.shown):
                self.lit = True
            if not self.running:
                self.test.close()

    def run_for(self, ms):
        end = self.world.now_ms + ms
        while self.world.now_ms < end and self.running:
            self.world.advance(min(SCAN_MS, end - self.world.now_ms))
            self.step()

    def let_go(self):
        """Release the self-test key held since power-up."""
        self.world.let_go(self.key)
        self.run_for(100)

    def press(self, role, ms=80):
        pin = self.pins[role]
        self.world.schedule(pin, True, self.world.now_ms)
        self.world.schedule(pin, False, self.world.now_ms + ms)
        self.run_for(ms + 120)

    def until(self, kind, limit_ms=60000):
        """Run until the step *kind* ("key:0", "ring", ...) is the current one."""
        end = self.world.now_ms + limit_ms
        t = self.test
        while self.world.now_ms < end and (t.i < 0 or t.done or t.steps[t.i] != kind):
            if t.done:
                raise AssertionError("the self-test ended before %s" % kind)
            self.run_for(SCAN_MS)
        if self.world.now_ms >= end:
            raise AssertionError("no step %s in %d ms" % (kind, limit_ms))
        self.run_for(SCAN_MS)  # the step's first slice: its question on screen

    def lines(self):
        """The JSON lines the box wrote on its data port (a usb_cdc.Serial stub)."""
        if self.port is None:
            return []
        out = []
        for raw in bytes(self.port.sent).split(b"\n"):
            if raw.strip():
                out.append(json.loads(raw))
        return out

    def results(self):
        """Step name -> its result dict (keys as "key:ROLE")."""
        out = {}
        for d in self.test.results:
            out["key:" + d["role"] if d["selftest"] == "key" else d["selftest"]] = d
        return out

    def texts(self):
        return label_texts(self.display.root_group)

    def leds(self):
        return [list(c) for c in self.test.ring.px.shown] if self.test.ring else []

    def tones(self):
        return [t for t in self.world.tones if t[3]]

    def save_png(self, path):
        return render_png(self.display, path)


def _pair(nvm, wifi_pair):
    """A power-loss record whose pairing names a Wi-Fi network (as `tdhost pair
    --wifi-ssid` leaves it)."""
    from tableclock import record
    from tableclock.store import NvmStore
    from tableclock.table import Table
    from tcbox.defaults import SETUP

    ssid, password = wifi_pair
    extra = {"p": {"table": 3, "key_id": "k-test", "settings": {
        "wifi_ssid": ssid, "wifi_password": password, "mqtt_host": "10.0.0.2"}}}
    slots = record.Slots(NvmStore(nvm, 0, selftest.LOG))
    slots.save(record.dump(Table(SETUP), extra))


def shots(out):
    """The self-test's screens on both boards, as the bring-up checklists show
    them: a key asked for after one passed, and the summary of a box whose
    second key never fires (and, on the table build, whose ring never lights)."""
    import os

    made = []
    for name in sorted(BOARDS):
        b = Bench(name)
        b.let_go()
        b.until("key:0")
        b.press(b.profile["keys"][0]["role"])
        b.until("key:1")
        made.append(b.save_png(os.path.join(out, "%s-selftest.png" % name)))
        b = Bench(name, absent=("ring",))
        answer_all(b, missing=1)
        made.append(b.save_png(os.path.join(out, "%s-selftest-done.png" % name)))
    return made


def answer_all(b, missing=None):
    """Answer every step as a person at the box would: press each key asked
    for (but key number *missing*, which never fires), say yes to the ring
    only when a pixel lit and to the buzzer only when a tone played.
    Returns at the summary."""
    b.let_go()
    for i in range(len(b.profile["keys"])):
        b.until("key:%d" % i)
        if i != missing:
            b.press(b.profile["keys"][i]["role"])
    roles = [k["role"] for k in b.profile["keys"]]
    yes = [r for r in roles if r in selftest.YES_ROLES][0]
    no = [r for r in roles if r not in selftest.YES_ROLES][0]
    if b.profile["ring"] and b.test.ring is not None:
        b.until("ring")
        b.run_for(8000)
        b.press(yes if b.lit else no)
    if b.profile["buzzer"] and b.test.buzzer is not None:
        b.until("buzzer")
        b.run_for(8000)
        b.press(yes if b.tones() else no)
    b.run_for(selftest.USB_WAIT_MS + 100)


if __name__ == "__main__":
    for path in shots(sys.argv[1] if len(sys.argv) > 1 else "docs/screens"):
        print(path)
    microcontroller  # noqa: B018 -- the stub is installed for the firmware's imports
