"""tableclock-sim: the box's firmware on the desktop, headless (a script of presses, ticks,
events and instructions; a PNG and a JSON of what shows after each line) or in a window.

    python -m tcsim --board compact --setup SETUP.json --script FILE --out DIR
    python -m tcsim --board table --setup SETUP.json --window      # pygame (tcsim/window.py)

The script's lines and the files written: docs/simulator.md, "Scripts (headless)".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

from tableclock.fields import Refused, SetupError, check_whole
from tableclock.table import Table

try:
    from .driver import Dealer, DriverError
    from .sim import Sim, board_names, world as _world
except ImportError as err:  # installed without the extra `sim` (pyproject.toml): main says so
    MISSING = err.name or "a package it uses"
else:
    MISSING = ""

Line = Dict[str, Any]  # one script line (docs/simulator.md, "Scripts (headless)")


class InputError(ValueError):
    """A setup, script or argument the simulator cannot use: one sentence."""


def _text(path: str, what: str) -> str:
    try:
        with open(path, "rb") as src:
            raw = src.read()
    except OSError as e:
        raise InputError("the %s file %s cannot be read: %s" % (what, path, e.strerror or e))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the %s file %s is not UTF-8 text" % (what, path))


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:  # JSONDecodeError
        raise InputError("%s is not valid JSON: %s" % (where, e))
    except RecursionError:
        raise InputError("%s is nested too deeply to be a setup or a line" % where)


def load_setup(path: str) -> Tuple[Dict[str, Any], Optional[List[Line]]]:
    """(setup, events or None) from a setup or scenario file; InputError when the
    file is missing, not JSON or not a setup the box takes (one sentence)."""
    obj = _json(_text(path, "setup"), "the setup file %s" % path)
    events = None
    if isinstance(obj, dict) and "setup" in obj:
        obj, events = obj["setup"], obj.get("events")
        if events is not None and (not isinstance(events, list) or not all(
                isinstance(event, dict) for event in events)):
            raise InputError("the setup file %s: \"events\" must be a list of objects" % path)
        for i, ev in enumerate(events or ()):
            _check_line(ev, "the setup file %s: event %d" % (path, i + 1))
    if not isinstance(obj, dict):
        raise InputError("the setup file %s must hold a JSON object (the replay contract's "
                         "setup, docs/replay.md)" % path)
    try:
        Table(obj)
    except SetupError as event:
        raise InputError("the setup file %s: %s" % (path, str(event).rstrip(".")))
    return obj, events


def read_script(path: str) -> List[Line]:
    """The script's lines as dicts (with "#" comments and blanks skipped); InputError
    naming FILE:LINE for one that is not a line the simulator can play."""
    out = []
    for n, raw in enumerate(_text(path, "script").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = "%s:%d" % (path, n)
        obj = _json(text, where)
        if not isinstance(obj, dict):
            raise InputError("%s: a line must be a JSON object" % where)
        _check_line(obj, where)
        out.append(obj)
    return out


_NAMES = {"press": str, "menu": str, "shot": str, "info": dict, "instruct": dict}


def _check_line(obj: Any, where: str) -> None:
    """The types of a script line's keys (the module docstring): whole numbers for
    amounts, seats and key times, a finite tick."""
    for k, typ in _NAMES.items():
        if k in obj and not isinstance(obj[k], typ):
            raise InputError("%s: \"%s\" must be %s" % (
                where, k, "text" if typ is str else "an object"))
    ms = obj.get("ms", 80)
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 < ms <= 60000:
        raise InputError("%s: \"ms\" must be a whole number of milliseconds from 1 to "
                         "60000, not %s" % (where, json.dumps(ms)))
    if "tick" in obj:
        tick = obj["tick"]
        if isinstance(tick, bool) or not isinstance(tick, (int, float)) or not 0 <= tick <= 86400:
            raise InputError("%s: \"tick\" must be seconds from 0 to 86400, not %s"
                             % (where, json.dumps(tick)))
    if "do" in obj or "menu" in obj:
        try:
            check_whole(obj)
        except Refused as e:
            raise InputError("%s: %s" % (where, e))


def play_line(sim: Sim, dealer: Dealer, line: Line) -> Dict[str, Any]:
    """Run one script line on *sim*; returns what was done."""
    if "info" in line:
        sim.box.info.update(line["info"] or {})
        sim.box.dirty = True
        sim.step()
    if "instruct" in line:
        sim.box.instruct(line["instruct"])
        sim.step()
    if line.get("confirm"):
        return {"presses": dealer.confirm(), "via": "keys"}
    if "press" in line:
        ms = int(line.get("ms", 80))
        sim.press(line["press"], ms)
        return {"presses": [[line["press"], "long" if ms >= 500 else "short"]], "via": "keys"}
    if "tick" in line:
        sim.tick(float(line["tick"]))
        return {"presses": [], "via": "clock"}
    if "do" in line:
        return dealer.do(line)
    if "menu" in line:
        log = dealer.goto(line["menu"], seat=line.get("seat"), to=line.get("to"))
        return {"presses": log, "via": "keys"}
    return {"presses": [], "via": None}


def record(sim: Sim, out: str, n: int, line: Optional[Line], done: Dict[str, Any],
           tones_from: int, zoom: int = 1) -> Dict[str, Any]:
    """Write NNN.png and NNN.json for the screen as it is now."""
    snap = sim.snapshot()
    tones = [list(tone) for tone in _world.tones[tones_from:]]
    doc = {"n": n, "line": line, "presses": done.get("presses", []), "via": done.get("via"),
           "ms": _world.now_ms, "tones": tones, "texts": snap["texts"], "leds": snap["leds"],
           "state": snap["state"]}
    base = os.path.join(out, "%03d" % n)
    sim.save_png(base + ".png", zoom)
    with open(base + ".json", "w") as out_file:
        json.dump(doc, out_file, indent=1, sort_keys=True)
        out_file.write("\n")
    return doc


def run(board: str, setup: Dict[str, Any], lines: List[Line], out: Optional[str] = None,
        shots: Optional[str] = None, engine: str = "app", zoom: int = 1,
        quiet: bool = True) -> List[Dict[str, Any]]:
    """Play *lines* on a new Sim; returns the list of per-line records."""
    sim = Sim(board, setup, engine=engine)
    dealer = Dealer(sim)
    if out:
        os.makedirs(out, exist_ok=True)
    if shots:
        os.makedirs(shots, exist_ok=True)
    docs = []
    tones_at = len(_world.tones)
    done: Dict[str, Any] = {"presses": [], "via": None}
    for n in range(len(lines) + 1):
        line = lines[n - 1] if n else None
        if n:
            done = play_line(sim, dealer, lines[n - 1])
        if out:
            docs.append(record(sim, out, n, line, done, tones_at, zoom))
        else:
            docs.append(dict(sim.snapshot(), line=line, presses=done["presses"], via=done["via"]))
        tones_at = len(_world.tones)
        if line and line.get("shot") and shots:
            sim.save_png(os.path.join(shots, "%s-%s.png" % (board, line["shot"])), zoom)
        if not quiet:
            st = sim.state()
            print("%03d %-40s %-5s %s" % (n, json.dumps(line)[:40] if line else "(power-up)",
                                          done["via"] or "", st["error"] or st["last"] or ""))
    return docs


def main(argv: Optional[List[str]] = None) -> int:
    """The command line; bad input gives one line on stderr and exit code 2."""
    if MISSING:
        sys.stderr.write("tableclock-sim: the simulator needs %s, which is not installed:"
                         " pip install 'tableclock-host[sim]' adds it.\n" % MISSING)
        return 2
    try:
        return _main(argv)
    except InputError as e:
        sys.stderr.write("tableclock-sim: %s.\n" % str(e).rstrip("."))
        return 2


def _main(argv: Optional[List[str]] = None) -> Any:
    ap = argparse.ArgumentParser(prog="tableclock-sim", description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="compact",
                    help="board profile (--list-boards); all: every board (--out DIR/BOARD)")
    ap.add_argument("--setup", help="setup JSON (or a scenario with events)")
    ap.add_argument("--script", help="JSON-lines script (default: the scenario's events)")
    ap.add_argument("--out", help="directory for NNN.png and NNN.json")
    ap.add_argument("--shots", help="directory for the lines' named screenshots")
    ap.add_argument("--zoom", type=int, default=1, help="PNG enlargement (nearest pixel)")
    ap.add_argument("--engine", choices=("loop", "app"), default="app",
                    help="the simulator's loop, or tcbox.app.App")
    ap.add_argument("--window", action="store_true", help="interactive pygame window")
    ap.add_argument("--list-boards", action="store_true", help="list the board profiles")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per script line")
    a = ap.parse_args(argv)
    if a.list_boards:
        from tcbox.boards import BOARDS

        for name in board_names():
            profile = BOARDS[name]
            display = profile["display"]
            extra = []
            if profile.get("ring"):
                extra.append("%d-pixel seat ring" % profile["ring"]["pixels"])
            if profile.get("buzzer"):
                extra.append("buzzer")
            print("%-8s %dx%d  keys: %s%s  (%s)" % (
                name, display["width"], display["height"],
                " ".join(k["role"] for k in profile["keys"]),
                "; " + ", ".join(extra) if extra else "", profile["name"]))
        return 0
    if not a.setup:
        ap.error("--setup is required")
    if a.board != "all" and a.board not in board_names():
        raise InputError("there is no board %r: give one of %s (--list-boards)"
                         % (a.board, ", ".join(board_names())))
    if a.zoom < 1 or a.zoom > 16:
        raise InputError("--zoom must be from 1 to 16, not %d" % a.zoom)
    setup, events = load_setup(a.setup)
    if a.window:
        from .window import run_window

        return run_window(a.board, setup, engine=a.engine)
    if a.script:
        lines = read_script(a.script)
    elif events is not None:
        lines = events
    else:
        lines = []
    if not a.out and not a.shots:
        ap.error("--out (or --shots) is required without --window")
    boards = board_names() if a.board == "all" else [a.board]
    for board_name in boards:
        out = os.path.join(a.out, board_name) if a.out and len(boards) > 1 else a.out
        try:
            run(board_name, setup, lines, out=out, shots=a.shots, engine=a.engine, zoom=a.zoom,
                quiet=not a.verbose)
        except (DriverError, ValueError) as e:  # a key the board lacks, a menu it cannot open
            raise InputError("the %s board cannot play the script: %s" % (board_name, e))
        except OSError as e:
            raise InputError("cannot write %s: %s" % (e.filename or out, e.strerror or e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
