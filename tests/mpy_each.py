"""Run tests/core under the MicroPython unix port, one test module per
process, each with the same bounded heap (`make test-mpy`).

A board's heap is small and a long-running interpreter fragments it; giving
every test module a fresh heap of the size we claim (-X heapsize) measures
each one against that bound instead of against whatever the modules before
it left behind.  Prints each module's result and, last, the totals as
``N passed, M failed``; exits 1 if anything failed or nothing ran.

    python tests/mpy_each.py --micropython .venv/bin/micropython --heapsize 256K
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=os.path.join(ROOT, ".venv", "bin", "micropython"))
    ap.add_argument("--heapsize", default="256K")
    ap.add_argument("--dir", default=os.path.join(HERE, "core"))
    a = ap.parse_args(argv)
    # Paths relative to the repository: the heap a module needs must not depend
    # on where the clone lives (its path's length changes every allocation).
    rel = os.path.relpath(a.dir, ROOT)
    env = dict(os.environ, MICROPYPATH="firmware:" + rel)
    mods = sorted(f[:-3] for f in os.listdir(a.dir) if f.startswith("test_") and f.endswith(".py"))
    passed = failed = 0
    for m in mods:
        p = subprocess.run([a.micropython, "-X", "heapsize=" + a.heapsize,
                            os.path.join("tests", "mpy_runner.py"), rel, "-m", m],
                           env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
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


if __name__ == "__main__":
    sys.exit(main())
