"""The layout of docs/architecture.md holds: the packages' dependencies point one way (tdhost
never imports tcsim or tcbox; tableclock imports neither host nor box), the host's modules and
classes stay small with short docstrings, and no two classes share a name (issue #14)."""

import ast
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = {"tdhost": "host_tools/tdhost", "tcsim": "host_tools/tcsim",
            "tableclock": "firmware/tableclock", "tcbox": "firmware/tcbox"}
FORBIDDEN = {"tdhost": {"tcsim", "tcbox"}, "tableclock": {"tdhost", "tcsim", "tcbox"},
             "tcbox": {"tdhost", "tcsim"}}


def modules(package):
    """{dotted name: path} of every module of *package* in the tree."""
    base = os.path.join(ROOT, PACKAGES[package])
    out = {}
    for dirpath, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, f), base)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join([package] + rel)] = os.path.join(dirpath, f)
    return out


def imported(name, path):
    """The top-level packages the module *name* at *path* imports, anywhere in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    is_pkg = path.endswith("__init__.py")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if is_pkg else 0)
                out.add((parts[:keep] or [""])[0])
            elif node.module:
                out.add(node.module.split(".")[0])
    return out


def test_each_package_imports_only_what_it_may():
    bad = []
    for package, forbidden in FORBIDDEN.items():
        mods = modules(package)
        assert len(mods) > 5, package
        for name, path in sorted(mods.items()):
            for top in sorted(imported(name, path) & forbidden):
                bad.append("%s imports %s" % (name, top))
    assert bad == []


def test_the_checker_sees_a_forbidden_import(tmp_path):
    """The walk above would catch one (a test that cannot fail proves nothing)."""
    p = tmp_path / "m.py"
    p.write_text("def f():\n    from tcbox.link import Lines\n    import tcsim.room as r\n")
    assert imported("tdhost.m", str(p)) >= {"tcbox", "tcsim"}
    p.write_text("from . import x\nfrom .. import y\n")
    assert imported("tcsim.stubs.board", str(p)) == {"tcsim"}


def test_importing_every_host_module_loads_no_box_or_simulator_module():
    names = sorted(n for n in modules("tdhost") if n != "tdhost.__main__")
    code = ("import importlib, sys\n"
            "for n in %r:\n"
            "    importlib.import_module(n)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tcsim', 'tcbox')))"
            % names)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host_tools"))
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def _named(text):
    """The module names (``pkg.mod``) and paths (with a ``/``) written in backticks."""
    names, paths = set(), set()
    for tok in re.findall(r"`([^`\s]+)`", text):
        if "/" in tok:
            paths.add(tok.rstrip("/"))
        elif re.fullmatch(r"(tableclock|tcbox|tdhost|tcsim|tcfirmware)(\.\w+)*", tok):
            names.add(tok)
    return names, paths


def _exists(name):
    """Is *name* a package or module of the tree (or a package the wheel maps)?"""
    top, _, rest = name.partition(".")
    mapped = {"tcfirmware": "firmware", "tcsim.examples": "docs/examples"}
    if name in mapped:
        return os.path.isdir(os.path.join(ROOT, mapped[name]))
    if top not in PACKAGES:
        return False
    base = os.path.join(ROOT, PACKAGES[top], *rest.split(".")) if rest else \
        os.path.join(ROOT, PACKAGES[top])
    return os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py"))


def test_architecture_md_names_only_what_exists_and_every_package():
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    names, paths = _named(text)
    assert len(names) > 20
    assert [n for n in sorted(names) if not _exists(n)] == []
    assert [p for p in sorted(paths) if not os.path.exists(os.path.join(ROOT, p))] == []
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        packages = tomllib.load(f)["tool"]["setuptools"]["packages"]
    tops = {p for p in packages if "." not in p} | {"tcsim.examples"}
    assert tops - names == set()  # every package the wheel carries is described
    assert not _exists("tdhost.nosuchmodule") and _exists("tdhost.web")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert "(docs/architecture.md)" in f.read()


# Imported only where the module runs on a board (CircuitPython's own), by the simulator's stand-
# ins (tcsim.stubs, installed under these names), or by developer tools that are not part of
# what a TD runs (the demo's screenshots in tcsim.nightshow: Playwright).
BOARD_ONLY = {"adafruit_hx8357", "micropython", "usb_hid", "usb_midi", "alarm", "rtc",
              "terminalio", "vectorio"}
STUBBED = {"_world", "watchdog", "microcontroller", "board", "busio", "digitalio", "keypad",
           "neopixel", "usb_cdc", "wifi", "socketpool", "supervisor", "storage", "pwmio"}
DEV_ONLY = {"playwright", "httpx", "night", "fake_live"}


def _dist(name):
    return re.split(r"[<>=!~;\[ ]", name, maxsplit=1)[0].strip().lower().replace("_", "-")


def test_what_the_host_and_simulator_import_is_a_declared_dependency():
    """`pip install .` installs what tdhost, tcsim and tcbox import (segno was once missed),
    and requirements-dev.txt pins each of them for `make setup`."""
    from importlib.metadata import packages_distributions

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    # the optional extras count too (`.[league]`: psycopg for tdhost.season)
    declared = {_dist(d) for d in project["dependencies"]} | {
        _dist(d) for extra in project.get("optional-dependencies", {}).values() for d in extra}
    with open(os.path.join(ROOT, "requirements-dev.txt"), encoding="utf-8") as f:
        pinned = {_dist(line) for line in f if line.strip() and not line.startswith("#")}
    assert declared - pinned == set()
    dists = packages_distributions()
    ours = set(PACKAGES) | set(sys.stdlib_module_names) | BOARD_ONLY | STUBBED | DEV_ONLY
    missing = []
    for package in ("tdhost", "tcsim", "tcbox"):
        for name, path in sorted(modules(package).items()):
            for top in sorted(imported(name, path) - ours - {""}):
                names = {_dist(d) for d in dists.get(top, [top])}
                if not names & declared:
                    missing.append("%s imports %s" % (name, top))
    assert missing == []


# -- sizes and names (issue #14: "no module over ~600 lines"; "no two classes with one name";
# "module docstrings say what the module owns in a few lines").  A class's size is not capped
# any more: test_cohesion.py checks what the cap was for (issue #34) --------------------------
HOST = ("tdhost", "tcsim")
MAX_MODULE, MAX_DOC = 600, 10


def _tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def test_no_host_module_over_600_lines():
    big = []
    for package in HOST:
        for name, path in sorted(modules(package).items()):
            with open(path, encoding="utf-8") as f:
                lines = sum(1 for _ in f)
            if lines > MAX_MODULE:
                big.append("%s: %d lines" % (name, lines))
    assert big == []


def test_no_two_classes_share_a_name():
    """Across the host, the simulator and the firmware; the simulator's stand-ins for
    CircuitPython's modules (tcsim.stubs) keep the real library's names."""
    seen = {}
    for package in PACKAGES:
        for name, path in sorted(modules(package).items()):
            if name.startswith("tcsim.stubs"):
                continue
            for node in ast.walk(_tree(path)):
                if isinstance(node, ast.ClassDef):
                    seen.setdefault(node.name, []).append(name)
    assert {k: v for k, v in seen.items() if len(v) > 1} == {}


def test_host_module_docstrings_are_a_few_lines():
    long = []
    for package in HOST:
        for name, path in sorted(modules(package).items()):
            doc = ast.get_docstring(_tree(path)) or ""
            if len(doc.splitlines()) > MAX_DOC:
                long.append("%s: %d lines" % (name, len(doc.splitlines())))
            if not doc:
                long.append("%s: no docstring" % name)
    assert long == []


# -- import cycles (issue #34): modules of firmware/ and host_tools/ that import each other,
# at the top or inside a function; an import under `if False:` or `if TYPE_CHECKING:` never
# runs (type comments and annotations only) and is left out --------------------------------
CYCLE_ROOTS = ("firmware", "host_tools")


def tree_modules():
    """{dotted name: path} of every module under firmware/ and host_tools/."""
    out = {}
    for top in CYCLE_ROOTS:
        base = os.path.join(ROOT, top)
        for dirpath, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.endswith(".egg-info")]
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, f), base)[:-3].split(os.sep)
                    out[".".join(rel[:-1] if rel[-1] == "__init__" else rel)] = \
                        os.path.join(dirpath, f)
    return out


def _runs(tree):
    """The import statements of *tree* that can run (not under ``if False``/TYPE_CHECKING)."""
    def typing_only(node):
        t = node.test
        return (isinstance(t, ast.Constant) and t.value is False) or (
            isinstance(t, ast.Name) and t.id == "TYPE_CHECKING")

    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and typing_only(child):
                todo.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append(child)
            todo.append(child)
    return out


def import_graph(mods):
    """{module: the modules of *mods* it imports}; ``from p import m`` counts p and p.m,
    ``import p.q`` counts p and p.q."""
    graph = {}
    for name, path in mods.items():
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        deps = set()
        for node in _runs(_tree(path)):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".") if package else []
                    parts = parts[:len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [base] + ["%s.%s" % (base, a.name) for a in node.names]
            for t in targets:  # a module imports its packages too (their __init__)
                parts = t.split(".")
                deps |= {p for p in (".".join(parts[:i + 1]) for i in range(len(parts)))
                         if p in mods and p != name}
        graph[name] = deps
    return graph


def cycles(graph):
    """The import cycles of *graph*: its strongly connected parts of two modules or more, as
    sorted tuples (Tarjan's algorithm, without recursion)."""
    index, low, on, stack, found = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    found.append(tuple(sorted(part)))
    return sorted(found)


def listed_cycles():
    """{the modules of a cycle: its justification} from docs/architecture.md "Import cycles"."""
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Import cycles\n", 1)[1].split("\n## ", 1)[0]
    out = {}
    for item in re.split(r"\n(?=- )", section):
        if not item.startswith("- "):
            continue
        head, _, why = item.partition(": ")
        out[tuple(sorted(re.findall(r"`([\w.]+)`", head)))] = " ".join(why.split())
    return out


def test_every_import_cycle_is_listed_in_architecture_md_with_its_reason():
    found = cycles(import_graph(tree_modules()))
    listed = listed_cycles()
    assert [c for c in found if c not in listed] == []  # a new cycle: break it, or list it
    assert [c for c in listed if c not in found] == []  # a listed one is gone: drop its item
    assert [c for c, why in listed.items() if len(why.split()) < 12] == []  # says why


def test_the_cycle_finder_sees_a_lazy_cycle_and_skips_type_only_imports(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from .b import X\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from . import a\n")
    (tmp_path / "pkg" / "c.py").write_text("if TYPE_CHECKING:\n    from .a import Y\n")
    (tmp_path / "pkg" / "d.py").write_text("if False:\n    import pkg.c\nimport pkg.a\n")
    mods = {"pkg": str(tmp_path / "pkg" / "__init__.py")}
    mods.update({"pkg." + m: str(tmp_path / "pkg" / (m + ".py")) for m in "abcd"})
    graph = import_graph(mods)
    assert graph["pkg.b"] == {"pkg", "pkg.a"} and graph["pkg.c"] == set()
    assert graph["pkg.d"] == {"pkg", "pkg.a"}
    assert cycles(graph) == [("pkg.a", "pkg.b")]


# -- what docs/architecture.md states holds (issue #34): the modules its tables name exist,
# every module of the host and the simulator is named, and the directions it states between
# the parts are those of the imports ------------------------------------------------------
TOPS = ("tableclock", "tcbox", "tdhost", "tcsim", "tcfirmware")


def _architecture():
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        return f.read()


def _sections(text):
    """[(the package a section's heading names in backticks or None, its lines)]."""
    out = []
    for part in re.split(r"\n(?=## )", text):
        head = part.split("\n", 1)[0]
        named = re.findall(r"`((?:%s)[\w.]*)`" % "|".join(TOPS), head) if head.startswith(
            "## ") else []
        out.append((named[0] if named else None, part.split("\n")))
    return out


def _resolve(token, package):
    """A module named in a table: dotted in full, or bare within its section's package."""
    if token.split(".")[0] in TOPS or package is None:
        return token
    return "%s.%s" % (package, token)


def architecture_tables():
    """[[(the modules named in a row's first cell, [the other cells]) per row] per table]."""
    tables = []
    for package, lines in _sections(_architecture()):
        rows = None
        for line in lines + [""]:
            if line.startswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if rows is None:
                    rows = []  # the header
                elif not set(cells[0]) <= set("- "):
                    rows.append(([_resolve(t, package) for t in
                                  re.findall(r"`([\w.]+)`", cells[0])], cells[1:]))
            elif rows is not None:
                tables.append(rows)
                rows = None
    return tables


def test_every_module_a_table_of_architecture_md_names_exists():
    named = [m for rows in architecture_tables() for mods, _ in rows for m in mods]
    assert len(named) > 40
    assert [m for m in named if not _exists(m)] == []


def _named_in(doc):
    """The ``name.py`` files a doc names in backticks (docs/live.md, docs/web.md)."""
    with open(os.path.join(ROOT, "docs", doc), encoding="utf-8") as f:
        return set(re.findall(r"`(\w+)\.py`", f.read()))


def test_every_module_of_the_host_and_simulator_is_named_in_architecture_md():
    """Named in full, or in the table of its package; the modules of `tdhost.live` and
    `tdhost.web` in the docs architecture.md sends them to (their tables of modules), the
    stand-ins of `tcsim.stubs` by their package."""
    text = _architecture()
    named = _named(text)[0] | {m for rows in architecture_tables() for mods, _ in rows
                               for m in mods}
    elsewhere = {"tdhost.live": _named_in("live.md"), "tdhost.web": _named_in("web.md")}
    missing = []
    for name in sorted(set(modules("tdhost")) | set(modules("tcsim"))):
        package, _, last = name.rpartition(".")
        if name in named or last == "__main__" or package == "tcsim.stubs":
            continue
        if last not in elsewhere.get(package, ()):
            missing.append(name)
    assert missing == []


def _part_of(name, parts):
    found = [p for p in parts if name == p or name.startswith(p + ".")]
    return max(found, key=len) if found else None


def test_the_directions_inside_tdhost_that_architecture_md_states_hold():
    table = [rows for rows in architecture_tables() if rows and rows[0][1] == ["none"]][0]
    allowed = {}
    for parts, (imports,) in table:
        for part in parts:
            allowed[part] = set(re.findall(r"`([\w.]+)`", imports)) if imports not in (
                "none", "all the others") else (set() if imports == "none" else None)
    graph = import_graph(tree_modules())
    bad = []
    for name in sorted(modules("tdhost")):
        part = _part_of(name, allowed)
        if part is None:
            assert name in ("tdhost", "tdhost.__main__"), "%s is in no part" % name
            continue
        for dep in sorted(graph[name]):
            other = _part_of(dep, allowed)
            if other not in (None, part) and allowed[part] is not None and \
                    other not in allowed[part]:
                bad.append("%s imports %s" % (name, dep))
    assert bad == []


def _levels(groups, graph, exempt=()):
    """Imports from a module to one of a later group (*groups*: [modules] in order)."""
    level = {m: i for i, group in enumerate(groups) for m in group}
    return ["%s imports %s" % (m, d) for m in sorted(level) for d in sorted(graph[m])
            if level.get(d, -1) > level[m] and tuple(sorted((m, d))) not in exempt]


def test_the_league_and_the_simulator_depend_one_way_as_architecture_md_says():
    graph = import_graph(tree_modules())
    league = [part for package, part in _sections(_architecture())
              if part[0] == "## The league"][0]
    items = re.split(r"\n(?=- )", "\n".join(league))
    groups = [[m for m in re.findall(r"`(tdhost\.league\.\w+)`", item)] for item in items
              if item.startswith("- ")]
    assert len(groups) >= 5 and "tdhost.league.store" in groups[0]
    assert _levels(groups, graph) == []
    tcsim = [rows for rows in architecture_tables() if rows[0][0] == ["tcsim.stubs"]][0]
    assert len(tcsim) >= 8
    assert _levels([mods for mods, _ in tcsim], graph, exempt=set(listed_cycles())) == []


def test_the_level_check_sees_an_import_upwards():
    graph = {"a": {"b"}, "b": set(), "c": {"a"}}
    assert _levels([["a"], ["b", "c"]], graph) == ["a imports b"]
    assert _levels([["a"], ["b", "c"]], graph, exempt={("a", "b")}) == []


# -- file names (issue #34): a module's file name says what it holds, so no two modules of
# firmware/ and host_tools/ share one (``__init__.py`` and ``__main__.py`` aside, and the
# simulator's stand-ins under tcsim/stubs, which keep CircuitPython's module names).  Today's
# shared names may only go: rename a module for the concept it owns, then drop its name here.
SHARED_NAMES = {
    "actions": "tableclock.actions (the box's actions) and tdhost.actions (the TD's)",
    "app": "tcbox.app, tdhost.cli.app and tdhost.web.app",
    "night": "tdhost.cli.night and tdhost.live.night",
    "replay": "tableclock.replay and tdhost.league.replay",
    "store": "tableclock.store and tdhost.league.store",
}


def shared_file_names(mods):
    """{file name without .py: the modules of *mods* ({dotted name: path}) that have it},
    for the names two modules or more share."""
    by_name = {}
    for name, path in mods.items():
        base = os.path.basename(path)[:-3]
        stub = os.sep + os.path.join("tcsim", "stubs") + os.sep in path
        if base in ("__init__", "__main__") or stub:
            continue
        by_name.setdefault(base, []).append(name)
    return {k: sorted(v) for k, v in by_name.items() if len(v) > 1}


def test_no_new_module_shares_its_file_name_with_another():
    shared = shared_file_names(tree_modules())
    new = {k: v for k, v in shared.items() if k not in SHARED_NAMES}
    assert new == {}  # name the module for what it owns
    assert [k for k in SHARED_NAMES if k not in shared] == []  # gone: drop it from the list


def test_the_file_name_check_sees_a_shared_name_and_skips_the_stubs(tmp_path):
    paths = {"tdhost.live.clock": tmp_path / "tdhost" / "live" / "clock.py",
             "tableclock.clock": tmp_path / "tableclock" / "clock.py",
             "tdhost.live": tmp_path / "tdhost" / "live" / "__init__.py",
             "tableclock": tmp_path / "tableclock" / "__init__.py",
             "tcsim.stubs.board": tmp_path / "tcsim" / "stubs" / "board.py",
             "tcsim.board": tmp_path / "tcsim" / "board.py"}
    shared = shared_file_names({k: str(v) for k, v in paths.items()})
    assert shared == {"clock": ["tableclock.clock", "tdhost.live.clock"]}
