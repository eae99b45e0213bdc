"""Minimal test runner for tests/core that works on MicroPython and on CPython.

Usage (see `make test-mpy`):

    MICROPYPATH=firmware:tests/core micropython -X heapsize=256K \
        tests/mpy_runner.py [DIR] [-k SUBSTR]

DIR defaults to the `core` directory beside this file. Every DIR/test_*.py module is imported by
name (DIR must be importable: it is added to sys.path if missing) and every module-level callable
whose name starts with `test_` is called with no arguments. A test passes if it returns without
raising. The last line printed is exactly `N passed, M failed` (a module that cannot be imported
counts as one failure); the exit status is 1 when anything failed or no test was found at all.

Written for MicroPython: no pathlib, no f-strings with `=`, no traceback module.
"""

import gc
import os
import sys


def _print_exc(exc):
    if hasattr(sys, "print_exception"):
        sys.print_exception(exc)  # MicroPython / CircuitPython
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)


def _default_dir():
    here = __file__ if "__file__" in globals() else "tests/mpy_runner.py"
    i = here.rfind("/")
    base = here[:i] if i >= 0 else "."
    return base + "/core"


def _ticks_ms():
    import time

    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.time() * 1000)


def _ticks_diff(a, b):
    import time

    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(a, b)
    return a - b


def _parse_args(argv):
    directory = None
    pattern = None
    only = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-k" and i + 1 < len(argv):
            pattern = argv[i + 1]
            i += 2
            continue
        if a == "-m" and i + 1 < len(argv):
            only = argv[i + 1]
            i += 2
            continue
        if directory is None:
            directory = a
        else:
            print("usage: mpy_runner.py [DIR] [-k SUBSTR] [-m MODULE]")
            sys.exit(2)
        i += 1
    if directory is None:
        directory = _default_dir()
    while len(directory) > 1 and directory.endswith("/"):
        directory = directory[:-1]
    return directory, pattern, only


def _test_modules(directory):
    names = []
    for fn in os.listdir(directory):
        if fn.startswith("test_") and fn.endswith(".py"):
            names.append(fn[:-3])
    names.sort()
    return names


def main(argv):
    directory, pattern, only = _parse_args(argv)
    if directory not in sys.path:
        sys.path.append(directory)
    try:
        modules = _test_modules(directory)
        if only is not None:  # one module: a fresh heap of its own (tests/mpy_each.py)
            modules = [m for m in modules if m == only]
    except OSError as e:
        print("cannot list %s: %r" % (directory, e))
        print("0 passed, 0 failed")
        return 1

    passed = 0
    failed = 0
    failures = []
    start = _ticks_ms()
    preloaded = list(sys.modules)
    for modname in modules:
        gc.collect()
        try:
            mod = __import__(modname)
        except Exception as e:  # any import-time error counts as a failure
            print("ERROR importing %s:" % modname)
            _print_exc(e)
            failed += 1
            failures.append(modname + " (import)")
            continue
        names = [n for n in dir(mod) if n.startswith("test_")]
        names.sort()
        for name in names:
            fn = getattr(mod, name)
            if not callable(fn):
                continue
            full = modname + "." + name
            if pattern is not None and pattern not in full:
                continue
            gc.collect()
            try:
                fn()
            except Exception as e:  # every exception is a test failure
                failed += 1
                failures.append(full)
                print("FAIL %s" % full)
                _print_exc(e)
            else:
                passed += 1
        # Free the module and everything it imported before the next one: the
        # heap is small on purpose, and each test module gets it to itself.
        for name in list(sys.modules):
            if name not in preloaded:
                del sys.modules[name]
        mod = None
        fn = None

    elapsed = _ticks_diff(_ticks_ms(), start)
    impl = getattr(sys, "implementation", None)
    impl_name = impl.name if impl is not None else "?"
    print("%s: %d modules from %s in %d ms" % (impl_name, len(modules), directory, elapsed))
    if failures:
        print("failed: " + ", ".join(failures))
    if passed + failed == 0:
        print("no tests found in %s/test_*.py" % directory)
        print("0 passed, 0 failed")
        return 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
