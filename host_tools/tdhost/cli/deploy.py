"""Copy the box firmware onto a CircuitPython drive: ``tdhost deploy DRIVE`` from the installed
package, ``make deploy CIRCUITPY=DRIVE`` from the work tree (``python3 -m tdhost.cli.deploy``:
standard library only).  The packages first, ``code.py`` last, as ``.py``; same bytes left
alone, stale modules removed; nothing copied to a drive that does not look ready unless
``--force``.  docs/box.md "Installing the firmware".
"""

import argparse
import os
import runpy
import shutil
import sys
from typing import IO, Any

# site-packages (the wheel) or host_tools/ (the work tree): above tdhost/cli/
SITE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


class Firmware:
    """Where the firmware's files are: *top* holds ``code.py``, ``boot.py``, ``safemode.py``
    and ``requirements.txt``, *packages* the folders ``tableclock/`` and ``tcbox/``."""

    def __init__(self, top: str, packages: str | None = None) -> None:
        self.top = top
        self.packages = packages or top

    def path(self, rel: str) -> str:
        """The file of *rel* (a drive path with ``/``)."""
        parts = rel.split("/")
        return os.path.join(self.packages if parts[0] in PACKAGES else self.top, *parts)

    def requirements(self) -> str:
        """requirements.txt as the TD types it: relative to here when below it."""
        path = os.path.join(self.top, "requirements.txt")
        rel = os.path.relpath(path)
        return path if rel.startswith("..") else rel.replace(os.sep, "/")


def find() -> Firmware:
    """The firmware of the work tree this module runs from (``firmware/``), else the one
    installed beside it: ``tcfirmware/`` with ``tableclock/`` and ``tcbox/`` (the wheel)."""
    tree = os.path.join(os.path.dirname(SITE), "firmware")
    if os.path.isfile(os.path.join(tree, "tcbox", "boards.py")):
        return Firmware(tree)
    return Firmware(os.path.join(SITE, "tcfirmware"), SITE)


def _firmware(src: "Firmware | str | None") -> Firmware:
    if src is None:
        return find()
    return src if isinstance(src, Firmware) else Firmware(src)


def plan(src: "Firmware | str | None" = None) -> tuple[list[str], list[str]]:
    """``(files, skipped)``: the paths (relative, with ``/``) to copy, in copy order, and the
    host-only ones left out."""
    fw = _firmware(src)
    files: list[str] = []
    skipped: list[str] = []
    for pkg in PACKAGES:
        for dirpath, dirs, names in os.walk(fw.path(pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), fw.packages)
                rel = rel.replace(os.sep, "/")
                (skipped if rel in HOST_ONLY else files).append(rel)
    for name in TOP:
        if not os.path.isfile(fw.path(name)):
            raise FileNotFoundError("firmware file missing: %s" % fw.path(name))
        files.append(name)
    return files, skipped


def boards(src: "Firmware | str | None" = None) -> dict[str, Any]:
    """``BOARDS`` of ``tcbox/boards.py``, read as data (no hardware imports; the host never
    imports tcbox)."""
    return runpy.run_path(_firmware(src).path("tcbox/boards.py"))["BOARDS"]


def libraries(profile: dict[str, Any]) -> list[str]:
    """The Adafruit libraries the firmware imports on a board with *profile*."""
    out = list(ALWAYS)
    lib = DISPLAY_LIBS.get(profile["display"]["driver"])
    if lib:
        out.append(lib)
    if profile["ring"]:
        out.append(RING_LIB)
    return out


def read_boot_out(drive: str) -> tuple[str, str | None] | None:
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


def has_library(drive: str, name: str) -> bool:
    """Is library *name* on the drive (``lib/`` or the root; a package, .mpy or .py)?"""
    for base in (os.path.join(drive, "lib"), drive):
        path = os.path.join(base, name)
        if os.path.isdir(path) or os.path.isfile(path + ".mpy") or os.path.isfile(path + ".py"):
            return True
    return False


def check(drive: str, src: "Firmware | str | None" = None,
          again: str = "make deploy") -> tuple[list[str], list[str]]:
    """``(notes, problems)`` about *drive*: lines to print, and reasons to stop without
    ``--force``; *again*: the command to run once the drive is ready."""
    fw = _firmware(src)
    notes: list[str] = []
    problems: list[str] = []
    boot = read_boot_out(drive)
    if boot is None:
        problems.append("%s has no boot_out.txt: it does not look like a CircuitPython drive "
                        "(CIRCUITPY)" % drive)
        return notes, problems
    first, board_id = boot
    notes.append("drive: %s" % (first or "boot_out.txt is empty"))
    byid = {}
    for name, profile in boards(fw).items():
        byid[profile["board_id"]] = (name, profile)
    if board_id is None:  # an old boot_out.txt: check what every board needs
        notes.append("boot_out.txt names no board id: checking the libraries every build needs")
        common: set[str] | None = None
        for _name, profile in byid.values():
            libs = set(libraries(profile))
            common = libs if common is None else common & libs
        need = sorted(common or ())
    elif board_id not in byid:
        problems.append("board %s has no profile in firmware/tcbox/boards.py: the firmware "
                        "would stop at start-up and reset the board over and over" % board_id)
        return notes, problems
    else:
        name, profile = byid[board_id]
        notes.append("board: %s (profile %r)" % (board_id, name))
        need = libraries(profile)
    missing = [lib for lib in need if not has_library(drive, lib)]
    if missing:
        problems.append(
            "the drive has no %s in lib/: code.py would fail to import it and reset the board "
            "over and over. Install the libraries first:\n"
            "    circup --path %s install -r %s\n"
            "then run %s again" % (", ".join(missing), drive, fw.requirements(), again))
    return notes, problems


def _same(source: str, target: str) -> bool:
    if not os.path.isfile(target) or os.path.getsize(source) != os.path.getsize(target):
        return False
    with open(source, "rb") as fa, open(target, "rb") as fb:
        return fa.read() == fb.read()


def stale(drive: str, files: list[str]) -> list[str]:
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


def deploy(drive: str, src: "Firmware | str | None" = None,
           out: IO[str] | None = None) -> tuple[list[str], list[str], list[str]]:
    """Copy the firmware from *src* to *drive*; return ``(copied, unchanged, removed)``."""
    out = out or sys.stdout
    fw = _firmware(src)
    files, skipped = plan(fw)
    todo = [rel for rel in files if not _same(fw.path(rel), os.path.join(drive, rel))]
    need = 0
    for rel in todo:
        dst = os.path.join(drive, rel)
        need += os.path.getsize(fw.path(rel))
        if os.path.isfile(dst):
            need -= os.path.getsize(dst)
    free = shutil.disk_usage(drive).free
    if need > free:
        raise OSError("the drive has %d bytes free, the firmware needs %d more: nothing copied"
                      % (free, need))
    copied: list[str] = []
    unchanged: list[str] = []
    for rel in files:
        dst = os.path.join(drive, rel)
        if rel in todo:
            os.makedirs(os.path.dirname(dst) or drive, exist_ok=True)
            shutil.copyfile(fw.path(rel), dst)  # contents only: no metadata on FAT
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


MAKE = "make deploy"
TDHOST = "tdhost deploy"


def run(drive: str, force: bool = False, out: IO[str] | None = None,
        err: IO[str] | None = None, src: "Firmware | str | None" = None, how: str = MAKE) -> int:
    """Check *drive*, then copy the firmware (module notes); the exit status. *how*: the
    command the TD typed (``MAKE`` or ``TDHOST``), which the advice names."""
    out = out or sys.stdout
    err = err or sys.stderr
    fw = _firmware(src)
    if not drive:
        if how == MAKE:
            print("deploy: CIRCUITPY is not set. Name the box's mounted drive, e.g.\n"
                  "    make deploy CIRCUITPY=/media/$USER/CIRCUITPY   (macOS: /Volumes/CIRCUITPY)",
                  file=err)
        else:
            print("deploy: no drive given. Name the box's mounted drive, e.g.\n"
                  "    tdhost deploy /media/$USER/CIRCUITPY   (macOS: /Volumes/CIRCUITPY)",
                  file=err)
        return 2
    if not os.path.isdir(drive):
        print("deploy: %s%s is not a directory: is the box plugged in and its drive "
              "mounted?" % ("CIRCUITPY=" if how == MAKE else "", drive), file=err)
        return 2
    notes, problems = check(drive, fw, how)
    for note in notes:
        print("deploy: %s" % note, file=out)
    for problem in problems:
        print("deploy: warning: %s" % problem, file=err)
    if problems and not force:
        print("deploy: nothing copied. %s copies anyway."
              % ("FORCE=1 (--force)" if how == MAKE else "--force"), file=err)
        return 1
    try:
        copied, unchanged, removed = deploy(drive, fw, out)
    except OSError as error:
        print("deploy: copy failed: %s" % error, file=err)
        return 1
    print("deploy: %d copied, %d unchanged, %d removed on %s"
          % (len(copied), len(unchanged), len(removed), drive), file=out)
    req = fw.requirements()
    print("\nNext:\n"
          "  1. the Adafruit libraries the firmware imports (install or update):\n"
          "         circup install -r %s\n"
          "     (circup --path %s install -r %s if circup does not find the drive)\n"
          "  2. press the box's reset button: auto-reload is off while the firmware runs,\n"
          "     and boot.py (the USB set-up) only runs at a reset."
          % (req, drive, req), file=out)
    return 0


def main(argv: list[str] | None = None, out: IO[str] | None = None,
         err: IO[str] | None = None, src: "Firmware | str | None" = None) -> int:
    """``make deploy`` (``python3 -m tdhost.cli.deploy DRIVE [--force]``)."""
    ap = argparse.ArgumentParser(
        prog=MAKE, description="Copy the box firmware onto a CircuitPython drive.")
    ap.add_argument("drive", nargs="?", default=os.environ.get("CIRCUITPY", ""),
                    help="the mounted CIRCUITPY drive (default: $CIRCUITPY)")
    ap.add_argument("--force", action="store_true",
                    help="copy even when the drive does not look ready (make deploy FORCE=1)")
    args = ap.parse_args(argv)
    return run(args.drive, args.force, out, err, src, MAKE)


if __name__ == "__main__":
    sys.exit(main())
