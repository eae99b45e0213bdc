"""Heap bytes allocated per event, measured ON MicroPython (bench/run.py runs it).

    MICROPYPATH=<dir with tableclock/> micropython -X heapsize=4M bench/alloc_mpy.py SESSION

SESSION is replay-contract JSON lines (setup, then one event per line).  All
lines are parsed first; then, for every event, three windows are measured,
each as

    gc.collect(); gc.disable(); a = gc.mem_alloc(); <work>; b = gc.mem_alloc(); gc.enable()

with <work> = ``t.handle(ev)`` (apply the event, no state dict), then
``t.state()`` (build the contract's state) and ``json.dumps(state)``.  With
the collector off nothing is reclaimed inside the window, so b - a is what the
work left on the heap: garbage the collector must later sweep plus anything
kept.  (Blocks the runtime frees explicitly inside the window, e.g. a buffer
moved when it grows, are not counted.)  Sizes are in the port's GC blocks:
on the 64-bit unix port a block is 32 bytes and pointers are 8 bytes, so the
same objects take about half as much on a 32-bit board.

Prints one JSON object on stdout.  Runs on MicroPython only (gc.mem_alloc);
no pathlib, no f-strings.
"""

import gc
import json
import sys


def _pct(sorted_vals, p):
    """Nearest-rank percentile of an ascending list (p in 0..100)."""
    n = len(sorted_vals)
    k = (p * n + 99) // 100  # ceil(p/100 * n)
    if k < 1:
        k = 1
    return sorted_vals[k - 1]


def _summary(vals):
    s = sorted(vals)
    n = len(s)
    return {"mean": sum(s) / n, "p50": _pct(s, 50), "p99": _pct(s, 99), "max": s[-1],
            "min": s[0], "total": sum(s)}


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: micropython bench/alloc_mpy.py SESSION.jsonl\n")
        return 2
    if not hasattr(gc, "mem_alloc"):
        sys.stderr.write("alloc_mpy.py needs MicroPython (gc.mem_alloc)\n")
        return 2

    gc.collect()
    m_start = gc.mem_alloc()
    from tableclock.table import Table
    gc.collect()
    m_imported = gc.mem_alloc()

    from session import read  # bench/session.py, beside this script

    setup, events = read(argv[0])
    n = len(events)
    if setup is None or n == 0:
        sys.stderr.write("empty session\n")
        return 2

    # The measuring code itself must allocate nothing: check with an empty window.
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    b = gc.mem_alloc()
    gc.enable()
    overhead = b - a

    handle_b = [0] * n
    state_b = [0] * n
    json_b = [0] * n
    kinds = [None] * n
    refused = 0
    chars = 0
    gc.collect()
    m_before_table = gc.mem_alloc()
    t = Table(setup)
    gc.collect()
    m_table0 = gc.mem_alloc() - m_before_table

    i = 0
    for ev in events:
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        err = t.handle(ev)
        b = gc.mem_alloc()
        gc.enable()
        handle_b[i] = b - a
        if err is not None:
            refused += 1

        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        st = t.state()
        b = gc.mem_alloc()
        gc.enable()
        state_b[i] = b - a

        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        s = json.dumps(st)
        b = gc.mem_alloc()
        gc.enable()
        json_b[i] = b - a

        kinds[i] = ev.get("do") if isinstance(ev, dict) else None
        chars += len(s)
        st = None
        s = None
        i += 1

    gc.collect()
    m_table_end = gc.mem_alloc() - m_before_table

    by = {}
    for i in range(n):
        k = kinds[i]
        e = by.get(k)
        if e is None:
            e = by[k] = []
        e.append(handle_b[i])
    by_event = {}
    for k in by:
        e = _summary(by[k])
        by_event[str(k)] = {"n": len(by[k]), "mean": e["mean"], "p50": e["p50"],
                            "p99": e["p99"], "max": e["max"]}

    out = {
        "implementation": sys.implementation.name,
        "version": sys.version,
        "events": n,
        "refused": refused,
        "window_overhead_bytes": overhead,
        "engine_import_bytes": m_imported - m_start,
        "table_bytes_start": m_table0,
        "table_bytes_end": m_table_end,
        "handle": _summary(handle_b),
        "state": _summary(state_b),
        "json": _summary(json_b),
        "json_chars_mean": chars / n,
        "handle_by_event": by_event,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
