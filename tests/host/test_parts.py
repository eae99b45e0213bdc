"""The part protocol between tcbox.app.App and its parts (docs/box.md, "The App and its
parts"; issue #34, KMK's modules as the model): the App reaches a part through the hooks
it declares (``tcbox.app.HOOKS``) only, and a part asks the App for its services only and
sets none of its attributes.

Both sides through the real USB Link on a night's worth of work: a new hand, saves with
the power-loss record, a new table from the host's set-up, an instruction shown and
confirmed, the host's clock moved; and the part modules read for what they do to the App.
"""

import ast
import sys
from pathlib import Path

from link_util import BOX, KEY, FakePort, Host, config, link_table
from tableclock import record
from tableclock.store import MemoryStore
from tcbox import app as app_module
from tcbox.app import HOOKS, App
from tcbox.instructions import pending
from tcbox.link.box_end import Link
from tcbox.link.states import LIVE

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
# what a part may ask of the App (docs/box.md, "The App and its parts"): its services and
# the three things it reads
SERVICES = {"instruct", "use_book", "take_table", "changed", "save", "show_link"}
READS = {"state", "table", "saver"}
# the App's parts and the modules that make them (the host link, over USB or Wi-Fi)
PART_MODULES = sorted((FIRMWARE / "tcbox" / "link").glob("*.py")) + [
    FIRMWARE / "tcbox" / "usb_link.py", FIRMWARE / "tcbox" / "mqtt_link.py"]
APP_CODE = {app_module.__file__, pending.__file__}


class _Screen:
    def update(self, f):
        return 0


class _Keys:
    def get(self):
        return None


class _Watched(App):
    """The App, noting every attribute set from code outside its own modules."""

    def __setattr__(self, name, value):
        code = sys._getframe(1).f_code.co_filename
        if code not in APP_CODE:
            self.__dict__.setdefault("_set_from_outside", []).append((name, code))
        object.__setattr__(self, name, value)


class _Spy:
    """A part as the App sees it: every name the App looks up on it is noted."""

    def __init__(self, part):
        self.__dict__["_part"] = part
        self.__dict__["_asked"] = set()

    def __getattr__(self, name):
        self._asked.add(name)
        return getattr(self._part, name)


def _night():
    t = link_table()
    saver = record.Saver(record.Slots(MemoryStore(8192)))
    app = _Watched(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=saver)
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    spy = _Spy(link)
    app.add(spy)
    host = Host(port)
    now = [0]

    def steps(n=5):
        for _ in range(n):
            app.step(now[0])
            now[0] += 10

    steps(3)
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce))
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}})
    host.send({"kind": "clock", "level_index": 0, "ms_left": 600000, "paused": False,
               "host_ms": 0})
    steps(10)
    assert link.state == LIVE
    host.send(config(t, nonce, seats=8))  # a new set-up: a new table once seated
    host.send({"kind": "seating", "names": {"1": "A", "8": "B"},
               "stacks": {"1": 3000, "8": 2000}})
    host.send({"kind": "clock", "level_index": 0, "ms_left": 500000, "paused": False,
               "host_ms": 0})
    steps(10)
    assert link.state == LIVE and app.table.n == 8
    app.press("ok", False)  # New hand
    steps()
    host.send({"kind": "instruction", "id": "i-1", "action": "message", "text": "Colour up"})
    steps()
    assert app.awaiting()
    app.ack()  # the dealer's Confirm
    steps()
    host.send({"kind": "clock", "level_index": 1, "ms_left": 30000, "paused": True,
               "host_ms": 0})
    steps()
    return app, spy, link, host


def test_the_app_reaches_its_part_by_its_hooks_only_and_sets_nothing_from_outside():
    app, spy, link, host = _night()
    told = [(m["what"], m.get("result")) for m in host.read() if m["kind"] == "event"]
    assert ("hand_started", None) in told and ("instruction", "done") in told
    assert app.table is link.table and app.table.n == 8  # the host's new table, taken
    assert app.info["link"].startswith("USB ok") and app.info["table"] == 4
    assert spy._asked <= set(HOOKS), spy._asked - set(HOOKS)
    assert {"after_step", "on_state", "on_save", "on_result", "seating"} <= spy._asked
    assert app.__dict__.get("_set_from_outside") is None


def test_the_watch_sees_an_attribute_set_from_outside():
    app = _Watched(link_table(), ["left", "ok", "right"], _Screen(), _Keys())
    app.dirty = True
    assert app._set_from_outside == [("dirty", __file__)]
    spy = _Spy(Link(FakePort(), BOX, link_table(), KEY, "ev1"))
    spy.poll(0)
    assert spy._asked == {"poll"}


def _uses_of_the_app(tree):
    """(name, stored?) of every attribute a part module uses on the App: on ``app`` (a
    hook's argument) or ``<x>.app`` (the App a part keeps)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        if (isinstance(v, ast.Name) and v.id == "app") or (
                isinstance(v, ast.Attribute) and v.attr == "app"):
            out.append((node.attr, isinstance(node.ctx, ast.Store)))
    for node in ast.walk(tree):  # app.info["link"] = ...: a write into the App's state
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            base = node.value
            if isinstance(base, ast.Attribute):
                v = base.value
                if (isinstance(v, ast.Name) and v.id == "app") or (
                        isinstance(v, ast.Attribute) and v.attr == "app"):
                    out.append((base.attr, True))
    return out


def test_a_part_asks_the_app_for_its_services_only_and_writes_none_of_its_state():
    bad = []
    for path in PART_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, stored in _uses_of_the_app(tree):
            if stored or name not in SERVICES | READS:
                bad.append("%s: app.%s%s" % (path.name, name, " =" if stored else ""))
    assert bad == []


def test_the_check_of_the_part_modules_sees_a_write():
    tree = ast.parse("def after_step(self, app, now):\n"
                     "    app.dirty = True\n    app.info['link'] = 'x'\n"
                     "    self.app.show_link('x', 1)\n    app.menu.note = ''\n")
    assert sorted(_uses_of_the_app(tree)) == [("dirty", True), ("info", False), ("info", True),
                                              ("menu", False), ("show_link", False)]


def test_the_app_names_no_part_but_through_its_hooks():
    """tcbox/app.py and its instructions' share call a part's hooks (``part.<hook>``) and
    keep no part under a name of its own (no ``self.link``)."""
    bad = []
    for path in (Path(app_module.__file__), Path(pending.__file__)):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "part" and node.attr not in HOOKS):
                bad.append("%s: part.%s" % (path.name, node.attr))
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "self" and node.attr == "link"):
                bad.append("%s: self.link" % path.name)
    assert bad == []
