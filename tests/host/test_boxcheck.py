# ruff: noqa: I001 -- the simulator must install its hardware stubs before board imports
"""`tdhost boxes --check PORT` against the firmware's self-test on a simulated box,
whose data port is a pty: the table of steps, what to do for each failure, the
pin map, the exit status; and a port with no box."""

import os
import subprocess
import sys
import time
import tty

import pytest

from tcsim.transports import PtyPort
from tcsim.selftest_bench import Bench, answer_all, leave, world

from tdhost.cli.boxcheck import Report, render

TDHOST = os.path.join(os.path.dirname(sys.executable), "tdhost")



@pytest.fixture(autouse=True)
def _own_world():
    """Each Bench has a world of its own; the simulator's default one comes back after."""
    saved = world.current()
    yield
    leave(saved)

def _check(board, missing=None, **faults):
    """Run the command on a pty while the simulated box runs its self-test."""
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    proc = subprocess.Popen([TDHOST, "boxes", "--check", name, "--wait", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        b = Bench(board, port=PtyPort(master), **faults)
        end = time.monotonic() + 30
        while not b.test.asked and time.monotonic() < end:  # the command is listening
            b.run_for(10)
            time.sleep(0.005)
        assert b.test.asked, "the command never asked the box"
        answer_all(b, missing=missing)
        while proc.poll() is None and time.monotonic() < end:
            b.run_for(10)
            time.sleep(0.01)
        out, _ = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    return proc.returncode, out


def test_check_prints_each_step_and_what_to_do_for_each_failure():
    code, out = _check("table", missing=1, absent=("ring",))
    assert code == 1, out
    assert out.startswith("Hold RIGHT (D2) on the compact box or MENU (A4) on the table box")
    lines = out.splitlines()
    key2 = [x for x in lines if x.startswith("key 2 CALL (A1)")]
    assert len(key2) == 1 and "FAIL" in key2[0]
    assert "never pressed in 20 s" in key2[0]
    assert "check the wiring of A1 (button between A1 and GND" in key2[0]
    ring = [x for x in lines if x.startswith("ring ")][0]
    assert "not seen lit in turn (pin D11)" in ring and "D11 -> 74AHCT125" in ring
    assert [x for x in lines if x.startswith("usb ")][0].split()[1] == "PASS"
    assert "8 passed, 2 failed, 1 skipped" in lines
    assert lines[-1] == ("pin map (hardware/table/pinmap.md): HAND (A0), CALL (A1), RAISE (A2),"
                         " FOLD (A3), MENU (A4), ring D11, buzzer D12")


def test_check_of_a_working_compact_box_exits_0():
    code, out = _check("compact")
    assert code == 0, out
    assert "6 passed, 0 failed, 3 skipped" in out.splitlines()
    assert "FAIL" not in out


def test_check_with_no_box_says_so_in_one_sentence(tmp_path):
    p = subprocess.run([TDHOST, "boxes", "--check", str(tmp_path / "ttyACM9"), "--wait", "1"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1
    assert p.stdout.splitlines()[-1].startswith("no self-test seen on ")
    assert "Traceback" not in p.stdout + p.stderr


def test_a_box_reset_mid_test_starts_the_report_again():
    r = Report()
    start = b'{"selftest": "start", "board": "compact", "fw": "0.1.0"}'
    r.feed(start)
    r.feed(b'{"selftest": "store", "board": "compact", "result": "fail", "detail": "x"}')
    r.feed(b'{"selftest": "store", "board": "compact", "result": "fail", "detail": "x"}')
    assert len(r.results) == 1  # the box sends everything again when asked: once each
    r.feed(start.replace(b"0.1.0", b"0.1.1"))
    assert r.results == [] and r.start["fw"] == "0.1.1"
    assert not r.feed(b'{"v":"1","kind":"hello"}') and not r.feed(b"garbage")
    assert "store" not in "\n".join(render(r))
