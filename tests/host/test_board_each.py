"""`make test-board` (tests/board_each.py) against a board simulated on a pty
(tests/host/fakeboard.py: the raw REPL in front of the MicroPython unix port):
the files copied to its drive or over its REPL, one module per soft reset, the
same `N passed, M failed` lines as test-mpy, and clear refusals with no board."""

import os
import subprocess
import sys
import tty

from fakeboard import FakeBoard

import board_each

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _core(tmp_path):
    """Two test modules: one passes twice (and uses the firmware), one fails once."""
    core = tmp_path / "core"
    core.mkdir()
    (core / "test_good.py").write_text(
        "from tcbox.boards import BOARDS\n\n"
        "def test_boards():\n    assert BOARDS['table']['selftest'] == 'menu'\n\n"
        "def test_examples_are_there():\n    import os\n"
        "    assert 'lppl_away_seat.json' in os.listdir('docs/examples')\n")
    (core / "test_bad.py").write_text("def test_sum():\n    assert 1 + 1 == 3, 'one plus one'\n")
    return str(core)


def _run(argv):
    out = []
    code = board_each.main(argv, say=out.append)
    return code, "\n".join(out)


def test_runs_each_module_on_the_board_from_its_drive(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    fake = FakeBoard(str(drive))
    try:
        code, out = _run(["--port", fake.name, "--drive", str(drive), "--core", _core(tmp_path)])
    finally:
        fake.close()
    assert code == 1, out
    lines = out.splitlines()
    assert lines[-1] == "2 passed, 1 failed"
    assert any(x.split() == ["test_bad", "0", "passed,", "1", "failed"] for x in lines)
    assert any(x.split() == ["test_good", "2", "passed,", "0", "failed"] for x in lines)
    assert "AssertionError: one plus one" in out
    assert (drive / "tctest" / "firmware" / "tcbox" / "selftest.py").is_file()
    assert fake.resets == 3  # one soft reset to start, then one per module: a fresh heap each


def test_copies_over_the_repl_without_a_drive(tmp_path):
    board_fs = tmp_path / "flash"
    board_fs.mkdir()
    fake = FakeBoard(str(board_fs))
    try:
        code, out = _run(["--port", fake.name, "--core", _core(tmp_path), "-k", "good"])
    finally:
        fake.close()
    assert code == 0, out
    assert out.splitlines()[-1] == "2 passed, 0 failed"
    src = os.path.join(ROOT, "firmware", "tableclock", "record.py")
    with open(src, "rb") as f:
        assert (board_fs / "tctest" / "firmware" / "tableclock" / "record.py").read_bytes() == \
            f.read()


def test_the_real_core_tests_pass_on_the_simulated_board(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    fake = FakeBoard(str(drive))
    try:
        code, out = _run(["--port", fake.name, "--drive", str(drive), "-k", "boards"])
    finally:
        fake.close()
    assert code == 0, out
    assert out.splitlines()[-1].endswith(" passed, 0 failed")


def test_refuses_with_no_port_no_board_or_no_repl(tmp_path):
    code, out = _run([])
    assert code == 2 and out.startswith("test-board: no board named: give PORT=")
    code, out = _run(["--port", str(tmp_path / "ttyACM7")])
    assert code == 2 and out.startswith("test-board: no board on %s" % (tmp_path / "ttyACM7"))
    master, slave = os.openpty()  # a port where nothing answers
    tty.setraw(slave)
    try:
        code, out = _run(["--port", os.ttyname(slave), "--timeout", "1"])
    finally:
        os.close(master)
        os.close(slave)
    assert code == 2 and "answers, but not as a Python REPL" in out


def test_make_test_board_without_port_refuses():
    p = subprocess.run(["make", "-s", "test-board"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PORT=""))
    assert p.returncode != 0
    assert "test-board: no board named: give PORT=" in p.stdout + p.stderr
    assert sys.executable  # the Makefile uses .venv's python, as every target
