"""The self-test's checks of the parts (tcbox/selftest.py runs them): the
record store, each key, the seat ring, the buzzer, Wi-Fi, the USB data port
(docs/box.md, "Self-test").
"""

from .presses import ticks_diff

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401

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


class SelfTestSteps:
    """The steps of tcbox.selftest.SelfTest (its base class, on its
    attributes): each ``_<step>(now, presses, arg)`` returns None while it
    runs, else ``(result, detail, extra)``."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        p = None  # type: Any
        nvm = None  # type: Any
        problems = None  # type: Any
        screen = None  # type: Any
        ring = None  # type: Any
        buzzer = None  # type: Any
        radio = None  # type: Any
        wifi = None  # type: Any
        port = None  # type: Any
        asked = None  # type: Any
        phase = None  # type: Any
        t0 = None  # type: Any
        other = None  # type: Any
        tune = None  # type: Any

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
