"""The replay contract's command line: one JSON state line per event.

    python -m tableclock.replay FILE     (or ``-`` for standard input)
    micropython -m tableclock.replay FILE   (from firmware/, same output)

FILE is either a JSON object ``{"setup": {...}, "events": [...]}`` or JSON
lines: the setup on the first line, then one event per line.  With ``-`` the
setup is the first line of standard input and each later line is an event;
each state line is flushed as soon as the event is processed, so another
program can drive a table line by line.  A line that is not valid JSON, or an
event that is refused, gives the unchanged state with ``error`` set; the
replay never stops on bad input.  A bad setup prints ``{"error": ...}``: from
a file that ends the run (exit code 2); on standard input the next line is
tried as the setup.
"""

import gc
import json
import sys

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Iterable, List  # noqa: F401 (type comments)


# As the box does while it boots (tcbox/hardware.py BOOT_GC_BYTES): a collection every
# 2 KiB allocated, so the engine's code and the table do not land around garbage and
# leave the heap in small holes.  MicroPython's gc.threshold (CPython has none).  Bought
# (the 200-hand replay's smallest heap as .mpy, bench/README.md, issue #20): 8 KiB
# 99 -> 93 KiB; 2 KiB instead of 8 a further 78 -> 76 KiB (4 KiB: 77, 16 KiB: 78+), for
# about 10 % more time (1.0 -> 1.1 s on the unix port).
if hasattr(gc, "threshold"):
    gc.threshold(2048)

from .fields import SetupError
from .state import fill  # noqa: E402
from .table import Table, drop_setup_code  # noqa: E402 -- after the threshold: it loads the engine

_sep = "{"  # what _put writes before its key: "{" first, then ", "


def _put(key, value):
    """One key of the state and its value, written as they come (state.fill)."""
    global _sep
    sys.stdout.write(_sep)
    _sep = ", "
    sys.stdout.write('"')
    sys.stdout.write(key)  # the state's keys are plain names: nothing to escape
    sys.stdout.write('": ')
    json.dump(value, sys.stdout)


def _out_state(table):
    """The table's state as one JSON line, written key by key: the dict of the
    whole state is never built (issue #20: the 200-hand replay as .mpy 81 -> 78
    KiB).  On CPython the text is that of ``json.dump(table.state())``; on
    MicroPython the keys keep fill's order, where its dicts have none."""
    global _sep
    _sep = "{"
    fill(table, _put)
    sys.stdout.write("}\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def _out(obj):
    json.dump(obj, sys.stdout)  # streamed: no copy of the whole line
    sys.stdout.write("\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def _parse(line):
    try:
        return json.loads(line), None
    except Exception:  # ValueError; CPython RecursionError on deep nesting
        return None, "That line is not valid JSON"


def run_lines(lines, stop_on_bad_setup):  # type: (Iterable[str], bool) -> int
    """Feed setup + events from an iterator of text lines; returns an exit code."""
    table = None
    for line in lines:
        line = line.strip()
        if not line:
            continue
        obj, err = _parse(line)
        if table is None:
            if err is None:
                try:
                    table = Table(obj)
                    drop_setup_code()  # built once: tableclock/table.py
                    continue
                except SetupError as e:
                    err = "Bad setup: %s" % e
            _out({"error": err})
            if stop_on_bad_setup:
                return 2
            continue
        if err is None:
            table.handle(obj)
        else:
            table.error = err
        _out_state(table)
    if table is None:
        if stop_on_bad_setup:
            _out({"error": "No setup was given"})
        return 2
    return 0


def run_file(path):  # type: (str) -> int
    """Replay a file: a whole JSON object, or JSON lines read one at a time
    (a long session never has to fit in memory at once)."""
    with open(path) as f:
        first = f.readline()
        rest = f.readline()
        if first.strip()[:1] == "{" and rest.strip()[:1] not in ("{", ""):
            return _run_object(first + rest + f.read())
        if rest.strip() == "":
            obj = None
            try:
                obj = json.loads(first)
            except Exception:
                pass
            if isinstance(obj, dict) and "setup" in obj:
                return _run_object(first)
        return run_lines(_chain(first, rest, f), True)


def _chain(first, rest, f):
    yield first
    yield rest
    while True:
        line = f.readline()
        if not line:
            return
        yield line


def _run_object(text):
    try:
        obj = json.loads(text)
    except Exception:
        _out({"error": "The file is neither a JSON object nor JSON lines"})
        return 2
    if not isinstance(obj, dict) or "setup" not in obj:
        _out({"error": 'A scenario file needs "setup" and "events"'})
        return 2
    try:
        table = Table(obj["setup"])
    except SetupError as e:
        _out({"error": "Bad setup: %s" % e})
        return 2
    drop_setup_code()  # built once: tableclock/table.py
    events = obj.get("events", [])
    if not isinstance(events, list):
        _out({"error": "events must be a list"})
        return 2
    for ev in events:
        table.handle(ev)
        _out_state(table)
    return 0


def _stdin_lines():
    """Lines of standard input as text; bytes that are not UTF-8 make that
    line invalid instead of stopping the replay."""
    src = getattr(sys.stdin, "buffer", sys.stdin)
    while True:
        line = src.readline()
        if not line:
            return
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except Exception:  # UnicodeError
                line = "\x00"  # not JSON: reported as an invalid line
        yield line


def main(argv):  # type: (List[str]) -> int
    if len(argv) != 1:
        sys.stderr.write("usage: python -m tableclock.replay FILE|-\n")
        return 2
    if argv[0] == "-":
        return run_lines(_stdin_lines(), False)
    try:
        return run_file(argv[0])
    except OSError as e:
        sys.stderr.write("cannot read %s: %s\n" % (argv[0], getattr(e, "strerror", 0) or e))
        return 2
    except ValueError:  # UnicodeDecodeError: a binary file
        sys.stderr.write("cannot read %s: it is not UTF-8 text\n" % argv[0])
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
