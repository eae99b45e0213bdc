"""Classes shaped by the state they own (issue #34), in place of the old 300-line cap on a
class: a cap is passed by moving methods out "with the same body" into mixins or into
functions that take the object first, and the class is the same class, harder to read.

- Every class's methods share its state: the methods that use the instance's attributes
  form one group, each linked to another by an attribute both use (or by calling a method
  that uses it) -- LCOM4 = 1.  A class whose methods fall in two groups is two classes.
- No class is spread over functions outside it that take it first (``def f(live: "Live",
  ...)`` reading and writing ``live``'s state) or over mixins: today's counts are a ceiling
  that may only fall (``SPREAD``). Live, Link, App and BoxLink are at 0 (stop 29). Table's
  are the rules core's procedures in the module of their concept -- dealing a hand
  (``tableclock.hand``), the record and its dumper and check, the floor's procedures, the
  view a screen reads (``tableclock.state``), an instruction's helpers at the box -- several
  loaded only when used (the dumper, the floor's procedures: ``table.py``), so the board's
  heap does not hold them all night as the Table's methods; they may only fall.
"""

import ast
import re

from test_layout import PACKAGES, modules

SPECIAL = re.compile(r"^__\w+__$")  # __init__ (it sets every attribute), a protocol's method


def _classes():
    for package in PACKAGES:
        for name, path in sorted(modules(package).items()):
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    yield name, node, tree


def _bases(node):
    return [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute)
            else "" for b in node.bases]


def groups(node):
    """The groups of *node*'s instance methods linked by the attributes they use (a call
    of another method counts as using what that method uses); methods that use none are
    left out (they could be functions), and so are ``__init__``, which sets them all, and
    the special methods."""
    methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
               and m.args.args and not SPECIAL.match(m.name)
               and not any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                           for d in m.decorator_list)]
    names = {m.name for m in methods}
    uses, calls = {}, {}
    for m in methods:
        me = m.args.args[0].arg
        attrs = [n.attr for n in ast.walk(m) if isinstance(n, ast.Attribute)
                 and isinstance(n.value, ast.Name) and n.value.id == me]
        uses[m.name] = {a for a in attrs if a not in names}
        calls[m.name] = {a for a in attrs if a in names}
    changed = True
    while changed:
        changed = False
        for m in uses:
            for c in calls[m]:
                if not uses[c] <= uses[m]:
                    uses[m] |= uses[c]
                    changed = True
    left = [m for m in uses if uses[m]]
    out = []
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            m = todo.pop()
            group.add(m)
            for n in [n for n in left if uses[n] & uses[m]]:
                left.remove(n)
                todo.append(n)
        out.append(sorted(group))
    return out


def test_every_class_kept_apart_is_still_apart():
    classes = {"%s.%s" % (module, node.name): node for module, node, _ in _classes()}
    assert [k for k in APART if k not in classes or len(groups(classes[k])) < 2] == []


# Classes in two groups on purpose, each with why; an entry may go, never come (stop 28).
APART = {
    # a channel: what is read and what is written share only the connection
    "tdhost.links.mqtt.HubPort": "a duplex channel",
    "tdhost.links.pipe.CableEnd": "a duplex channel",
    "tcsim.stubs.usb_cdc.Serial": "a duplex channel",
    # stand-ins for a library's API, method for method
    "tcsim.boxnet.BoxSocketPool": "socketpool's API", "tcbox.mqtt_net._Pool": "socketpool's API",
    "tcsim.stubs.keypad.Keys": "keypad's API", "tcsim.stubs._world.Nvm": "nvm and its power cut",
    "tcsim.stubs._world.World": "the virtual clock and the board's parts",
    # test benches and patches: their installing and their counting
    "tcsim.nightbots.Floor": "a patch and its record",
    "tcsim.scalecheck.Names": "a patch and its record",
    "tcsim.selftest_bench.Bench": "a bench: keys, screen, log",
    # issue #34's debt: to be split by what they own
    "tdhost.league.replay.League": "the log and the standings",
    "tdhost.live.tables.TableView": "a box's redraw, its hand, its contact",
    "tcbox.selftest_screen.SelfTestScreen": "its rows and its refresh",
}


def test_every_class_s_methods_share_its_state():
    """Subclasses of the project's own classes share their base's state, which this does
    not see: they are left to their base's check."""
    own = {node.name for _, node, _ in _classes()}
    split = []
    for module, node, _ in _classes():
        if set(_bases(node)) & own or "%s.%s" % (module, node.name) in APART:
            continue
        parts = groups(node)
        if len(parts) > 1:
            split.append("%s.%s: %s" % (module, node.name, " | ".join(
                ", ".join(p[:4]) for p in parts)))
    assert split == []


def test_the_cohesion_check_sees_two_classes_in_one(tmp_path):
    node = ast.parse(
        "class Two:\n"
        "    def __init__(self):\n        self.a = 1\n        self.b = 2\n"
        "    def up(self):\n        self.a += 1\n"
        "    def down(self):\n        self.b -= 1\n").body[0]
    one = ast.parse(
        "class One:\n"
        "    def __init__(self):\n        self.a = 1\n        self.b = 2\n"
        "    def up(self):\n        self.a += self.b\n").body[0]
    assert len(groups(node)) == 2 and len(groups(one)) == 1


# The classes that hold a night's or a box's running state (not values that pure functions
# read, like a Tournament a decider is asked about): functions outside their module that take
# one first -- by annotation, type comment (the firmware's) or name (``link``) -- are that
# class's methods in disguise.  Mixins of any class count the same.  Today's counts (issue
# #34's debt) may only fall.  A class's declared hooks are not in disguise: the handlers its
# module's ``EVENTS`` registry names (tableclock.table: each event's function of the table,
# in the module of its concept; docs/architecture.md) are not counted, nor the handlers a
# command dispatcher's ``ACTIONS`` registry names in their own module (tcbox.instructions.
# at_table: what each host instruction does, through the table's own events).
CONTEXTS = {"Live", "Link", "App", "BoxLink", "Table"}
SPREAD = {"Live": 0, "Table": 37}  # App 0: its part protocol; BoxLink 0, Link 0
TYPE_COMMENT = re.compile(r"#\s*type:\s*\(\s*\"?(\w+)")


def _first_type(node, lines):
    ann = node.args.args[0].annotation
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return ann.value
    if isinstance(ann, ast.Name):
        return ann.id
    for line in lines[node.lineno - 1:node.body[0].lineno]:
        m = TYPE_COMMENT.search(line)
        if m:
            return m.group(1)
    named = [c for c in CONTEXTS if c.lower() == node.args.args[0].arg]  # untyped: its name
    return named[0] if named else None


def registered(tree, registry="EVENTS"):
    """The names a module's ``EVENTS`` (or, with *registry*, another) registry holds: its keys
    (an event loaded by name, like a floor procedure, is the function of that name) and its
    handlers."""
    names = set()
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                and [t.id for t in node.targets if isinstance(t, ast.Name)] == [registry]):
            for k in node.value.keys:
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    names.add(k.value)
            for v in node.value.values:
                names.add(v.attr if isinstance(v, ast.Attribute)
                          else v.id if isinstance(v, ast.Name) else "")
    return names


def spread():
    """{class: functions outside its module that take it first, plus its mixins}; the
    handlers its module's registry names are left out (``registered``)."""
    own = {node.name: module for module, node, _ in _classes()}
    hooks = {node.name: registered(tree) for _, node, tree in _classes()}
    out = {}
    for package in PACKAGES:
        for module, path in sorted(modules(package).items()):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            lines = text.splitlines()
            tree = ast.parse(text, path)
            dispatched = registered(tree, "ACTIONS")
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
                    cls = _first_type(node, lines)
                    if (cls in CONTEXTS and cls in own and own[cls] != module
                            and node.name not in hooks[cls] and node.name not in dispatched):
                        out[cls] = out.get(cls, 0) + 1
                elif isinstance(node, ast.ClassDef):
                    mixins = [b for b in _bases(node) if b in own]
                    if len(mixins) > 1:
                        out[node.name] = out.get(node.name, 0) + len(mixins)
    return out


def test_no_class_spreads_further_over_functions_or_mixins():
    now = spread()
    grown = {k: (SPREAD.get(k, 0), v) for k, v in now.items() if v > SPREAD.get(k, 0)}
    assert grown == {}, "(was, now): move these into the class that owns the state"


def test_the_spread_leaves_out_only_what_a_registry_names():
    tree = ast.parse('from . import seats\n\n'
                     'EVENTS = {"sit": seats.sit, "misdeal": _load}\n\n'
                     'def _load(table, ev):\n    pass\n')
    assert registered(tree) == {"sit", "misdeal", "_load"}
    assert registered(ast.parse("OTHER = {'sit': seats.sit}\n")) == set()
    assert registered(ast.parse("ACTIONS = {'pause': _pause}\n"), "ACTIONS") == {"pause", "_pause"}
