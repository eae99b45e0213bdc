"""The box's self-test (firmware tcbox/selftest.py) on the simulator's stubs: :class:`Bench`
powers a box up with its self-test key held and runs it on the virtual clock, with faults
on demand (a dark ring, a failing store, no data port...).  ``python -m tcsim.selftest_bench DIR``
writes the self-test screens for ``make sim-shots``.  docs/box.md, "Self-test".
"""

import json
import sys
from typing import Any, Tuple

from . import stubs

world = stubs.install()

import board  # noqa: E402
import microcontroller  # noqa: E402
import usb_cdc  # noqa: E402
import wifi  # noqa: E402

from tcbox import hardware, selftest, selftest_steps  # noqa: E402
from tcbox.boards import BOARDS  # noqa: E402

from .display import make_display, render_png  # noqa: E402
from .sim import label_texts  # noqa: E402

SCAN_MS = 10


board_versions = selftest.versions  # the firmware's own, before Bench puts sim_versions there


def leave(saved: Any) -> None:
    """After a test: *saved* (the world current before) current again, the radio
    offline again, the firmware's own ``versions`` back."""
    world.use(saved)
    radio: Any = wifi.radio  # the stub's radio
    radio.networks = []
    radio.passwords = {}
    radio.connected = False
    radio.ipv4_address = None
    radio.ap_info = None
    selftest.versions = board_versions


def sim_versions() -> Any:
    """What the simulator says instead of CircuitPython's version, heap and flash:
    it has none of them (the screenshots must not show the PC's figures)."""
    from tcbox import VERSION

    return {"cp": "simulator", "fw": VERSION, "form": "py", "heap_free": None,
            "flash_free": None}


class Bench:
    """One box powered up into its self-test."""

    def __init__(self, board_name: str, hold: bool = True, absent: Tuple[Any, ...] = (),
                 store: Any = None, wifi_pair: Any = None,
                 networks: Tuple[Any, ...] = (), passwords: Any = None, no_port: bool = False,
                 port: Any = None) -> None:
        self.world = box_world = world.World(name="selftest")  # its own: the faults stay here
        world.use(box_world)
        box_world.nvm.erase()
        for part in absent:
            box_world.absent.add(part)
        self.profile = profile = BOARDS[board_name]
        self.board_name = board_name
        self.pins = {k["role"]: k["pin"] for k in profile["keys"]}
        display = profile["display"]
        self.display = make_display(display["width"], display["height"])
        board.DISPLAY = self.display
        board.board_id = profile["board_id"]
        if port is None and not no_port:
            port = usb_cdc.Serial()
        usb_cdc.set_ports(  # type: ignore[attr-defined]  # the stub's
            box_world, console=usb_cdc.Serial(), data=port)
        self.port: Any = usb_cdc.data  # the stub's Serial, or None
        if wifi_pair is not None:
            _pair(box_world.nvm, wifi_pair)
        radio: Any = wifi.radio  # the stub's
        radio.networks = list(networks)
        radio.passwords = dict(passwords or {})
        radio.connected = False
        box_world.nvm.broken = store
        self.key = self.pins[profile["selftest"]]
        if hold:
            box_world.hold(self.key)
        self.held = hardware.held(profile, profile["selftest"])
        selftest.versions = sim_versions
        self.test: Any = None  # tcbox.selftest's test once it runs
        if self.held:
            self.test = selftest.start(profile, self.display)
        self.running = True
        self.lit = False  # did a ring pixel ever light (what the person saw)
        self.step()

    def step(self) -> None:
        world.use(self.world)
        if self.test is not None and self.running:
            self.running = self.test.step(world.ticks_ms())
            if self.test.ring is not None and any(any(c) for c in self.test.ring.px.shown):
                self.lit = True
            if not self.running:
                self.test.close()

    def run_for(self, ms: int) -> None:
        end = self.world.now_ms + ms
        while self.world.now_ms < end and self.running:
            self.world.advance(min(SCAN_MS, end - self.world.now_ms))
            self.step()

    def let_go(self) -> None:
        """Release the self-test key held since power-up."""
        self.world.let_go(self.key)
        self.run_for(100)

    def press(self, role: str, ms: int = 80) -> None:
        pin = self.pins[role]
        self.world.schedule(pin, True, self.world.now_ms)
        self.world.schedule(pin, False, self.world.now_ms + ms)
        self.run_for(ms + 120)

    def until(self, kind: Any, limit_ms: int = 60000) -> None:
        """Run until the step *kind* ("key:0", "ring", ...) is the current one."""
        end = self.world.now_ms + limit_ms
        test = self.test
        while self.world.now_ms < end and (test.i < 0 or test.done or test.steps[test.i] != kind):
            if test.done:
                raise AssertionError("the self-test ended before %s" % kind)
            self.run_for(SCAN_MS)
        if self.world.now_ms >= end:
            raise AssertionError("no step %s in %d ms" % (kind, limit_ms))
        self.run_for(SCAN_MS)  # the step's first slice: its question on screen

    def lines(self) -> Any:
        """The JSON lines the box wrote on its data port (a usb_cdc.Serial stub)."""
        if self.port is None:
            return []
        out = []
        for raw in bytes(self.port.sent).split(b"\n"):
            if raw.strip():
                out.append(json.loads(raw))
        return out

    def results(self) -> Any:
        """Step name -> its result dict (keys as "key:ROLE")."""
        out = {}
        for result in self.test.results:
            key = ("key:" + result["role"] if result["selftest"] == "key"
                   else result["selftest"])
            out[key] = result
        return out

    def texts(self) -> Any:
        return label_texts(self.display.root_group)

    def leds(self) -> Any:
        return [list(c) for c in self.test.ring.px.shown] if self.test.ring else []

    def tones(self) -> Any:
        return [tone for tone in self.world.tones if tone[3]]

    def save_png(self, path: str) -> Any:
        return render_png(self.display, path)


def _pair(nvm: Any, wifi_pair: Any) -> None:
    """A power-loss record whose pairing names a Wi-Fi network (as `tdhost pair
    --wifi-ssid` leaves it)."""
    from tableclock import record
    from tableclock.store import NvmStore
    from tableclock.table import Table
    from tcbox.defaults import SETUP

    ssid, password = wifi_pair
    extra = {"p": {"table": 3, "key_id": "k-test", "settings": {
        "wifi_ssid": ssid, "wifi_password": password, "mqtt_host": "10.0.0.2"}}}
    slots = record.Slots(NvmStore(nvm, 0, selftest_steps.LOG))
    slots.save(record.dump(Table(SETUP), extra))


def shots(out: Any) -> Any:
    """The self-test's screens on both boards, as the bring-up checklists show
    them: a key asked for after one passed, and the summary of a box whose
    second key never fires (and, on the table build, whose ring never lights)."""
    import os

    made = []
    for name in sorted(BOARDS):
        bench = Bench(name)
        bench.let_go()
        bench.until("key:0")
        bench.press(bench.profile["keys"][0]["role"])
        bench.until("key:1")
        made.append(bench.save_png(os.path.join(out, "%s-selftest.png" % name)))
        bench = Bench(name, absent=("ring",))
        answer_all(bench, missing=1)
        made.append(bench.save_png(os.path.join(out, "%s-selftest-done.png" % name)))
    return made


def answer_all(bench: Any, missing: Any = None) -> None:
    """Answer every step as a person at the box would: press each key asked
    for (but key number *missing*, which never fires), say yes to the ring
    only when a pixel lit and to the buzzer only when a tone played.
    Returns at the summary."""
    bench.let_go()
    for i in range(len(bench.profile["keys"])):
        bench.until("key:%d" % i)
        if i != missing:
            bench.press(bench.profile["keys"][i]["role"])
    roles = [k["role"] for k in bench.profile["keys"]]
    yes = [role for role in roles if role in selftest_steps.YES_ROLES][0]
    no = [role for role in roles if role not in selftest_steps.YES_ROLES][0]
    if bench.profile["ring"] and bench.test.ring is not None:
        bench.until("ring")
        bench.run_for(8000)
        bench.press(yes if bench.lit else no)
    if bench.profile["buzzer"] and bench.test.buzzer is not None:
        bench.until("buzzer")
        bench.run_for(8000)
        bench.press(yes if bench.tones() else no)
    bench.run_for(selftest_steps.USB_WAIT_MS + 100)


if __name__ == "__main__":
    for path in shots(sys.argv[1] if len(sys.argv) > 1 else "docs/screens"):
        print(path)
    microcontroller  # noqa: B018 -- the stub is installed for the firmware's imports
