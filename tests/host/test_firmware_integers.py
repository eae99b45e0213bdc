"""Milliseconds and chips are integers everywhere in the firmware (issue 13, defect 5).

CircuitPython's floats are 30-bit on the boards: ``int(s * 1000 + 0.5)`` turned whole-second
ticks above 8,388 s into times up to 224 ms wrong.  This check reads every firmware module's
syntax tree and fails on the float arithmetic that caused it: a float literal, a true division
``/``, ``float(...)``, ``round(...)`` or ``time.monotonic``.  A line that must hand a float to a
library (a socket timeout in seconds, a label's anchor point) says so with ``# float: <why>``.
Whole seconds given as JSON floats are converted by ``tableclock.fields.ms_of`` without a float
literal.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
PRAGMA = "# float:"
# display code: displayio takes its anchor points and line spacing as floats
DISPLAY = ("tcbox/screen.py", "tcbox/widgets.py")


def _modules():
    for root, _dirs, files in os.walk(FIRMWARE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(root, f)


def floats_in(source, name="<source>"):
    """``[(line, what)]`` for each float operation in *source* not marked ``# float: why``."""
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source, name)):
        what = None
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            what = "float literal %r" % node.value
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            what = "true division /"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("float", "round"):
            what = "%s()" % node.func.id
        elif isinstance(node, ast.Attribute) and node.attr in ("monotonic", "time") and \
                isinstance(node.value, ast.Name) and node.value.id == "time":
            what = "time.%s (a float clock)" % node.attr
        if what is None:
            continue
        text = lines[node.lineno - 1]
        i = text.find(PRAGMA)
        if i >= 0 and text[i + len(PRAGMA):].strip():
            continue
        out.append((node.lineno, what))
    return out


def test_the_check_finds_the_old_tick():
    # the expression that made the 30-bit floats lose up to 224 ms
    assert floats_in("ms = int(s * 1000 + 0.5)\n") == [(1, "float literal 0.5")]
    assert floats_in("t = left / 1000\n") == [(1, "true division /")]
    assert floats_in("t = left / 1000  # float: socket timeout in seconds\n") == []
    assert floats_in("t = left / 1000  # float:\n") == [(1, "true division /")]  # needs a why
    assert floats_in("n = round(x)\nm = time.monotonic()\n") == [
        (1, "round()"), (2, "time.monotonic (a float clock)")]
    assert floats_in("ms = whole * 1000 + (int(frac * 2000) + 1) // 2\n") == []


def test_no_float_arithmetic_in_the_firmware():
    bad = []
    for path in _modules():
        if os.path.relpath(path, FIRMWARE).replace(os.sep, "/") in DISPLAY:
            continue
        with open(path, encoding="utf-8") as f:
            src = f.read()
        for line, what in floats_in(src, path):
            bad.append("%s:%d: %s" % (os.path.relpath(path, FIRMWARE), line, what))
    assert not bad, "floats on the board's integer paths (mark a library's float " \
                    "with '# float: why'):\n" + "\n".join(bad)
