"""Each board profile against CircuitPython's own description of that board
(circuitpython-stubs' board_definitions/<board_id>/__init__.pyi): every pin a
profile names exists on the board, and every module the firmware imports is
built into that board's CircuitPython (or is an Adafruit library installed
with circup: firmware/requirements.txt)."""

import ast
import os
import re

import board_definitions

from tcbox.boards import BOARDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
OWN = {"tableclock", "tcbox"}
LIBRARIES = {"adafruit_display_text", "adafruit_hx8357", "neopixel"}  # circup installs these
CORE = {"gc", "micropython", "sys", "builtins"}  # in every CircuitPython build


def _stub(board_id):
    base = list(board_definitions.__path__)[0]  # a namespace package: no __file__
    path = os.path.join(base, board_id, "__init__.pyi")
    with open(path) as f:
        return f.read()


def _pins(text):
    return set(re.findall(r"^(\w+): microcontroller\.Pin", text, re.M)) | set(
        re.findall(r"^def (\w+)\(\)", text, re.M)) | {"DISPLAY"}


def _modules(text):
    m = re.search(r"Included modules: (.*)", text)
    return {x.strip().split(".")[0] for x in m.group(1).split(",")}


def _named_pins(p):
    names = [k["pin"] for k in p["keys"]]
    for key in ("cs", "dc", "reset", "backlight"):
        if p["display"].get(key):
            names.append(p["display"][key])
    for part in ("ring", "buzzer"):
        if p[part]:
            names.append(p[part]["pin"])
    names += [p["status_pixel"]["pin"], p["status_pixel"]["power"]]
    return names + list(p["reserved"])


def _firmware_imports():
    """Top-level modules imported by the firmware, except imports guarded by
    ``try: ... except ImportError`` or under ``if TYPE_CHECKING:`` (a module
    constant False on the board) or ``if False:`` (the type comments' names, compiled
    away): the import never runs there."""
    found = set()
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for fn in files:
            if not fn.endswith(".py"):
                continue
            with open(os.path.join(dirpath, fn)) as f:
                tree = ast.parse(f.read())
            guarded = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Try) and any(
                        isinstance(h.type, ast.Name) and h.type.id == "ImportError"
                        for h in node.handlers):
                    for sub in node.body:
                        for n in ast.walk(sub):
                            guarded.add(id(n))
                if isinstance(node, ast.If) and (
                        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
                        or (isinstance(node.test, ast.Constant) and node.test.value is False)):
                    for sub in node.body:
                        for n in ast.walk(sub):
                            guarded.add(id(n))
            for node in ast.walk(tree):
                if id(node) in guarded:
                    continue
                if isinstance(node, ast.Import):
                    found |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return found


def test_every_pin_a_profile_names_is_on_its_board():
    for name, p in BOARDS.items():
        pins = _pins(_stub(p["board_id"]))
        missing = [x for x in _named_pins(p) if x not in pins]
        assert not missing, "%s: board %s has no %s" % (name, p["board_id"], missing)


def test_every_module_the_firmware_imports_is_built_in_or_a_library():
    used = _firmware_imports() - OWN - LIBRARIES - CORE
    assert {"board", "keypad", "displayio", "microcontroller", "supervisor"} <= used
    for name, p in BOARDS.items():
        have = _modules(_stub(p["board_id"]))
        missing = sorted(used - have)
        assert not missing, "%s: CircuitPython for %s lacks %s" % (name, p["board_id"], missing)
