"""The box's self-test, run before the table while the profile's
``selftest`` key is held at power-up: the board's facts, then each part
checked (tcbox/selftest_steps.py), every result on screen and as one JSON
line on the data port (``tdhost boxes --check PORT``).  docs/box.md, "Self-test".
"""

import gc
import json
import sys

from . import VERSION
from .boards import BOARDS
from .presses import ticks_diff
from .selftest_steps import (
    FAIL,
    KEY_WAIT_MS,
    LOG,
    PASS,
    PATTERN_MS,
    SKIP,
    SelfTestSteps,
)


def _kb(n):
    if n is None:
        return "?"
    if n >= 1048576:
        return "%d.%d MB" % (n // 1048576, (n % 1048576) * 10 // 1048576)
    return "%d KB" % (n // 1024)


def form():
    """How the firmware was shipped: "mpy" (bytecode, as ``tdhost deploy`` writes it for a
    CircuitPython it knows) or "py" (compiled at every start).  A module loaded from a .mpy
    file has that file as its ``__file__``."""
    return "mpy" if str(globals().get("__file__", "")).endswith(".mpy") else "py"


def versions():
    """The firmware's facts: CircuitPython, firmware and its form (``form``), free heap and
    flash (bytes)."""
    impl = sys.implementation
    cp = "%s %s" % ("CircuitPython" if impl.name == "circuitpython" else impl.name,
                    ".".join(str(v) for v in impl.version[:3]))
    gc.collect()
    free = getattr(gc, "mem_free", None)
    heap = free() if free is not None else None
    flash = None
    try:
        import os

        st = os.statvfs("/")
        flash = st[0] * st[3]
    except (ImportError, AttributeError, OSError):
        pass
    return {"cp": cp, "fw": VERSION, "form": form(), "heap_free": heap, "flash_free": flash}


class SelfTest(SelfTestSteps):
    """The steps, run a slice at a time by ``step(now)``.

    :param p: the board profile (tcbox/boards.py).
    :param keys: tcbox.hardware.KeyScanner (``get()``: key number, pressed, ms).
    :param screen: tcbox.selftest_screen.SelfTestScreen.
    :param ring, buzzer: tcbox.hardware.Ring / Buzzer, None when absent.
    :param nvm: microcontroller.nvm; *port*: usb_cdc.data or None.
    :param wifi: (ssid, password) of the pairing, or None; *radio*: wifi.radio.
    :param problems: part name -> why it could not be made.
    """

    def __init__(self, profile, keys, screen, ring=None, buzzer=None, nvm=None, port=None,
                 wifi=None, radio=None, problems=None):
        self.p = profile
        self.keys = keys
        self.screen = screen
        self.ring = ring
        self.buzzer = buzzer
        self.nvm = nvm
        self.port = port
        self.wifi = wifi
        self.radio = radio
        self.problems = problems if problems is not None else {}
        self.board = ""  # the profile's name in tcbox/boards.py
        for name in BOARDS:  # by board id: tcbox.hardware.profile reads a copy of BOARDS
            if BOARDS[name]["board_id"] == profile["board_id"]:
                self.board = name
        self.steps = ["info", "store"]
        for i in range(len(profile["keys"])):
            self.steps.append("key:%d" % i)
        self.steps += ["ring", "buzzer", "wifi", "usb"]
        self.sent = []  # every JSON line sent, for a computer that asks again
        self.results = []  # one dict per step
        self.i = -1
        self.t0 = 0
        self.phase = 0
        self.down = []  # key numbers held now
        self.asked = False  # a line came from the computer
        self.inbuf = b""
        self.done = False
        self.other = None  # a key pressed instead of the one asked for
        self.facts = {}  # type: dict
        self.tune = 0

    # -- the loop ----------------------------------------------------------
    def step(self, now):
        """One slice at *now* (ticks ms); False once the table may start."""
        presses = self._presses()
        self._read_port()
        if self.done:
            return not presses
        if self.i < 0:
            self._next(now)
        kind = self.steps[self.i]
        arg = None
        if kind.startswith("key:"):
            arg = int(kind[4:])
            kind = "key"
        r = getattr(self, "_" + kind)(now, presses, arg)
        if r is not None:
            self._result(kind, arg, r)
            self._next(now)
        return True

    def _presses(self):
        out = []  # type: list
        while True:
            e = self.keys.get()
            if e is None:
                return out
            n, pressed, _ = e
            if pressed:
                out.append(n)
                if n not in self.down:
                    self.down.append(n)
            elif n in self.down:
                self.down.remove(n)

    def _next(self, now):
        self.i += 1
        self.t0 = now
        self.phase = 0
        self.other = None
        if self.i < len(self.steps):
            return
        self.done = True
        n = {PASS: 0, FAIL: 0, SKIP: 0}
        for r in self.results:
            n[r["result"]] += 1
        self._send({"selftest": "done", "board": self.board, "passed": n[PASS],
                    "failed": n[FAIL], "skipped": n[SKIP]})
        self.screen.ask("%d passed, %d failed" % (n[PASS], n[FAIL]),
                        "%d skipped. Press a key for the table." % n[SKIP],
                        0x70FF70 if not n[FAIL] else 0xFF5050)
        self.screen.failures_first()

    def _result(self, kind, arg, r):
        result, detail, extra = r
        d = {"selftest": kind, "board": self.board, "result": result, "detail": detail}
        name = kind
        if kind == "key":
            k = self.p["keys"][arg]
            d["key"] = arg + 1
            d["role"] = k["role"]
            d["pin"] = k["pin"]
            name = "key %d %s (%s)" % (arg + 1, k["role"].upper(), k["pin"])
        if extra:
            for f in extra:
                d[f] = extra[f]
        self.results.append(d)
        self._send(d)
        self.screen.add(result, "%s: %s" % (name, detail))

    # -- the data port -------------------------------------------------------
    def _send(self, d):
        line = json.dumps(d)
        self.sent.append(line)
        print(line)  # the console too: a technician in the REPL sees it
        self._write(line)

    def _write(self, line):
        if self.port is None:
            return
        try:
            self.port.write((line + "\n").encode())
        except Exception:  # noqa: BLE001 -- a computer that stopped reading: the screen says it
            pass

    def _read_port(self):
        """Any line from the computer: send everything again (it may have
        come late) and count the data port as answering."""
        port = self.port
        if port is None:
            return
        try:
            n = port.in_waiting
            data = port.read(min(n, 256)) if n else None
        except Exception:  # noqa: BLE001 -- the port went away: nothing to read
            return
        if not data:
            return
        self.inbuf = (self.inbuf + data)[-256:]
        if b"\n" not in self.inbuf:
            return
        self.inbuf = self.inbuf[self.inbuf.rfind(b"\n") + 1:]
        self.asked = True
        for line in self.sent:
            self._write(line)

    # -- the steps: each returns None while running, else (result, detail, extra);
    # the parts' checks are SelfTestSteps'
    def _info(self, now, presses, arg):
        if self.phase == 0:
            self.phase = 1
            v = versions()
            self.facts = v
            self.screen.heading("SELF-TEST " + self.p["name"], (
                "%s  firmware %s .%s" % (v["cp"], v["fw"], v["form"]),
                "heap %s free  flash %s free" % (_kb(v["heap_free"]), _kb(v["flash_free"]))))
            self.screen.ask("Let go of the keys", "then each step asks for what it needs")
            d = {"selftest": "start", "board": self.board, "name": self.p["name"],
                 "board_id": self.p["board_id"]}
            for f in v:
                d[f] = v[f]
            self._send(d)
            return None
        waited = ticks_diff(now, self.t0)
        if waited < PATTERN_MS or (self.down and waited < KEY_WAIT_MS):
            return None
        v = self.facts
        return (PASS, "%s, firmware %s as .%s, heap %s free, flash %s free"
                % (v["cp"], v["fw"], v["form"], _kb(v["heap_free"]), _kb(v["flash_free"])), v)

    def close(self):
        """Give the pins back for the table (the ring dark, the buzzer silent)."""
        if self.ring is not None:
            try:
                self.ring.show([(0, 0, 0)] * len(self.ring.shown))
                self.ring.px.deinit()
            except Exception:  # noqa: BLE001 -- a ring that failed the test
                pass
        if self.buzzer is not None:
            self.buzzer.pwm.deinit()
        for k, _ in self.keys.groups:
            k.deinit()


def _make(problems, name, make, spec):
    if spec is None:
        return None
    try:
        return make(spec)
    except Exception as e:  # noqa: BLE001 -- a missing library, a pin in use: the step says it
        problems[name] = "%s: %s" % (type(e).__name__, e)
        return None


def _data_port():
    try:
        import usb_cdc
    except ImportError:
        return None
    port = usb_cdc.data
    if port is not None:
        port.timeout = 0
        port.write_timeout = 0.01  # float: usb_cdc takes seconds
    return port


def _paired_wifi(nvm):
    """(ssid, password) from the record's pairing, or None."""
    from tableclock import record
    from tableclock.store import NvmStore

    from .link.pairing import settings_of

    try:
        rec = record.Slots(NvmStore(nvm, 0, LOG)).load()
    except Exception:  # noqa: BLE001 -- no readable record: not paired
        return None
    extra = rec.get("extra") if isinstance(rec, dict) else None
    settings = settings_of(extra.get("p") if isinstance(extra, dict) else None)[0]
    if not isinstance(settings, dict) or not settings.get("wifi_ssid"):
        return None
    return settings["wifi_ssid"], settings.get("wifi_password") or ""


def start(profile, display):
    """The self-test for *profile* on *display*, its parts made (what
    cannot be made is noted for its step)."""
    from .hardware import Buzzer, KeyScanner, Ring
    from .selftest_screen import SelfTestScreen

    problems = {}  # type: dict
    d = profile["display"]
    screen = SelfTestScreen(display, d["width"], d["height"])
    keys = KeyScanner(profile["keys"])
    ring = _make(problems, "ring", Ring, profile["ring"])
    buzzer = _make(problems, "buzzer", Buzzer, profile["buzzer"])
    nvm = None
    try:
        import microcontroller

        nvm = microcontroller.nvm
    except (ImportError, AttributeError) as e:
        problems["store"] = str(e)
    wifi = _paired_wifi(nvm) if nvm is not None else None
    radio = None
    if wifi is not None:
        try:
            import wifi as wifi_module

            radio = wifi_module.radio
        except ImportError as e:
            problems["wifi"] = str(e)
    return SelfTest(profile, keys, screen, ring=ring, buzzer=buzzer, nvm=nvm, port=_data_port(),
                    wifi=wifi, radio=radio, problems=problems)


def run(profile, display):
    """On the board: the self-test until the press after its last step."""
    import supervisor

    test = start(profile, display)
    while test.step(supervisor.ticks_ms()):
        pass
    test.close()
