"""The figures of `make bench` (bench/README.md): one row each, judged against its goal, and
the table bench/run.py and every bench script alone print (figure | value | goal | status).

A figure is a dict: ``key``, ``name``, ``value`` (rounded), ``unit``, ``goal`` (None, or the
goal's bound and unit: ``{"below": 64, "unit": "KiB"}``, ``{"at_most": ...}`` or
``{"at_least": ...}``), ``status`` (met, MISSED, info without a goal, FAILED without a value)
and, when FAILED, ``error``.  bench/results.json keeps them as they are.
"""

from __future__ import annotations

import json

BOUNDS = ("below", "at_most", "at_least")


def goal_of(goals: dict, key: str, **override) -> dict:
    """The bound and unit of ``goals[key]`` (without its "why"), *override* laid over them."""
    g = {k: goals[key][k] for k in BOUNDS + ("unit",) if k in goals[key]}
    g.update(override)
    return g


def figure(key: str, name: str, value, unit: str, goal: dict | None = None,
           error: str | None = None, digits: int = 0) -> dict:
    """One row; *value* None is FAILED with *error*.  Judged on the unrounded value: met when
    below ``below``, at most ``at_most``, at least ``at_least``."""
    f: dict = {"key": key, "name": name, "value": None, "unit": unit, "goal": goal}
    if value is not None:
        f["value"] = round(value, digits) if digits else round(value)
    if value is None:
        f["status"] = "FAILED"
        f["error"] = error or "not measured"
    elif goal is None:
        f["status"] = "info"
    elif "at_most" in goal:
        f["status"] = "met" if value <= goal["at_most"] else "MISSED"
    elif "at_least" in goal:
        f["status"] = "met" if value >= goal["at_least"] else "MISSED"
    else:
        f["status"] = "met" if value < goal["below"] else "MISSED"
    return f


def print_table(figs: list[dict]) -> None:
    rows = [("figure", "value", "goal", "status")]
    for f in figs:
        v = "-" if f["value"] is None else "%s %s" % (f["value"], f["unit"])
        g = f["goal"]
        if g is None:
            g = "-"
        elif "at_most" in g:
            g = "<= %s %s" % (g["at_most"], g["unit"])
        elif "at_least" in g:
            g = ">= %s %s" % (g["at_least"], g["unit"])
        else:
            g = "< %s %s" % (g["below"], g["unit"])
        rows.append((f["name"], v, g, f["status"]))
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    for i, r in enumerate(rows):
        print("  %s | %s | %s | %s" % (r[0].ljust(w[0]), r[1].rjust(w[1]), r[2].ljust(w[2]),
                                       r[3]))
        if i == 0:
            print("  %s-+-%s-+-%s-+-%s" % ("-" * w[0], "-" * w[1], "-" * w[2], "-" * w[3]))
    for f in figs:
        if f["status"] == "FAILED":
            print("  FAILED %s: %s" % (f["name"], f["error"]))


def report(res: dict, as_json: bool, note: str | None = None) -> int:
    """A bench script's end: its results (``{"goals", "figures", "details"}``) as one JSON
    line for bench/run.py, or its table (and *note* in brackets below it); the exit code, 1
    when a measurement failed."""
    if as_json:
        print(json.dumps(res))
    else:
        print_table(res["figures"])
        if note is not None:
            print("  (%s)" % note)
    return 1 if any(f["status"] == "FAILED" for f in res["figures"]) else 0
