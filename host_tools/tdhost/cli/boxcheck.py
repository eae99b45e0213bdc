"""`tdhost boxes --check PORT`: a box's self-test read over USB, with what to do.  The box
runs it when its self-test key is held at power-up (tcbox/selftest.py) and sends one JSON
line per step; this reopens PORT while the box resets, asks every second for the lines
again, and prints each step, what to do about a failure and the pin map.
docs/box.md "Self-test".
"""

import json
import time
from typing import Any, Callable

Step = dict[str, Any]

ASK = b'{"selftest": "report"}\n'
ASK_EVERY_S = 1.0


class Report:
    """What the box said: ``start`` (board and versions), ``results`` (one
    dict per step, in order), ``done`` (the totals), or None each."""

    def __init__(self) -> None:
        self.start: Step | None = None
        self.results: list[Step] = []
        self.done: Step | None = None

    def feed(self, line: bytes | str) -> bool:
        """One line from the port; True when it was a self-test line."""
        try:
            d = json.loads(line)
        except ValueError:
            return False
        if not isinstance(d, dict) or not isinstance(d.get("selftest"), str):
            return False
        kind = d["selftest"]
        if kind == "start":
            if d != self.start:  # a new run (the box was reset): start again
                self.start = d
                self.results = []
                self.done = None
        elif kind == "done":
            self.done = d
        elif self.start is not None and d not in self.results:
            self.results.append(d)
        return True


def _profile(report: Report) -> tuple[str | None, dict[str, Any] | None]:
    from tdhost.cli.deploy import boards

    profiles = boards()
    name = (report.start or {}).get("board")
    return name, None if name is None else profiles.get(name)


def _key_name(key: dict[str, Any]) -> str:
    return "%s (%s)" % (key["role"].upper(), key["pin"])


def _pin(profile: dict[str, Any] | None, part: str) -> str:
    """The pin of the ring or the buzzer ("?" for a board with no profile)."""
    return str(((profile or {}).get(part) or {}).get("pin", "?"))


def advice(board: str | None, profile: dict[str, Any] | None, step: Step) -> str:
    """What to do about the failed *step* of a box with *profile*."""
    kind = step.get("selftest")
    detail = step.get("detail", "")
    where = "hardware/%s/pinmap.md" % board
    if kind == "key":
        key: dict[str, Any] | None = None
        for spec in (profile or {}).get("keys", ()):
            if spec["pin"] == step.get("pin"):
                key = spec
        if board == "compact":
            return ("key %s %s never registered: it is the board's own button; check it is not"
                    " blocked by the case, then replace the board (%s)"
                    % (step.get("key"), _key_name(key or step), where))
        to = "GND" if key is None or key["active_low"] else "3V"
        return ("key %s never pressed: check the wiring of %s (button between %s and %s, %s)"
                % (step.get("key"), step.get("pin"), step.get("pin"), to, where))
    if kind == "ring":
        if detail.startswith("could not start"):
            return ("install the libraries: circup install -r firmware/requirements.txt;"
                    " then check nothing else uses pin %s" % _pin(profile, "ring"))
        if detail.startswith("nobody answered"):
            return "watch the ring and answer on the box (%s)" % where
        return ("check the ring's chain: %s -> 74AHCT125 1A, 1Y -> 470 ohm -> DIN of seat 1,"
                " the buffer's 5 V and the 1000 uF capacitor (hardware/%s/wiring.png)"
                % (_pin(profile, "ring"), board))
    if kind == "buzzer":
        if detail.startswith("nobody answered"):
            return "listen and answer on the box"
        return "check the piezo between %s and GND (%s)" % (_pin(profile, "buzzer"), where)
    if kind == "store":
        return ("the flash did not keep what was written: the box would lose its table in a"
                " power cut; reinstall CircuitPython (bring-up step 1), else replace the board")
    if kind == "wifi":
        if "not found" in detail:
            return ("the network is not in range here, or its name differs from the one paired:"
                    " pair again with --wifi-ssid, or move the access point closer")
        return "check the password paired with tdhost pair --wifi-password"
    if kind == "usb":
        return ("power up again without holding the rescue key (OK on the compact box, HAND on"
                " the table build), and check boot.py is on the drive (make deploy)")
    return "see docs/box.md, Self-test"


def pin_map(profile: dict[str, Any]) -> str:
    """One line: every part's pin, for the table's foot."""
    parts = [_key_name(key) for key in profile["keys"]]
    if profile["ring"]:
        parts.append("ring %s" % profile["ring"]["pin"])
    if profile["buzzer"]:
        parts.append("buzzer %s" % profile["buzzer"]["pin"])
    return ", ".join(parts)


def render(report: Report) -> list[str]:
    """The results as text lines: a table, the failures' advice, the pin map."""
    board, profile = _profile(report)
    start = report.start or {}
    form = " as .%s" % start["form"] if start.get("form") else ""  # older firmware: none
    out = ["%s, board %s: %s, firmware %s%s, heap %s B free, flash %s B free" % (
        start.get("name", "?"), board, start.get("cp"), start.get("fw"), form,
        start.get("heap_free"), start.get("flash_free"))]
    rows = []
    for result in report.results:
        step = result.get("selftest", "?")
        if step == "key":
            step = "key %s %s (%s)" % (result.get("key"), str(result.get("role", "")).upper(),
                                       result.get("pin"))
        what = advice(board, profile, result) if result.get("result") == "fail" else ""
        rows.append((step, str(result.get("result", "?")).upper(),
                     str(result.get("detail", "")), what))
    w0 = max([len(row[0]) for row in rows] + [4])
    w2 = max([len(row[2]) for row in rows] + [6])
    out.append("%-*s  %-6s  %-*s  %s" % (w0, "step", "result", w2, "detail", "what to do"))
    for row in rows:
        out.append(("%-*s  %-6s  %-*s  %s" % (w0, row[0], row[1], w2, row[2], row[3])).rstrip())
    if report.done:
        out.append("%d passed, %d failed, %d skipped" % (
            report.done.get("passed", 0), report.done.get("failed", 0),
            report.done.get("skipped", 0)))
    if profile is not None:
        out.append("pin map (hardware/%s/pinmap.md): %s" % (board, pin_map(profile)))
    return out


def read(device: str, wait_s: float, open_port: Callable[[str], Any] | None = None,
         clock: Callable[[], float] = time.monotonic,
         sleep: Callable[[float], object] = time.sleep,
         say: Callable[[str], object] = print) -> Report:
    """The self-test's report from the box on *device* within *wait_s*
    seconds (its ``done`` is None when it did not finish)."""
    from tdhost.links import usb

    if open_port is None:
        open_port = usb.open_port
    report = Report()
    ser = None
    said = False
    buf = b""
    asked = None
    start = clock()
    while clock() - start < wait_s and report.done is None:
        if ser is None:
            try:
                ser = open_port(device)
            except Exception as err:  # noqa: BLE001 -- not there (yet): the box may be resetting
                if not said:
                    say("waiting for %s (%s)" % (device, err))
                    said = True
                sleep(0.5)
                continue
        try:
            if asked is None or clock() - asked >= ASK_EVERY_S:
                usb.write_some(ser, ASK)
                asked = clock()
            data = usb.read_some(ser)
        except (OSError, usb.serial.SerialException):  # the box reset: its port went away
            ser.close()
            ser = None
            continue
        buf = (buf + data)[-65536:]
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            line = line.strip()
            if line.startswith(b"{") and report.feed(line) and report.start is not None:
                if not said:
                    say("self-test running on %s" % device)
                    said = True
        if not data:
            sleep(0.02)
    if ser is not None:
        ser.close()
    return report


def check(device: str, wait_s: float, echo: Callable[[str], object]) -> int:
    """The whole command; its exit status (0 all passed, 1 a failure or no
    self-test seen)."""
    from tdhost.cli.deploy import boards

    profiles = boards()

    keys = " or ".join("%s on the %s box" % (_key_name(key), name)
                       for name in sorted(profiles) for key in profiles[name]["keys"]
                       if key["role"] == profiles[name]["selftest"])
    echo("Hold %s while you plug it in or press reset; keep holding until the screen"
         " says SELF-TEST. Waiting up to %g s." % (keys, wait_s))
    report = read(device, wait_s, say=echo)
    if report.start is None:
        echo("no self-test seen on %s in %g s: is it the box's data port (tdhost boxes), and"
             " was the self-test key held at power-up?" % (device, wait_s))
        return 1
    for line in render(report):
        echo(line)
    if report.done is None:
        echo("the self-test did not finish in %g s (%d steps seen)" % (wait_s,
                                                                      len(report.results)))
        return 1
    return 1 if report.done.get("failed") else 0
