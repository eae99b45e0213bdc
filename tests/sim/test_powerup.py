"""The power-cut drill on the form that ships: `tdhost deploy` writes the box's packages as
CircuitPython bytecode onto a folder that looks like a CircuitPython 10 drive, and the box
starts from those files under the MicroPython unix port after a power cut mid-hand
(bench/powerup_mpy.py: the stubs and the display fakes for the board's C modules), with
the table it had; and it is back at the table in at most half the time the .py sources take
(bench/README.md, "The box": the goal and its reasons; bench/powerup_bench.py measures it).

The unix port loads MicroPython's .mpy, whose header differs from CircuitPython's in its
first byte alone ("M" for "C": tdhost/cli/deploy.py): the drive's files are run with that
byte put back, every other byte as deployed.
"""

import json
import os
import shutil
import subprocess

import pytest

from tdhost.cli import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
SCRIPT = os.path.join(ROOT, "bench", "powerup_mpy.py")
PATH = [os.path.join(ROOT, "tests", "sim", "mpy_fakes"),
        os.path.join(ROOT, "host_tools", "tcsim", "stubs")]
CLOCKISH = ("seconds_left", "shot_clock", "clock_warning", "error")
PASSES = 3
RATIO = 0.5  # bench/powerup_bench.py POWERUP_GOALS["powerup_ratio"]


def _box(lib, *args):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([lib] + PATH))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=2M", SCRIPT] + list(args), cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def _quiet(st):
    return {k: v for k, v in st.items() if k not in CLOCKISH}


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A CircuitPython 10 drive after `tdhost deploy` (its packages with the unix port's
    magic byte, in *lib*), and the nvm of a box cut mid-hand."""
    tmp = tmp_path_factory.mktemp("powerup")
    drive = tmp / "CIRCUITPY"
    (drive / "lib" / "adafruit_display_text").mkdir(parents=True)
    (drive / "lib" / "adafruit_minimqtt").mkdir()
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.3.0 on 2026-10-01; Adafruit Feather ESP32-S3 Reverse TFT "
        "with ESP32S3\nBoard ID:adafruit_feather_esp32s3_reverse_tft\n")
    out = open(os.devnull, "w")
    try:
        assert deploy.main([str(drive)], out=out) == 0
    finally:
        out.close()
    lib = tmp / "lib"
    for pkg in ("tableclock", "tcbox"):
        shutil.copytree(drive / pkg, lib / pkg)
        names = [os.path.relpath(os.path.join(d, n), lib / pkg)  # with its packages' modules
                 for d, _, files in os.walk(lib / pkg) for n in files]
        assert names and all(n.endswith(".mpy") for n in names), names
        for n in names:
            data = bytearray((lib / pkg / n).read_bytes())
            assert data[0] == ord("C")
            data[0] = ord("M")
            (lib / pkg / n).write_bytes(bytes(data))
    store = str(tmp / "nvm.bin")
    cut = _box(str(lib), "cut", "compact", store)
    return str(lib), store, cut["state"]


def test_the_box_starts_from_the_deployed_bytecode_with_its_hand(shipped):
    lib, store, before = shipped
    up = _box(lib, "up", "compact", store)
    assert up["files"]["py"] == 0 and up["files"]["mpy"] > 30, up["files"]
    assert up["form"] == "mpy"                                   # what the self-test reports
    assert up["state"]["hand"] == 1 and up["state"]["last"] == "Seat 6 folds"
    assert _quiet(up["state"]) == _quiet(before)
    up = _box(os.path.join(ROOT, "firmware"), "up", "compact", store)  # the same from .py
    assert up["form"] == "py" and up["files"]["mpy"] == 0
    assert _quiet(up["state"]) == _quiet(before)


def test_bytecode_brings_the_table_back_in_at_most_half_the_time(shipped):
    lib, store, _ = shipped
    best = {"py": None, "mpy": None}
    for _ in range(PASSES):  # the fastest of each: other load on the machine only adds time
        for form, path in (("py", os.path.join(ROOT, "firmware")), ("mpy", lib)):
            us = _box(path, "up", "compact", store)["us"]
            best[form] = us if best[form] is None else min(best[form], us)
    assert best["mpy"] <= RATIO * best["py"], best
