"""The box's self-test: every part of the board checked in a few minutes.

Held at power-up, the profile's ``selftest`` key (compact: RIGHT, D2; table
build: MENU, A4) makes ``tcbox.hardware.run()`` run this before the table:
the test pattern with the board, versions, free heap and flash; the record
store written, read back and restored; each key asked for; the seat ring
pixel by pixel; the buzzer's tones; Wi-Fi scanned and joined when the box is
paired for it; the USB data port answering the computer.  Each step says
pass, fail or skip on screen and as one JSON line on the data port (``tdhost
boxes --check PORT``); the press after the last step starts the table.
docs/box.md "Self-test" has the long story.
"""

import gc
import json
import sys

from . import VERSION
from .boards import BOARDS
from .presses import ticks_diff

KEY_WAIT_MS = 20000  # a key not pressed by then has failed
ANSWER_MS = 20000  # the person's yes / no on the ring and the buzzer
PATTERN_MS = 2000  # the test pattern alone, at least this long
PIXEL_MS = 250  # each ring pixel lit in turn
WHITE_MS = 600  # then all of them
USB_WAIT_MS = 3000  # the data port waits this long for the computer
STORE_BYTES = 64  # written, read back and restored in the older record slot
JOIN_S = 15  # Wi-Fi join timeout (the self-test may block; the table never does)
LOG = 8192 - 256  # the record store's end (tcbox/crashlog.py)

PASS = "pass"
FAIL = "fail"
SKIP = "skip"

YES_ROLES = ("ok", "hand")  # the confirm key answers yes; any other key no

ROLE_TEXT = {  # what each key does at the table (docs/box.md, The keys)
    "left": "fold in a hand; long: undo",
    "ok": "choose; long: the seats list",
    "right": "next option; long: call the clock",
    "hand": "choose: min raise, new hand",
    "call": "check or call; long: call the clock",
    "raise": "raise; long: all-in",
    "fold": "fold; long: undo",
    "menu": "next option; long: previous",
}


def _kb(n):
    if n is None:
        return "?"
    if n >= 1048576:
        return "%d.%d MB" % (n // 1048576, (n % 1048576) * 10 // 1048576)
    return "%d KB" % (n // 1024)


def versions():
    """The firmware's facts: CircuitPython, firmware, free heap and flash (bytes)."""
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
    return {"cp": cp, "fw": VERSION, "heap_free": heap, "flash_free": flash}


class SelfTest:
    """The steps, run a slice at a time by ``step(now)``.

    :param p: the board profile (tcbox/boards.py).
    :param keys: tcbox.hardware.KeyScanner (``get()``: key number, pressed, ms).
    :param screen: tcbox.selftest_screen.SelfTestScreen.
    :param ring, buzzer: tcbox.hardware.Ring / Buzzer, None when absent.
    :param nvm: microcontroller.nvm; *port*: usb_cdc.data or None.
    :param wifi: (ssid, password) of the pairing, or None; *radio*: wifi.radio.
    :param problems: part name -> why it could not be made.
    """

    def __init__(self, p, keys, screen, ring=None, buzzer=None, nvm=None, port=None,
                 wifi=None, radio=None, problems=None):
        self.p = p
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
            if BOARDS[name]["board_id"] == p["board_id"]:
                self.board = name
        self.steps = ["info", "store"]
        for i in range(len(p["keys"])):
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
        p = self.port
        if p is None:
            return
        try:
            n = p.in_waiting
            data = p.read(min(n, 256)) if n else None
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

    # -- the steps: each returns None while running, else (result, detail, extra)
    def _info(self, now, presses, arg):
        if self.phase == 0:
            self.phase = 1
            v = versions()
            self.facts = v
            self.screen.heading("SELF-TEST " + self.p["name"], (
                "%s  firmware %s" % (v["cp"], v["fw"]),
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
        return (PASS, "%s, firmware %s, heap %s free, flash %s free"
                % (v["cp"], v["fw"], _kb(v["heap_free"]), _kb(v["flash_free"])), v)

    def _store(self, now, presses, arg):
        if self.nvm is None:
            return FAIL, "no record store: %s" % self.problems.get("store", "nvm missing"), None
        try:
            a = self._older_slot()
            keep = bytes(self.nvm[a:a + STORE_BYTES])
            test = bytes([b ^ 0xA5 for b in keep])
            self.nvm[a:a + STORE_BYTES] = test
            back = bytes(self.nvm[a:a + STORE_BYTES])
            self.nvm[a:a + STORE_BYTES] = keep
            again = bytes(self.nvm[a:a + STORE_BYTES])
        except Exception as e:  # noqa: BLE001 -- whatever the flash says is the result
            return FAIL, "write failed: %s" % (e,), None
        if back != test:
            return FAIL, "read back differs from what was written", None
        if again != keep:
            return FAIL, "previous content not restored", None
        return PASS, "wrote, read back and restored %d bytes" % STORE_BYTES, None

    def _older_slot(self):
        """The start of the slot the next save would overwrite anyway: a
        power cut during the test loses at most the older record."""
        from tableclock import record
        from tableclock.store import NvmStore

        slots = record.Slots(NvmStore(self.nvm, 0, LOG))
        fr = slots.frames()
        newest = fr[0][1] if fr else 1
        return (1 - newest) * slots.half

    def _key(self, now, presses, i):
        k = self.p["keys"][i]
        name = "%s (%s)" % (k["role"].upper(), k["pin"])
        if self.phase == 0:
            self.phase = 1
            self.screen.ask("Press %s" % name, ROLE_TEXT.get(k["role"], k["role"]))
        if i in presses:
            return PASS, "pressed", None
        for n in presses:
            o = self.p["keys"][n]
            self.other = "%s (%s)" % (o["role"].upper(), o["pin"])
            self.screen.ask("Press %s" % name, "that was %s" % self.other, 0xFFB020)
        if ticks_diff(now, self.t0) >= KEY_WAIT_MS:
            why = "never pressed in %d s" % (KEY_WAIT_MS // 1000)
            if self.other:
                why += " (%s was)" % self.other
            return FAIL, why, None
        return None

    def _ask(self, now, presses, question):
        """The person's yes (the confirm key) or no (any other key)."""
        if self.phase < 2:
            self.phase = 2
            self.t0 = now
            yes = "OK"
            for k in self.p["keys"]:
                if k["role"] in YES_ROLES:
                    yes = k["role"].upper()
            self.screen.ask(question, "%s: yes   any other key: no" % yes, 0xFFB020)
            return None
        for n in presses:
            if self.p["keys"][n]["role"] in YES_ROLES:
                return True
            return False
        if ticks_diff(now, self.t0) >= ANSWER_MS:
            return False
        return None

    def _ring(self, now, presses, arg):
        spec = self.p["ring"]
        if spec is None:
            return SKIP, "this board has no seat ring", None
        if self.ring is None:
            return FAIL, "could not start: %s" % self.problems.get("ring", "?"), None
        n = spec["pixels"]
        if self.phase == 0:
            self.screen.ask("Seat ring", "seat 1 to %d in turn, then all white" % n)
        if self.phase < 2:
            self.phase = 1
            t = ticks_diff(now, self.t0)
            colours = [(0, 0, 0)] * n
            if t < n * PIXEL_MS:
                colours[t // PIXEL_MS] = (240, 228, 66)
            elif t < n * PIXEL_MS + WHITE_MS:
                colours = [(255, 255, 255)] * n
            try:
                self.ring.show(colours)
            except Exception as e:  # noqa: BLE001 -- the pin or library refused
                return FAIL, "could not light: %s" % (e,), None
            if t < n * PIXEL_MS + WHITE_MS:
                return None
        a = self._ask(now, presses, "Seats 1-%d lit in turn?" % n)
        if a is None:
            return None
        if a:
            return PASS, "seen: %d pixels in turn, then white" % n, None
        if not presses:
            return FAIL, "nobody answered in %d s" % (ANSWER_MS // 1000), None
        return FAIL, "not seen lit in turn (pin %s)" % spec["pin"], None

    def _buzzer(self, now, presses, arg):
        spec = self.p["buzzer"]
        if spec is None:
            return SKIP, "this board has no buzzer", None
        if self.buzzer is None:
            return FAIL, "could not start: %s" % self.problems.get("buzzer", "?"), None
        tunes = ("level", "minute", "shot")
        if self.phase == 0:
            self.screen.ask("Buzzer", "three tunes: level, minute, shot clock")
            self.tune = 0
            self.phase = 1
            self.buzzer.beep(tunes[0])
        if self.phase == 1:
            try:
                self.buzzer.update(now)
            except Exception as e:  # noqa: BLE001 -- the PWM refused
                return FAIL, "could not play: %s" % (e,), None
            if self.buzzer.notes:
                return None
            self.tune += 1
            if self.tune < len(tunes):
                self.buzzer.beep(tunes[self.tune])
                return None
        a = self._ask(now, presses, "Heard three tunes?")
        if a is None:
            return None
        if a:
            return PASS, "heard: level, minute and shot clock tunes", None
        if not presses:
            return FAIL, "nobody answered in %d s" % (ANSWER_MS // 1000), None
        return FAIL, "not heard (pin %s)" % spec["pin"], None

    def _wifi(self, now, presses, arg):
        if self.wifi is None:
            return SKIP, "not paired for Wi-Fi", None
        ssid, password = self.wifi
        if self.radio is None:
            return FAIL, "no Wi-Fi radio: %s" % self.problems.get("wifi", "?"), None
        if self.phase == 0:  # show what it does before the scan blocks
            self.phase = 1
            self.screen.ask("Wi-Fi", "looking for %s..." % ssid)
            self.screen.refresh()
            return None
        r = self.radio
        try:
            seen = []
            for net in r.start_scanning_networks():
                if net.ssid not in seen:
                    seen.append(net.ssid)
            r.stop_scanning_networks()
        except Exception as e:  # noqa: BLE001 -- the radio refused
            return FAIL, "scan failed: %s" % (e,), None
        if ssid not in seen:
            return FAIL, "%s not found (%d networks seen)" % (ssid, len(seen)), {
                "seen": seen[:8]}
        self.screen.ask("Wi-Fi", "joining %s..." % ssid)
        self.screen.refresh()
        try:
            if not r.connected:
                r.connect(ssid, password, timeout=JOIN_S)
        except Exception as e:  # noqa: BLE001 -- a wrong password, no address...
            return FAIL, "could not join %s: %s" % (ssid, e), None
        rssi = None
        try:
            rssi = r.ap_info.rssi
        except AttributeError:
            pass
        return PASS, "joined %s, signal %s dBm, address %s" % (ssid, rssi, r.ipv4_address), {
            "rssi": rssi}

    def _usb(self, now, presses, arg):
        if self.port is None:
            return FAIL, "no data port (rescue key held at power-up, or boot.py refused)", None
        if self.asked:
            return PASS, "the computer asked and got the results", None
        if self.phase == 0:
            self.phase = 1
            self.screen.ask("USB data port", "waiting for the computer")
        if ticks_diff(now, self.t0) < USB_WAIT_MS:
            return None
        return SKIP, "no computer asked (tdhost boxes --check PORT)", None

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
    p = usb_cdc.data
    if p is not None:
        p.timeout = 0
        p.write_timeout = 0.01  # float: usb_cdc takes seconds
    return p


def _paired_wifi(nvm):
    """(ssid, password) from the record's pairing, or None."""
    from tableclock import record
    from tableclock.store import NvmStore

    from .linkparts import settings_of

    try:
        rec = record.Slots(NvmStore(nvm, 0, LOG)).load()
    except Exception:  # noqa: BLE001 -- no readable record: not paired
        return None
    extra = rec.get("extra") if isinstance(rec, dict) else None
    s = settings_of(extra.get("p") if isinstance(extra, dict) else None)[0]
    if not isinstance(s, dict) or not s.get("wifi_ssid"):
        return None
    return s["wifi_ssid"], s.get("wifi_password") or ""


def start(p, display):
    """The self-test for profile *p* on *display*, its parts made (what
    cannot be made is noted for its step)."""
    from .hardware import Buzzer, KeyScanner, Ring
    from .selftest_screen import SelfTestScreen

    problems = {}  # type: dict
    d = p["display"]
    screen = SelfTestScreen(display, d["width"], d["height"])
    keys = KeyScanner(p["keys"])
    ring = _make(problems, "ring", Ring, p["ring"])
    buzzer = _make(problems, "buzzer", Buzzer, p["buzzer"])
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
    return SelfTest(p, keys, screen, ring=ring, buzzer=buzzer, nvm=nvm, port=_data_port(),
                    wifi=wifi, radio=radio, problems=problems)


def run(p, display):
    """On the board: the self-test until the press after its last step."""
    import supervisor

    t = start(p, display)
    while t.step(supervisor.ticks_ms()):
        pass
    t.close()
