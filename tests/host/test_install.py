"""`pip install .` into a fresh venv gives a working host from any folder (issue #14
"Installable"), without the simulator's packages (issue #34); `pip install '.[sim]'` adds the
simulator. The wheel is built from a copy of the tree and installed with its dependencies (from
the index pip is configured with): `tdhost --help`, `tdhost example`, `tdhost deploy` and the
one sentence of `tdhost serve --demo` without the simulator run in an empty temporary folder;
then the same venv gets the extra `sim`, and `tableclock-sim --help` and a few seconds of
`tdhost serve --demo` run. The tests run in this file's order (the venv grows at `with_sim`)."""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.slow  # a venv and its dependencies: some 30-60 s

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = ("pyproject.toml", "host_tools", "firmware", "docs/examples")


def _run(cmd, cwd, env, timeout=600):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, "%s\n%s\n%s" % (cmd, r.stdout[-3000:], r.stderr[-3000:])
    return r.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder of a fresh venv with the wheel installed, an empty folder, env)."""
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    for rel in SOURCES:  # a copy: no build/ or egg-info of the work tree in the wheel
        a = os.path.join(ROOT, rel)
        if os.path.isdir(a):
            shutil.copytree(a, src / rel, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", "*.pyc"))
        else:
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(a, src / rel)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "wheel"),
          str(src)], tmp, env)
    (wheel,) = list((tmp / "wheel").glob("tableclock_host-*.whl"))
    _run([sys.executable, "-m", "venv", str(tmp / "venv")], tmp, env)
    bin_ = tmp / "venv" / "bin"
    _run([str(bin_ / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp, env)
    run = tmp / "elsewhere"
    run.mkdir()
    return bin_, run, env, wheel


# the simulator's packages (the extra `sim` in pyproject.toml), as imported
SIM_MODULES = ("pygame", "PIL", "displayio", "greenlet", "adafruit_display_text",
               "adafruit_minimqtt")


def _importable(bin_, run, env, modules):
    out = _run([str(bin_ / "python"), "-c", "import importlib.util as u; print(*[m for m in %r "
                "if u.find_spec(m)])" % (modules,)], run, env)
    return out.split()


@pytest.fixture(scope="module")
def with_sim(installed):
    """The same venv once `pip install 'WHEEL[sim]'` added the simulator's packages."""
    bin_, run, env, wheel = installed
    _run([str(bin_ / "python"), "-m", "pip", "install", "-q", "%s[sim]" % wheel], run, env)
    return bin_, run, env


def test_the_host_runs_from_any_folder_without_the_simulator(installed):
    bin_, run, env, _ = installed
    assert _importable(bin_, run, env, SIM_MODULES) == []
    assert "Table Clock TD host" in _run([str(bin_ / "tdhost"), "--help"], run, env)
    assert "deploy" in _run([str(bin_ / "tdhost"), "--help"], run, env)
    for cmd in (["tdhost", "serve", "--demo", "--port", "0"], ["tableclock-sim", "--help"]):
        r = subprocess.run([str(bin_ / cmd[0])] + cmd[1:], cwd=run, env=env,
                           capture_output=True, text=True, timeout=60)
        said = r.stdout + r.stderr
        assert r.returncode != 0 and len(said.strip().splitlines()) == 1, said
        assert "pip install 'tableclock-host[sim]'" in said and "Traceback" not in said, said
    where = _run([str(bin_ / "python"), "-c", "import tableclock, tcbox, tdhost, tcsim; print("
                  "tableclock.__file__, tcbox.__file__, tdhost.__file__, tcsim.__file__)"],
                 run, env)
    assert ROOT not in where and where.count(str(bin_.parent)) == 4, where
    assert os.listdir(run) == []


def test_a_td_starts_from_an_example_file(installed):
    bin_, run, env, _ = installed
    here = run.parent / "night"
    here.mkdir()
    assert "lppl  " in _run([str(bin_ / "tdhost"), "example"], here, env)
    out = _run([str(bin_ / "tdhost"), "example", "lppl"], here, env)
    assert out.startswith("Wrote lppl.toml: LivePubPokerLeague weekly game (profile lppl).")
    out = _run([str(bin_ / "tdhost"), "new", "lppl.toml", "--db", "monday.sqlite"], here, env)
    assert out.startswith("Tournament 1 of LPPL Lincolnshire")


def test_tdhost_deploy_puts_the_installed_firmware_on_a_drive(installed):
    bin_, run, env, _ = installed
    drive = run.parent / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.0.3 on 2025-10-17; Test board with ESP32S3\n"
        "Board ID:adafruit_feather_esp32s3_reverse_tft\n")
    for lib in ("adafruit_display_text", "adafruit_minimqtt"):
        (drive / "lib" / lib).mkdir(parents=True)
    out = _run([str(bin_ / "tdhost"), "deploy", str(drive)], run, env)
    assert "profile 'compact'" in out
    for rel in ("code.py", "boot.py", "safemode.py"):  # the board runs these by name
        with open(os.path.join(ROOT, "firmware", rel), "rb") as a:
            assert (drive / rel).read_bytes() == a.read(), rel
    for rel in ("tableclock/table", "tcbox/app"):  # CircuitPython 10.0's bytecode (docs/box.md)
        assert (drive / (rel + ".mpy")).read_bytes()[:2] == b"C\x06", rel
        assert not (drive / (rel + ".py")).exists(), rel
    assert not (drive / "tableclock" / "replay.py").exists()
    assert not (drive / "tableclock" / "replay.mpy").exists()
    req = re.search(r"circup install -r (\S+)", out).group(1)
    assert os.path.isfile(req) and str(bin_.parent) in req


def test_the_simulator_runs_with_the_extra_sim(with_sim):
    bin_, run, env = with_sim
    assert _importable(bin_, run, env, SIM_MODULES) == list(SIM_MODULES)
    assert "--board" in _run([str(bin_ / "tableclock-sim"), "--help"], run, env)


def test_serve_demo_runs_from_an_empty_folder(with_sim):
    bin_, run, env = with_sim
    proc = subprocess.Popen([str(bin_ / "tdhost"), "serve", "--demo", "--demo-speed", "20",
                             "--port", "0"], cwd=run, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("Ctrl-C stops" in x for x in lines):
            assert proc.poll() is None, "".join(lines)
            time.sleep(0.2)
        assert any(x.startswith("Demo: 20 players at tables 1-3") for x in lines), lines
        time.sleep(3)  # the room deals a few seconds
        assert proc.poll() is None, "".join(lines)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0, "".join(lines)
        reader.join(5)
        assert any(x.startswith("Stopped after ") for x in lines), lines
        assert not any("Traceback" in x for x in lines), "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
