# ruff: noqa: I001 -- the simulator must install its hardware stubs before board imports
"""The box's self-test (tcbox/selftest.py) on the simulator's stubs: every step,
passing and failing (a key that never fires, an absent ring, a failing record
store, Wi-Fi not found or refused, no data port), the JSON lines on the data
port and the way back to the table."""

import json

import pytest

from tcsim.selftest_bench import Bench, answer_all, leave, world

from tcbox import hardware, selftest, selftest_steps
from tcbox.hardware import PATTERNS



@pytest.fixture(autouse=True)
def _own_world():
    """Each Bench has a world of its own; the simulator's default one comes back after."""
    saved = world.current()
    yield
    leave(saved)

def test_the_selftest_key_held_at_power_up_starts_it_and_nothing_else_does():
    assert Bench("compact").held and Bench("table").held
    b = Bench("compact", hold=False)
    assert not b.held and b.test is None
    # the rescue key (ok) held instead is not the self-test key
    w = world.current()
    w.hold("D1")
    assert not hardware.held(b.profile, b.profile["selftest"])
    w.let_go("D1")


def test_run_starts_the_selftest_before_the_table(monkeypatch):
    calls = []

    class Stop(Exception):
        pass

    def build(name=None, link=True):
        calls.append("table")
        raise Stop()

    monkeypatch.setattr(selftest, "run", lambda p, d: calls.append("selftest " + p["selftest"]))
    monkeypatch.setattr(hardware, "build", build)
    monkeypatch.setattr(hardware, "display", lambda spec: None)
    b = Bench("table")  # the key is held
    with pytest.raises(Stop):
        hardware.run("table")
    assert calls == ["selftest menu", "table"]
    b.world.let_go(b.key)
    calls.clear()
    with pytest.raises(Stop):
        hardware.run("table")
    assert calls == ["table"]


def test_a_working_compact_box_passes_and_goes_back_to_the_table():
    b = Bench("compact")
    assert "Let go of the keys" in b.texts()
    answer_all(b)
    r = b.results()
    assert [r[k]["result"] for k in ("info", "store", "key:left", "key:ok", "key:right")] == [
        "pass"] * 5
    assert r["ring"]["result"] == "skip" and r["buzzer"]["result"] == "skip"
    assert r["wifi"] == dict(r["wifi"], result="skip", detail="not paired for Wi-Fi")
    lines = b.lines()
    assert lines[0]["selftest"] == "start" and lines[0]["board"] == "compact"
    assert lines[0]["board_id"] == "adafruit_feather_esp32s3_reverse_tft"
    assert lines[-1] == {"selftest": "done", "board": "compact", "passed": 5, "failed": 0,
                         "skipped": 4}
    assert "5 passed, 0 failed" in b.texts()
    assert b.running
    b.press("left")  # the next press: back to the table
    assert not b.running
    assert world.current().keys == []  # the keys' pins are free for the table


def test_each_key_asks_to_be_pressed_with_its_role():
    b = Bench("table")
    b.let_go()
    b.until("key:2")
    assert "Press RAISE (A2)" in b.texts()
    assert "raise; long: all-in" in b.texts()
    b.press("fold")  # the wrong key: said, and still waiting
    assert "that was FOLD (A3)" in b.texts()
    assert b.test.steps[b.test.i] == "key:2"


def test_a_key_that_never_fires_fails_with_its_pin():
    b = Bench("compact")
    answer_all(b, missing=1)
    r = b.results()["key:ok"]
    assert r["result"] == "fail" and r["pin"] == "D1" and r["key"] == 2
    assert r["detail"] == "never pressed in 20 s"
    assert b.lines()[-1]["failed"] == 1
    texts = b.texts()
    assert "4 passed, 1 failed" in texts
    assert any(t.startswith("FAIL key 2 OK (D1): never pressed") for t in texts)


def test_the_ring_lights_each_pixel_in_turn_then_all():
    b = Bench("table")
    b.let_go()
    for i in range(5):
        b.until("key:%d" % i)
        b.press(b.profile["keys"][i]["role"])
    b.until("ring")
    seen = []
    for _ in range(400):
        b.run_for(10)
        lit = [i for i in range(10) if any(b.leds()[i])]
        if lit and (not seen or seen[-1] != lit):
            seen.append(lit)
        if b.test.phase == 2:
            break
    assert seen[:10] == [[i] for i in range(10)]
    assert seen[10] == list(range(10))
    assert "Seats 1-10 lit in turn?" in b.texts()
    b.press("hand")
    assert b.results()["ring"]["result"] == "pass"


def test_an_absent_ring_is_not_seen_and_fails():
    b = Bench("table", absent=("ring",))
    answer_all(b)
    assert not b.lit
    r = b.results()["ring"]
    assert r["result"] == "fail" and r["detail"] == "not seen lit in turn (pin D11)"


def test_a_ring_that_cannot_start_fails_at_once(monkeypatch):
    def broken(spec):
        raise ImportError("no module named 'neopixel'")

    monkeypatch.setattr(hardware, "Ring", broken)
    b = Bench("table")
    answer_all(b)
    r = b.results()["ring"]
    assert r["result"] == "fail"
    assert r["detail"] == "could not start: ImportError: no module named 'neopixel'"


def test_the_buzzer_plays_its_three_tunes_and_nobody_answering_fails():
    b = Bench("table")
    b.let_go()
    for i in range(5):
        b.until("key:%d" % i)
        b.press(b.profile["keys"][i]["role"])
    b.until("ring")
    b.run_for(8000)
    b.press("hand")
    b.until("buzzer")
    b.run_for(8000)
    played = [t[2] for t in b.tones() if t[1] == "D12"]
    want = [f for name in ("level", "minute", "shot") for f, ms in PATTERNS[name] if f]
    assert played == want
    b.run_for(selftest_steps.ANSWER_MS)
    r = b.results()["buzzer"]
    assert r["result"] == "fail" and r["detail"] == "nobody answered in 20 s"


def test_the_record_store_is_written_read_back_and_restored():
    from tableclock import record
    from tableclock.store import NvmStore

    b = Bench("compact", wifi_pair=("club", "pw"))  # a record in nvm: the pairing
    before = bytes(b.world.nvm[0:8192])
    writes = b.world.nvm.writes
    answer_all(b)
    assert b.results()["store"]["result"] == "pass"
    assert b.world.nvm.writes == writes + 2  # the test bytes, then the old ones back
    assert bytes(b.world.nvm[0:8192]) == before
    slot = record.Slots(NvmStore(b.world.nvm, 0, selftest_steps.LOG))
    assert slot.load()["extra"]["p"]["settings"]["wifi_ssid"] == "club"


@pytest.mark.parametrize("fault,detail", [
    ("stuck", "read back differs from what was written"),
    ("error", "write failed: [Errno 5] nvm write failed"),
])
def test_a_failing_record_store_fails(fault, detail):
    b = Bench("compact", store=fault)
    answer_all(b)
    r = b.results()["store"]
    assert r["result"] == "fail" and r["detail"] == detail


def test_wifi_when_paired_scans_and_joins():
    b = Bench("compact", wifi_pair=("club", "pw"), networks=[("cafe", -80), ("club", -55)],
              passwords={"club": "pw"})
    answer_all(b)
    r = b.results()["wifi"]
    assert r["result"] == "pass" and r["rssi"] == -55
    assert r["detail"] == "joined club, signal -55 dBm, address 192.168.4.20"


@pytest.mark.parametrize("networks,passwords,detail", [
    ([("cafe", -80)], {}, "club not found (1 networks seen)"),
    ([("club", -60)], {"club": "other"}, "could not join club: Authentication failure"),
])
def test_wifi_not_found_or_refused_fails(networks, passwords, detail):
    b = Bench("compact", wifi_pair=("club", "pw"), networks=networks, passwords=passwords)
    answer_all(b)
    r = b.results()["wifi"]
    assert r["result"] == "fail" and r["detail"] == detail


def test_the_data_port_answers_the_computer_with_every_line():
    b = Bench("compact")
    b.let_go()
    b.until("key:0")
    sent = len(b.lines())
    b.port.feed(b'{"selftest": "report"}\n')
    b.run_for(20)
    lines = b.lines()
    assert lines[sent:] == lines[:sent]  # everything again, for a computer that came late
    answer_all(b)
    assert b.results()["usb"]["result"] == "pass"


def test_no_data_port_fails_the_usb_step():
    b = Bench("compact", no_port=True)
    answer_all(b)
    r = b.results()["usb"]
    assert r["result"] == "fail" and r["detail"].startswith("no data port")


def test_the_lines_are_json_with_a_result_for_every_step():
    b = Bench("table")
    answer_all(b)
    steps = [d["selftest"] for d in b.lines()]
    assert steps == ["start", "info", "store"] + ["key"] * 5 + ["ring", "buzzer", "wifi",
                                                                 "usb", "done"]
    for raw in bytes(b.port.sent).split(b"\n")[:-1]:
        assert json.loads(raw)["board"] == "table"


def test_versions_names_the_firmware_and_measures_what_it_can():
    from tcbox import VERSION
    from tcsim.selftest_bench import board_versions

    v = board_versions()  # the firmware's own, not the simulator's stand-in
    assert v["fw"] == VERSION and set(v) == {"cp", "fw", "form", "heap_free", "flash_free"}
    assert isinstance(v["flash_free"], int) and v["flash_free"] > 0
    assert v["form"] == "py"  # CPython runs the sources; a .mpy box: tests/sim/test_powerup.py


def test_the_steps_run_under_micropython():
    """tests/sim/mpy_selftest: the steps on plain fakes in the MicroPython unix port."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, MICROPYPATH="firmware:tests/sim/mpy_selftest")
    r = subprocess.run([os.path.join(os.path.dirname(sys.executable), "micropython"), "-X",
                        "heapsize=256K", "tests/mpy_runner.py", "tests/sim/mpy_selftest"],
                       cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines()[-1] == "3 passed, 0 failed", r.stdout + r.stderr
