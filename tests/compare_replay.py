"""Replay every docs/examples/*.json under MicroPython and CPython and compare the output.

Both runs are `python -m tableclock.replay ../docs/examples/X.json` from inside firmware/, the
MicroPython one with a board-sized heap. Each non-empty output line is parsed as JSON and the two
sequences must be equal (floats within 1e-9 relative), as must the exit statuses.

    python tests/compare_replay.py [--micropython PATH] [--heapsize 256K] [FILE.json ...]

Prints one line per example and a final `N passed, M failed`; exits 1 on any difference.
With no examples yet it says so and exits 0 (nothing to compare is not a failure of the core).
CPython only (subprocess, json, pathlib).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
EXAMPLES = ROOT / "docs" / "examples"
TIMEOUT_S = 300


def run(cmd: list[str]) -> tuple[int, str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = "."  # cwd: the heap used must not depend on where the clone lives
    env["PYTHONPATH"] = str(FIRMWARE)
    try:
        p = subprocess.run(
            cmd, cwd=FIRMWARE, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % TIMEOUT_S
    return p.returncode, p.stdout, p.stderr


def parse_lines(out: str) -> list[object]:
    rows = []
    for n, line in enumerate(out.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError as e:
            raise ValueError("output line %d is not JSON (%s): %.200s" % (n, e, line)) from e
    return rows


def diff(a: object, b: object, path: str = "$") -> str | None:
    """First difference between two parsed JSON values, or None when equal."""
    if isinstance(a, bool) or isinstance(b, bool):
        return None if a is b else "%s: %r != %r" % (path, a, b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a == b:
            return None
        if isinstance(a, float) or isinstance(b, float):
            if math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
                return None
        return "%s: %r != %r" % (path, a, b)
    if type(a) is not type(b):
        return "%s: %r != %r" % (path, a, b)
    if isinstance(a, dict):
        assert isinstance(b, dict)
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s: key %r only on %s" % (path, k, "CPython" if k in a else "MicroPython")
            d = diff(a[k], b[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        assert isinstance(b, list)
        if len(a) != len(b):
            return "%s: length %d != %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %r != %r" % (path, a, b)


def compare(example: Path, micropython: str, heapsize: str) -> str | None:
    rel = os.path.relpath(example, FIRMWARE)
    c_rc, c_out, c_err = run([sys.executable, "-m", "tableclock.replay", rel])
    m_rc, m_out, m_err = run([micropython, "-X", "heapsize=" + heapsize, "-m",
                              "tableclock.replay", rel])
    if c_rc != m_rc:
        return "exit status CPython %d, MicroPython %d\n  CPython stderr: %s\n  MicroPython " \
               "stderr: %s" % (c_rc, m_rc, c_err.strip()[-800:], m_err.strip()[-800:])
    try:
        c_rows = parse_lines(c_out)
    except ValueError as e:
        return "CPython: %s" % e
    try:
        m_rows = parse_lines(m_out)
    except ValueError as e:
        return "MicroPython: %s\n  stderr: %s" % (e, m_err.strip()[-800:])
    if not c_rows:
        return "CPython printed no JSON lines (exit %d)\n  stderr: %s" % (
            c_rc, c_err.strip()[-800:])
    for i, (c, m) in enumerate(zip(c_rows, m_rows), 1):
        d = diff(c, m)
        if d:
            return "line %d differs: %s (left CPython, right MicroPython)" % (i, d)
    if len(c_rows) != len(m_rows):
        return "CPython printed %d lines, MicroPython %d\n  MicroPython stderr: %s" % (
            len(c_rows), len(m_rows), m_err.strip()[-800:])
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=str(ROOT / ".venv" / "bin" / "micropython"))
    ap.add_argument("--heapsize", default="256K")  # the Makefile's MPY_HEAP
    ap.add_argument("examples", nargs="*", type=Path)
    args = ap.parse_args()
    if os.sep in args.micropython:  # the runs happen inside firmware/: make the path absolute
        args.micropython = os.path.abspath(args.micropython)

    examples = [p.resolve() for p in args.examples] or sorted(EXAMPLES.glob("*.json"))
    if not examples:
        print("compare_replay: skipped -- no docs/examples/*.json yet, nothing to compare")
        return 0
    if not (FIRMWARE / "tableclock" / "replay.py").exists():
        print("compare_replay: firmware/tableclock/replay.py is missing")
        print("0 passed, %d failed" % len(examples))
        return 1

    passed = failed = 0
    for ex in examples:
        problem = compare(ex, args.micropython, args.heapsize)
        name = os.path.relpath(ex, ROOT)
        if problem:
            failed += 1
            print("DIFF %s: %s" % (name, problem))
        else:
            passed += 1
            print("same %s" % name)
    print("replay CPython vs MicroPython (heap %s):" % args.heapsize)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
