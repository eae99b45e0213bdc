"""Run tests/core on a connected board, one test module per soft reset
(`make test-board PORT=... [CIRCUITPY=...]`): the device's counterpart of
tests/mpy_each.py, printing the same ``N passed, M failed`` lines.

    python tests/board_each.py --port /dev/ttyACM0 [--drive /media/$USER/CIRCUITPY]

The files go into ``tctest/`` on the board: firmware/'s packages, tests/core,
tests/mpy_runner.py and docs/examples.  With ``--drive`` (a CircuitPython
board: its filesystem is read-only to code while the computer mounts it) they
are copied onto the drive; without it they are written over the REPL (a
board whose code may write its flash).  Each module then runs in the board's
raw REPL after a soft reset (a fresh heap; CircuitPython does not run
code.py after a soft reset in the raw REPL).  mpremote (MicroPython's own
tool) drives the REPL: it is maintained, speaks the raw REPL and raw-paste
protocols both firmwares implement, and its transport is a library.

Refuses with one sentence and exit 2 when no port is given, nothing is
there, or nothing there answers as a Python REPL.  Exit 1 when a test failed.
"""

import argparse
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEST = "tctest"
MODULE_S = 600  # a module that prints nothing for this long has hung


def files(core):
    """(path on the board under tctest/, path here) of everything the tests need."""
    out = [("mpy_runner.py", os.path.join(HERE, "mpy_runner.py"))]
    for src, dst in ((os.path.join(ROOT, "firmware", "tableclock"), "firmware/tableclock"),
                     (os.path.join(ROOT, "firmware", "tcbox"), "firmware/tcbox"),
                     (core, "core"), (os.path.join(ROOT, "docs", "examples"), "docs/examples")):
        for name in sorted(os.listdir(src)):
            if name.endswith((".py", ".json")):
                out.append((dst + "/" + name, os.path.join(src, name)))
    return out


def modules(core):
    return sorted(f[:-3] for f in os.listdir(core)
                  if f.startswith("test_") and f.endswith(".py"))


def copy_to_drive(drive, todo, say):
    """Copy onto the mounted drive, skipping files already the same."""
    need = sum(os.path.getsize(src) for _, src in todo)
    free = shutil.disk_usage(drive).free
    n = 0
    for rel, src in todo:
        dst = os.path.join(drive, DEST, *rel.split("/"))
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        elif need > free:
            raise OSError("the drive has %d bytes free, the tests need up to %d" % (free, need))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        n += 1
    if hasattr(os, "sync"):
        os.sync()
    say("copied %d of %d files to %s" % (n, len(todo), os.path.join(drive, DEST)))


def copy_over_repl(t, todo, say):
    """Write the files with the REPL (mpremote's fs_mkdir / fs_writefile)."""
    made = set()
    for rel, src in todo:
        parts = (DEST + "/" + rel).split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in made:
                made.add(d)
                if not t.fs_exists(d):
                    t.fs_mkdir(d)
        with open(src, "rb") as f:
            t.fs_writefile(DEST + "/" + rel, f.read(), chunk_size=1024)
    say("wrote %d files to %s/ over the REPL" % (len(todo), DEST))


RUN = """import os, sys
os.chdir(%r)
for p in ("firmware", "."):
    if p not in sys.path:
        sys.path.insert(0, p)
import mpy_runner
mpy_runner.main(["core", "-m", %r])
"""


def main(argv=None, say=print):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", default="", help="the board's serial console port")
    ap.add_argument("--drive", default="", help="its mounted CIRCUITPY drive (CircuitPython)")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("-k", dest="only", default=None, help="only modules containing this")
    ap.add_argument("--core", default=os.path.join(HERE, "core"), help="the test modules")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="seconds for the board's REPL to answer")
    a = ap.parse_args(argv)
    if not a.port:
        say("test-board: no board named: give PORT=/dev/ttyACM0 (the board's console port;"
            " `tdhost boxes` lists them), and CIRCUITPY=DRIVE for a CircuitPython board")
        return 2
    if a.drive and not os.path.isdir(a.drive):
        say("test-board: CIRCUITPY=%s is not a directory: is the board's drive mounted?"
            % a.drive)
        return 2
    from mpremote.transport import TransportError, TransportExecError
    from mpremote.transport_serial import SerialTransport

    try:
        # a read timeout: mpremote reads a pty one blocking byte at a time, and a port
        # where nothing answers must end in a refusal, not a wait for ever (--timeout: a
        # fixed 2 s failed the simulated board's copy on a machine at a load of 9)
        t = SerialTransport(a.port, baudrate=a.baud, timeout=a.timeout)
    except (TransportError, OSError) as e:
        say("test-board: no board on %s (%s)" % (a.port, e))
        return 2
    try:
        try:
            t.enter_raw_repl(soft_reset=True, timeout_overall=a.timeout)
        except TransportError:
            say("test-board: %s answers, but not as a Python REPL: is it the board's console"
                " port (not its data port)?" % a.port)
            return 2
        todo = files(a.core)
        try:
            if a.drive:
                copy_to_drive(a.drive, todo, say)
            else:
                copy_over_repl(t, todo, say)
        except (OSError, TransportExecError) as e:
            say("test-board: cannot put the tests on the board (%s)%s" % (e, "" if a.drive else
                ": a CircuitPython board's flash is read-only to code while the computer"
                " mounts its drive; give CIRCUITPY=/path/to/CIRCUITPY"))
            return 2
        return run_all(t, modules(a.core), a.only, a.port, say)
    finally:
        try:
            t.exit_raw_repl()
        except Exception:  # noqa: BLE001 -- a board that went away: nothing to leave
            pass
        t.close()


def run_all(t, mods, only, port, say):
    from mpremote.transport import TransportError

    mods = [m for m in mods if only is None or only in m]
    passed = failed = 0
    for m in mods:
        try:
            t.enter_raw_repl(soft_reset=True, timeout_overall=20)
            out, err = t.exec_raw(RUN % (DEST, m), timeout=MODULE_S)
        except TransportError as e:
            say("%s: the board stopped answering (%s)" % (m, e))
            failed += 1
            continue
        text = out.decode("utf-8", "replace").replace("\r\n", "\n")
        got = re.findall(r"^(\d+) passed, (\d+) failed$", text, re.M)
        if not got:
            say("%s: no result\n%s%s" % (m, text[-2000:], err.decode("utf-8", "replace")[-2000:]))
            failed += 1
            continue
        np_, nf = int(got[-1][0]), int(got[-1][1])
        passed += np_
        failed += nf
        say("%-28s %3d passed, %d failed" % (m, np_, nf))
        if nf or err:
            say(text[-3000:] + err.decode("utf-8", "replace")[-2000:])
    say("board on %s: %d modules, each after a soft reset; the tests stay in %s/ (delete it"
        " to free the space); press reset to start the table" % (port, len(mods), DEST))
    say("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
